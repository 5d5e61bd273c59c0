"""Plain baselines (`eval --plain`): the whole query against each chunk text, real BM25 and embedder."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import openapi_rag.cli.eval_cmd  # noqa: F401  (attaches `eval` to the group)
from openapi_rag.bench import RunConfig
from openapi_rag.bench.baselines import PlainRetriever, PlainRetrieverFactory
from openapi_rag.cli import cli
from tests.bench.conftest import CATALOG


def test_plain_bm25_and_dense_rank_the_matching_operation_first(catalog) -> None:
    services = [s for g in catalog.groups for s in g.services]
    factory = PlainRetrieverFactory()
    bm25 = factory(services, RunConfig("thin", mode="plain:bm25"))
    dense = factory(services, RunConfig("thin", mode="plain:dense"))
    assert bm25.chunks is dense.chunks  # one chunking per strategy, shared by the modes
    for retriever in (bm25, dense):
        hits = retriever.search("delete a pet", 3)
        assert len(hits) == 3 and len({h.qualified_id for h in hits}) == 3
        assert hits[0].qualified_id == "petstore DELETE /pets/{petId}"
        assert hits[0].score >= hits[1].score >= hits[2].score
    assert len(bm25.search("list pets", None)) <= 10  # "auto": the top 10
    assert all(h.score == 0.0 for h in bm25.search("the of and", 2))  # stop words only
    with pytest.raises(ValueError, match="plain baselines are dense, bm25"):
        PlainRetriever([], "hybrid")


def test_eval_plain_labels_its_modes_and_refuses_hybrid(tmp_path) -> None:
    args = ["eval", "--dataset", "jsonl", "--data", str(CATALOG), "--out", str(tmp_path), "--no-plots"]
    result = CliRunner().invoke(cli, [*args, "--plain", "--strategies", "thin", "--modes", "bm25", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    assert {r["mode"] for r in summary} == {"plain:bm25"}
    assert max(r["recall"] for r in summary) > 0.5
    refused = CliRunner().invoke(cli, [*args, "--plain", "--modes", "hybrid"])
    assert refused.exit_code == 2 and "plain baselines are dense, bm25" in refused.output


def test_plain_baseline_reads_an_llm_named_in_the_strategy(catalog, monkeypatch) -> None:
    """`eval --plain --strategies summary --llm X` labels the strategy `summary@X`: chunk with
    `summary`, its texts written by X (as the default pipeline's build_index reads it)."""
    import openapi_rag.chunking as chunking
    from openapi_rag.chunking.llm_strategies import _DEFAULT_LLM

    seen: list[tuple[str, str | None]] = []
    real = chunking.chunk_services

    def chunk_services(services, strategy):
        seen.append((strategy, _DEFAULT_LLM.get()))
        return real(services, "thin")  # the texts do not matter here; no LLM runs

    monkeypatch.setattr(chunking, "chunk_services", chunk_services)
    services = [s for g in catalog.groups for s in g.services]
    PlainRetrieverFactory()(services, RunConfig("summary@openai:m", mode="plain:bm25"))
    assert seen == [("summary", "openai:m")]
