"""`PolicyIndex` and `discover --policy`: the agent's searches answered through Self-RAG or CoRAG."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import openapi_rag.llm
from openapi_rag.agents.policy_index import PolicyIndex
from openapi_rag.cli import cli
from openapi_rag.embed import register_embedder, unregister_embedder
from openapi_rag.index import Index
from openapi_rag.llm import Message
from openapi_rag.spec.load import load_service
from tests.agents.test_discover_cmd import SPEC, LetterEmbedder
from tests.llm.doubles import ScriptedLLM

TRACKS, PLAYLISTS = "GET /albums/{id}/tracks", "POST /playlists"


@pytest.fixture
def index(tmp_path: Path) -> Iterator[Index]:
    register_embedder("letters", lambda **_: LetterEmbedder())
    Index.build(
        [load_service(SPEC, service_id="music")], strategy="endpoint", embedder="letters", cache=False
    ).save(tmp_path / "idx")
    yield Index.open(tmp_path / "idx")
    unregister_embedder("letters")


def _judge_tracks_only(messages: list[Message]) -> str:
    return '{"score": 0.9}' if TRACKS in str(messages[-1]["content"]) else '{"score": 0.05}'


def test_self_rag_filters_each_search_and_counts_its_tokens(index: Index) -> None:
    judged = PolicyIndex(index, "self-rag", ScriptedLLM(reply_fn=_judge_tracks_only))
    assert [h.id for h in judged.search("album tracks", k=10)] == [TRACKS]
    assert judged.calls == 2 and judged.usage.prompt_tokens > 0
    assert len(judged) == len(index) == 2 and judged.show(PLAYLISTS)["operationId"] == "createPlaylist"
    with pytest.raises(ValueError, match="unknown policy"):
        PolicyIndex(index, "rerank", ScriptedLLM([]))


def test_corag_rounds_answer_a_search(index: Index) -> None:
    llm = ScriptedLLM(['{"query": "create a playlist"}', f'{{"relevant": ["{PLAYLISTS}"], "enough": true}}'])
    judged = PolicyIndex(index, "corag", llm)
    assert [h.id for h in judged.search("make me a playlist", k="auto")] == [PLAYLISTS]
    assert judged.calls == 2 and judged.results[0].stop == "enough"


def test_discover_policy_shows_the_agent_only_kept_endpoints(
    index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    def reply(messages: list[Message]) -> str:
        if str(messages[0]["content"]).startswith("You judge"):
            return _judge_tracks_only(messages)
        if not any(str(m.get("content", "")).startswith("Observation:") for m in messages):
            return '{"tool": "search", "args": {"query": "album tracks"}}'
        return json.dumps({"tool": "finish", "args": {"endpoints": [TRACKS]}})

    llm = ScriptedLLM(reply_fn=reply)
    monkeypatch.setattr(openapi_rag.llm, "get_llm", lambda name=None, **_: llm)
    result = CliRunner().invoke(
        cli,
        ["discover", "List an album's tracks", "-i", str(index.directory), "--policy", "self-rag", "--json"],
    )
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    assert data["endpoints"] == [TRACKS]
    observation = next(step["observation"] for step in data["trace"] if step.get("tool") == "search")
    assert TRACKS in observation and PLAYLISTS not in observation  # judged irrelevant, dropped
    assert data["policy"]["name"] == "self-rag" and data["policy"]["calls"] == 2
    assert data["policy"]["prompt_tokens"] > 0
