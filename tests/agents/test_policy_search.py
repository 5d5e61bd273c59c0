"""Policies over a real `Index` (letter-count embedder): `search --policy` and the eval retrievers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import openapi_rag.llm
from openapi_rag.bench.agent_retrievers import AgentRetrieverFactory, PolicyRetrieverFactory
from openapi_rag.bench.retrievers import RunConfig
from openapi_rag.cli import cli
from openapi_rag.embed import register_embedder, unregister_embedder
from openapi_rag.index import Index
from openapi_rag.model import Service
from openapi_rag.spec.load import load_service
from tests.agents.test_discover_cmd import SPEC, LetterEmbedder
from tests.llm.doubles import ScriptedLLM


@pytest.fixture
def service() -> Iterator[Service]:
    register_embedder("letters", lambda **_: LetterEmbedder())
    yield load_service(SPEC, service_id="music")
    unregister_embedder("letters")


@pytest.fixture
def index_dir(service: Service, tmp_path: Path) -> Path:
    Index.build([service], strategy="endpoint", embedder="letters", cache=False).save(tmp_path / "idx")
    return tmp_path / "idx"


def _build(services: list[Service], config: RunConfig) -> Index:
    return Index.build(services, strategy=config.strategy, embedder="letters", cache=False)


def _use(monkeypatch: pytest.MonkeyPatch, llm: ScriptedLLM) -> list[Any]:
    names: list[Any] = []

    def fake(name: Any = None, **_: Any) -> ScriptedLLM:
        names.append(name)
        return llm

    monkeypatch.setattr(openapi_rag.llm, "get_llm", fake)
    return names


def test_search_self_rag(index_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    llm = ScriptedLLM(reply_fn=lambda m: "0.9" if "GET /albums" in str(m[-1]["content"]) else "0.1")
    names = _use(monkeypatch, llm)
    result = CliRunner().invoke(
        cli,
        ["search", "album tracks", "--index", str(index_dir), "--policy", "self-rag", "--llm", "x", "--json"],
    )
    assert result.exit_code == 0, result.output
    assert [h["id"] for h in json.loads(result.stdout)] == ["GET /albums/{id}/tracks"]
    assert names == ["x"] and len(llm.calls) == 2
    assert "self-rag: 2 LLM call(s)" in result.stderr


def test_search_corag_queries_file(index_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    llm = ScriptedLLM(
        [
            json.dumps({"query": "create playlist"}),
            json.dumps({"relevant": ["POST /playlists"], "enough": True}),
        ]
    )
    _use(monkeypatch, llm)
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"query": "make a playlist"}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(
        cli, ["search", "--queries", str(queries), "--index", str(index_dir), "--policy", "corag", "--json"]
    )
    assert result.exit_code == 0, result.output
    [line] = result.stdout.splitlines()
    assert [h["id"] for h in json.loads(line)["results"]] == ["POST /playlists"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["q", "--llm", "x"], "--llm only applies"), (["--spec", str(SPEC), "--policy", "corag"], "not --spec")],
)
def test_search_policy_option_errors(index_dir: Path, extra: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, ["search", "--index", str(index_dir), *extra])
    assert result.exit_code == 2 and message in result.output


def test_eval_retrievers_over_a_real_index(service: Service) -> None:
    judge = ScriptedLLM(reply_fn=lambda m: "0.9" if "POST /playlists" in str(m[-1]["content"]) else "0.0")
    factory = PolicyRetrieverFactory("self-rag", judge, build=_build)
    [op] = factory([service], RunConfig("endpoint", "letters", "self-rag:hybrid")).search("new playlist", 5)
    assert (op.service, op.id) == ("music", "POST /playlists") and op.tokens > 0

    agent = ScriptedLLM(
        [
            json.dumps({"tool": "search", "args": {"query": "album tracks"}}),
            json.dumps({"tool": "finish", "args": {"endpoints": ["GET /albums/{id}/tracks"]}}),
        ]
    )
    factory = AgentRetrieverFactory(agent, build=_build)
    [op] = factory([service], RunConfig("endpoint", "letters", "agent:bm25")).search("album tracks", 5)
    assert (op.service, op.id) == ("music", "GET /albums/{id}/tracks") and op.tokens > 0
