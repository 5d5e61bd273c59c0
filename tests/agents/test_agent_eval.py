"""`openapi-rag eval --agent` / `--policy` and their retriever factories, with a scripted LLM and a fake index."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import openapi_rag.bench.agent_retrievers as agent_retrievers
import openapi_rag.chunking.llm_runtime as llm_runtime
import openapi_rag.cli.eval_cmd  # noqa: F401  (attaches `eval` to the group)
from openapi_rag.bench import load_dataset
from openapi_rag.bench.agent_retrievers import (
    AgentRetrieverFactory,
    PolicyRetrieverFactory,
    search_mode,
)
from openapi_rag.bench.retrievers import RunConfig
from openapi_rag.cli import cli
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm import Message
from openapi_rag.model import Service
from tests.llm.doubles import ScriptedLLM

SPEC = {
    "openapi": "3.0.0",
    "info": {"title": "Pets", "version": "1"},
    "paths": {
        "/pets": {
            "get": {"summary": "List pets", "responses": {"200": {"description": "ok"}}},
            "post": {"summary": "Create a pet", "responses": {"201": {"description": "ok"}}},
        },
        "/owners": {"get": {"summary": "List owners", "responses": {"200": {"description": "ok"}}}},
        "/stores": {"get": {"summary": "List stores", "responses": {"200": {"description": "ok"}}}},
    },
}
QUERIES = [
    {"id": "q1", "query": "list pets", "expected": ["GET /pets"]},
    {"id": "q2", "query": "create a pet for an owner", "expected": ["POST /pets", "GET /owners"]},
]
_WORD = re.compile(r"[a-z]+")


@pytest.fixture
def catalog(tmp_path: Path) -> Path:
    folder = tmp_path / "catalog"
    folder.mkdir()
    (folder / "pets.json").write_text(json.dumps(SPEC), encoding="utf-8")
    (folder / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in QUERIES) + "\n", encoding="utf-8")
    return folder


@dataclass
class Hit:
    service: str
    id: str
    score: float
    summary: str
    chunk_ids: tuple[str, ...] = ()
    tokens: int = 7


class FakeIndex:
    """Ranks operations by words shared between query and summary; records the modes asked."""

    def __init__(self, services: list[Service]) -> None:
        self.ops = [(s.id, op.id, op.summary or "") for s in services for op in s.operations]
        self.modes: list[str] = []

    def search(
        self, query: str, *, k: int | str = 10, mode: str = "hybrid", expand: bool = True
    ) -> list[Hit]:
        self.modes.append(mode)
        words = set(_WORD.findall(query.lower()))
        scored = sorted(
            ((len(words & set(_WORD.findall(summary.lower()))), service, op_id, summary)
             for service, op_id, summary in self.ops),
            key=lambda t: (-t[0], t[2]),
        )  # fmt: skip
        n = len(scored) if k == "auto" else int(k)
        return [Hit(service, op_id, float(score), summary) for score, service, op_id, summary in scored[:n]]

    def show(self, operation: str) -> dict[str, Any]:
        for service, op_id, summary in self.ops:
            if op_id == operation:
                return {"service": service, "id": op_id, "summary": summary}
        raise OpenAPIRagError(f"no operation {operation!r}")

    def __len__(self) -> int:
        return len(self.ops)


def agent_reply(messages: list[Message]) -> str:
    """Search for the task, then finish with the first two endpoints of the observation."""
    last = str(messages[-1]["content"])
    if last.startswith("Observation:"):
        ids = re.findall(r"^(?:Observation: )?([A-Z]+ /\S*?):", last, re.MULTILINE)
        return json.dumps({"tool": "finish", "args": {"endpoints": ids[:2]}})
    task = last.split("Task:")[-1].strip().splitlines()[0] if "Task:" in last else last
    return json.dumps({"tool": "search", "args": {"query": task}})


def test_search_mode() -> None:
    assert search_mode("agent:hybrid") == "hybrid" and search_mode("dense") == "dense"


def _services(catalog: Path) -> list[Service]:
    return load_dataset("jsonl", catalog).groups[0].services


def test_agent_retriever_runs_once_per_query_and_records_usage(catalog: Path) -> None:
    indexes: list[FakeIndex] = []

    def build(services: list[Service], config: RunConfig) -> FakeIndex:
        indexes.append(FakeIndex(services))
        return indexes[-1]

    llm = ScriptedLLM(reply_fn=agent_reply)
    factory = AgentRetrieverFactory(llm, build=build, k=3)
    services = _services(catalog)
    retriever = factory(services, RunConfig("endpoint", "default", "agent:bm25"))
    ops = retriever.search("list pets", 5)
    assert [op.id for op in ops][0] == "GET /pets"
    assert all(op.service for op in ops) and ops[0].tokens == 7
    assert ops[0].score > ops[-1].score
    assert retriever.search("list pets", None) == ops  # the auto request reuses the run
    assert retriever.search("list pets", 1) == ops[:1]
    assert indexes[0].modes == ["bm25"]
    [record] = factory.usage_records
    assert record["mode"] == "agent:bm25" and record["query"] == "list pets"
    assert record["prompt_tokens"] > 0 and record["calls"] == 2 and record["stop"] == "finish"
    assert factory.total_usage().prompt_tokens == record["prompt_tokens"]
    # A second mode reuses the index.
    factory(services, RunConfig("endpoint", "default", "agent:dense"))
    assert factory.builds == 1


def test_agent_endpoint_found_by_show_only_gets_its_service(catalog: Path) -> None:
    llm = ScriptedLLM(
        [
            json.dumps({"tool": "show", "args": {"endpoint": "GET /stores"}}),
            json.dumps({"tool": "finish", "args": {"endpoints": ["GET /stores", "GET /nope"]}}),
        ]
    )
    factory = AgentRetrieverFactory(llm, build=lambda s, c: FakeIndex(s))
    [op] = factory(_services(catalog), RunConfig("endpoint")).search("stores", 10)
    assert op.id == "GET /stores" and op.service and op.tokens == 0


def test_policy_self_rag_filters_index_hits(catalog: Path) -> None:
    llm = ScriptedLLM(reply_fn=lambda m: "0.9" if "List pets" in str(m[-1]["content"]) else "0.05")
    factory = PolicyRetrieverFactory("self-rag", llm, build=lambda s, c: FakeIndex(s))
    retriever = factory(_services(catalog), RunConfig("endpoint", "default", "self-rag:dense"))
    assert [op.id for op in retriever.search("list pets", 3)] == ["GET /pets"]
    assert len(llm.calls) == 3
    [record] = factory.usage_records
    assert record["calls"] == 3 and record["stop"] == "filter" and record["parse_failures"] == 0


def test_policy_corag_uses_its_own_rounds(catalog: Path) -> None:
    llm = ScriptedLLM(
        [
            json.dumps({"query": "create pet"}),
            json.dumps({"relevant": ["POST /pets"], "enough": False}),
            json.dumps({"query": "owners"}),
            json.dumps({"relevant": ["GET /owners"], "enough": True}),
        ]
    )
    factory = PolicyRetrieverFactory("corag", llm, build=lambda s, c: FakeIndex(s), corag_k=2)
    retriever = factory(_services(catalog), RunConfig("endpoint", "default", "corag:hybrid"))
    ops = retriever.search("create a pet for an owner", 10)
    assert [op.id for op in ops] == ["POST /pets", "GET /owners"]
    assert retriever.search("create a pet for an owner", None) == ops
    assert factory.usage_records[0]["stop"] == "enough"


def test_unknown_policy() -> None:
    with pytest.raises(OpenAPIRagError):
        PolicyRetrieverFactory("rerank", ScriptedLLM([]))


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Swap the factories' index builder and LLM for fakes; records the LLM names asked for."""
    asked: dict[str, Any] = {"names": [], "llm": ScriptedLLM(reply_fn=agent_reply)}

    def fake_get_llm(name: Any = None, **_: Any) -> ScriptedLLM:
        asked["names"].append(name)
        return asked["llm"]

    monkeypatch.setattr(agent_retrievers, "build_index", lambda services, config: FakeIndex(services))
    monkeypatch.setattr(llm_runtime, "get_llm", fake_get_llm)  # where the factories' LazyLLM loads
    return asked


def test_eval_agent_end_to_end(catalog: Path, tmp_path: Path, scripted: dict[str, Any]) -> None:
    out = tmp_path / "out"
    args = ["eval", "--dataset", "jsonl", "--data", str(catalog), "--out", str(out), "--k", "1,2,auto"]
    result = CliRunner().invoke(cli, [*args, "--agent", "--llm", "scripted", "--no-plots", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert scripted["names"] == ["scripted"]
    assert {row["mode"] for row in data["summary"]} == {"agent:dense"}
    assert Path(data["files"]["report"]).exists()
    usage = _csv(Path(data["files"]["llm_usage"]))
    assert [row["query"] for row in usage] == ["list pets", "create a pet for an owner"]  # one run per query
    assert all(int(row["prompt_tokens"]) > 0 for row in usage)
    rows = {(r["query_id"], r["k"]): r for r in _csv(out / "results.csv")}
    assert float(rows[("q1", "1")]["recall"]) == 1.0
    assert "LLM tokens for 2 searched queries" in result.stderr

    # A re-run is answered from the cache: no LLM calls, nothing added to the usage file.
    calls = len(scripted["llm"].calls)
    again = CliRunner().invoke(cli, [*args, "--agent", "--no-plots", "--json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["reused"] == 4 and len(scripted["llm"].calls) == calls
    assert _csv(out / "llm_usage.csv") == usage


def test_eval_policy_end_to_end(catalog: Path, tmp_path: Path, scripted: dict[str, Any]) -> None:
    scripted["llm"] = ScriptedLLM(reply_fn=lambda m: '{"score": 0.9}')
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["eval", "--dataset", "jsonl", "--data", str(catalog), "--out", str(out), "--k", "2",
         "--modes", "bm25", "--policy", "self-rag", "--no-plots"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "self-rag:bm25" in result.stdout
    assert (out / "report.md").exists() and (out / "llm_usage.csv").exists()
    assert scripted["names"] == [None]  # the configured LLM


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--agent", "--policy", "corag"], "cannot be combined"),
        (["--agent", "--retriever", "x:y"], "cannot be combined"),
        (["--llm", "local"], "--llm only applies"),
        (["--policy", "rerank"], "Invalid value for '--policy'"),
    ],
)
def test_eval_agent_option_errors(catalog: Path, tmp_path: Path, extra: list[str], message: str) -> None:
    result = CliRunner().invoke(
        cli,
        ["eval", "--dataset", "jsonl", "--data", str(catalog), "--out", str(tmp_path), "--no-plots", *extra],
    )
    assert result.exit_code == 2
    assert message in result.output
