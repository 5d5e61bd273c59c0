import json
from pathlib import Path

import numpy as np
import pytest

from openapi_rag.bench import load_dataset
from openapi_rag.bench.generate import GenerationSettings, generate_benchmark
from openapi_rag.bench.generate.queries import QuerySettings
from openapi_rag.bench.generate.run import SettingsMismatch
from openapi_rag.llm import LLMResponse
from tests.benchgen.world import HashEmbedder, world_reply
from tests.llm.doubles import ScriptedLLM

SMALL = GenerationSettings(domains=("energy", "utilities"), services=2, endpoints=4, queries=3, seed=7)


def world() -> ScriptedLLM:
    return ScriptedLLM(reply_fn=world_reply)


class Killed(Exception):
    """Stands in for a kill: the run stops in the middle of a step."""


class DyingLLM(ScriptedLLM):
    def __init__(self, calls_before_death: int) -> None:
        super().__init__(reply_fn=world_reply)
        self.left = calls_before_death

    def _chat(self, messages, **kwargs) -> LLMResponse:
        if self.left == 0:
            raise Killed()
        self.left -= 1
        return super()._chat(messages, **kwargs)


def events(out: Path) -> list[dict]:
    lines = (out / "generation-log.jsonl").read_text().splitlines()
    return [json.loads(line) for line in lines]


def test_generates_instances_that_eval_reads(tmp_path: Path) -> None:
    outcomes, summary = generate_benchmark(tmp_path, world(), HashEmbedder(), SMALL)
    assert [(o.domain, o.status, o.services, o.queries) for o in outcomes] == [
        ("energy", "done", 2, 3),
        ("utilities", "done", 2, 3),
    ]
    dataset = load_dataset("socbench-d", tmp_path)
    assert len(dataset.queries) == 6
    assert dataset.unmatched() == []  # every gold endpoint is an operation of the domain's documents
    assert sum(len(s.operations) for g in dataset.groups for s in g.services) == 16
    # Every branch of the algorithms ran: a list retried for its count, a document repaired after the
    # validator and after the judge, a query rewritten after checkNecessary.
    log = events(tmp_path)
    kinds = {(e.get("event"), e.get("step")) for e in log if e["kind"] == "event"}
    assert {("retry", "t_s"), ("repair", "t_o"), ("rewrite", None)} <= kinds
    problems = [e["problem"] for e in log if e.get("event") == "repair"]
    assert any("not valid OpenAPI" in p for p in problems)
    assert any("reviewer" in p for p in problems)
    assert summary["prompt_tokens"] > 0 and set(summary["tokens_by_step"]) >= {
        "t_s",
        "t_e",
        "t_o",
        "t_q",
        "t_n",
    }
    for query in json.loads((tmp_path / "socbenchd_1" / "01-energy" / "queries.json").read_text())["queries"]:
        assert query["endpoints"] and query["query"].startswith("Please")


def test_expected_sizes_follow_the_normal_draw(tmp_path: Path) -> None:
    settings = GenerationSettings(domains=("energy",), services=2, endpoints=6, queries=6, seed=1)
    generate_benchmark(tmp_path, world(), HashEmbedder(), settings)
    queries = json.loads((tmp_path / "socbenchd_1" / "01-energy" / "queries.json").read_text())["queries"]
    sizes = [len(q["endpoints"]) for q in queries]
    assert len(sizes) == 6 and min(sizes) >= 1 and max(sizes) <= 12 and len(set(sizes)) > 1


def test_similar_queries_are_discarded_and_a_short_domain_is_reported(tmp_path: Path) -> None:
    class SameVector(HashEmbedder):
        def _embed_batch(self, texts: list[str]) -> np.ndarray:
            return np.tile(np.eye(1, self.dimensions, dtype=np.float32), (len(texts), 1))

    settings = GenerationSettings(
        domains=("energy",), services=2, endpoints=3, queries=2, query=QuerySettings(draws=2)
    )
    (outcome,), _ = generate_benchmark(tmp_path, world(), SameVector(), settings)
    assert (outcome.status, outcome.queries) == ("incomplete", 1)
    assert "1 of 2 queries" in outcome.failure
    discards = [e for e in events(tmp_path) if e.get("event") == "discard"]
    assert [d["reason"] for d in discards] == ["similar", "similar"]


def test_a_killed_run_resumes_without_asking_again(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh"
    generate_benchmark(fresh, world(), HashEmbedder(), SMALL)
    paid_uninterrupted = sum(1 for e in events(fresh) if e["kind"] == "call" and not e["cached"])

    out = tmp_path / "killed"
    with pytest.raises(Killed):
        generate_benchmark(out, DyingLLM(calls_before_death=40), HashEmbedder(), SMALL)
    second = world()
    outcomes, summary = generate_benchmark(out, second, HashEmbedder(), None, resume=True)
    assert all(o.status == "done" for o in outcomes)
    # The two runs together paid for exactly the calls of an uninterrupted run: no reply was asked twice.
    assert 40 + len(second.calls) == paid_uninterrupted
    assert summary["cached_calls"] > 0
    for name in ("01-energy", "02-utilities"):
        a = (fresh / "socbenchd_1" / name / "queries.json").read_text()
        b = (out / "socbenchd_1" / name / "queries.json").read_text()
        assert a == b  # the resumed run made the same instance


def test_resume_keeps_the_runs_settings(tmp_path: Path) -> None:
    generate_benchmark(tmp_path, world(), HashEmbedder(), SMALL)
    with pytest.raises(SettingsMismatch, match="other settings"):
        generate_benchmark(tmp_path, world(), HashEmbedder(), GenerationSettings(domains=("energy",)))
    with pytest.raises(SettingsMismatch, match="nothing to resume"):
        generate_benchmark(tmp_path / "none", world(), HashEmbedder(), None, resume=True)


def test_a_model_that_cannot_write_a_document_fails_its_domain_only(tmp_path: Path) -> None:
    def broken_documents(messages: list[dict]) -> str:
        if "Write the OpenAPI" in messages[1]["content"] and "utilities" in messages[1]["content"]:
            return "Sure! Here is the document you asked for."  # prose, no JSON
        return world_reply(messages)

    outcomes, _ = generate_benchmark(tmp_path, ScriptedLLM(reply_fn=broken_documents), HashEmbedder(), SMALL)
    assert [o.status for o in outcomes] == ["done", "failed"]
    assert (
        "t_o failed: no acceptable document after 3 repairs: the reply is not a JSON object"
        in outcomes[1].failure
    )


def test_cli_generates_and_resumes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from openapi_rag.cli import cli

    monkeypatch.setattr("openapi_rag.llm.get_llm", lambda name=None, **kw: world())
    monkeypatch.setattr("openapi_rag.embed.get_embedder", lambda *a, **kw: HashEmbedder())
    out = tmp_path / "gen"
    args = ["bench", "generate", "--out", str(out), "--domains", "energy", "--services", "2"]
    result = CliRunner().invoke(cli, [*args, "--endpoints", "3", "--queries", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["domains"][0]["status"] == "done" and report["llm_calls"] > 0
    again = CliRunner().invoke(cli, ["bench", "generate", "--resume", str(out)])
    assert again.exit_code == 0, again.output
    assert "instance 1 energy: done, 2 services, 2 queries" in again.stdout
    both = CliRunner().invoke(cli, ["bench", "generate"])
    assert both.exit_code == 2 and "--out DIR" in both.output


@pytest.mark.slow
def test_the_local_model_completes_or_says_what_it_could_not_do(tmp_path: Path) -> None:
    """The real SmolLM2-135M end to end on one small domain (minutes on a CPU)."""
    from openapi_rag.embed import get_embedder
    from openapi_rag.llm import get_llm

    settings = GenerationSettings(domains=("energy",), services=2, endpoints=3, queries=2, llm="local")
    with get_llm("local") as llm:
        (outcome,), summary = generate_benchmark(tmp_path, llm, get_embedder(), settings)
    assert summary["llm_calls"] > 0 and summary["completion_tokens"] > 0
    if outcome.status == "done":
        assert len(load_dataset("socbench-d", tmp_path).queries) == 2
    else:
        assert outcome.failure  # names the step and what the model could not do


def test_an_openai_compatible_server_produces_a_full_instance(tmp_path: Path) -> None:
    """The same run through the real OpenAI-compatible client, with structured output requested."""
    import httpx

    from openapi_rag.llm.openai_chat import OpenAIChat

    formats = []

    def server(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        formats.append(body.get("response_format", {}).get("json_schema", {}).get("name"))
        reply = world_reply(body["messages"])
        usage = {"prompt_tokens": 100, "completion_tokens": len(reply) // 4}
        return httpx.Response(200, json={"choices": [{"message": {"content": reply}}], "usage": usage})

    llm = OpenAIChat(
        "some-model",
        base_url="http://127.0.0.1:9/v1",
        supports_json_schema=True,
        transport=httpx.MockTransport(server),
    )
    settings = GenerationSettings(
        domains=("energy",), services=2, endpoints=3, queries=2, llm="openai:some-model"
    )
    (outcome,), summary = generate_benchmark(tmp_path, llm, HashEmbedder(), settings)
    assert outcome.status == "done" and summary["prompt_tokens"] == 100 * summary["llm_calls"]
    assert {"t_s", "t_e", "t_o", "judge", "t_q", "t_f", "t_n"} <= set(formats)


def test_a_refusing_model_fails_its_domain_and_runaway_replies_are_cut(tmp_path: Path) -> None:
    from openapi_rag.llm import LLMError

    seen = []

    def refusing(messages: list[dict]) -> str:
        first = messages[1]["content"]
        if "Write the OpenAPI" in first and "energy" in first:
            seen.append(sum(len(str(m["content"])) for m in messages))
            return "{" + "x" * 50_000  # a runaway reply that never closes its JSON
        if "REST endpoints" in first and "utilities" in first:
            raise LLMError("local: llama.cpp refused the request: exceeds the available context size")
        return world_reply(messages)

    outcomes, _ = generate_benchmark(tmp_path, ScriptedLLM(reply_fn=refusing), HashEmbedder(), SMALL)
    assert [o.status for o in outcomes] == ["failed", "failed"]
    assert "exceeds the available context size" in outcomes[1].failure
    assert max(seen) < 30_000  # each repair turn carries a cut copy of the runaway reply
