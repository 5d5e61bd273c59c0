"""The runner: scoring through the gold units, caching, resuming, extending the grid."""

from __future__ import annotations

import json

import pytest

from openapi_rag.bench import RunConfig, grid, parse_ks, run_eval
from openapi_rag.bench import cache as cache_module
from openapi_rag.bench.cache import ResultCache, cache_path
from tests.bench.fakes import FailingFactory, FakeFactory


def test_parse_ks():
    assert parse_ks(["20", 5, "auto", "5"]) == [5, 20, None]
    with pytest.raises(ValueError, match="positive integer or 'auto'"):
        parse_ks(["0"])
    with pytest.raises(ValueError, match="positive integer or 'auto'"):
        parse_ks(["many"])


def test_scores_follow_the_gold(catalog, tmp_path):
    factory = FakeFactory()
    result = run_eval(catalog, [RunConfig("endpoint")], factory, tmp_path, ks=[1, 3])
    rows = {(r["query_id"], r["k"]): r for r in result.rows()}
    # "list all pets" -> GET /pets ranks first in the petstore group.
    assert rows[("pets-list", "1")]["recall"] == 1.0 and rows[("pets-list", "1")]["precision"] == 1.0
    # The unmatched gold entry (POST /refunds) can never be found: recall is at most 1/2.
    assert rows[("shop-refund", "3")]["recall"] <= 0.5
    assert "POST /refunds" in rows[("shop-refund", "3")]["missed"]
    assert len(result.results) == 6 * 2
    assert result.searched == 6 and result.reused == 0  # one search per query at the deepest k
    assert len(factory.calls) == 2  # one retriever per group


def test_rerun_reuses_the_cache_and_extensions_only_compute_what_is_new(catalog, tmp_path):
    configs = grid(["endpoint", "thin"], ["default"], ["dense"])
    first = run_eval(catalog, configs, FakeFactory(), tmp_path, ks=[1, 2])
    assert first.searched == 12

    again = FakeFactory()
    second = run_eval(catalog, configs, again, tmp_path, ks=[1, 2])
    assert (second.searched, second.reused, again.calls) == (0, 12, [])
    assert second.rows() == first.rows()

    # A new mode: only its searches run, one retriever per group.
    more = FakeFactory()
    third = run_eval(
        catalog, grid(["endpoint", "thin"], ["default"], ["dense", "bm25"]), more, tmp_path, ks=[1, 2]
    )
    assert third.searched == 12 and third.reused == 12
    assert {c.mode for _, c in more.calls} == {"bm25"}

    # A deeper k re-searches; "auto" adds one adaptive search per query.
    deeper = run_eval(catalog, configs, FakeFactory(), tmp_path, ks=[1, 2, 3, "auto"])
    assert deeper.searched == 12 + 12


def test_k_beyond_the_corpus_is_answered_from_the_cache(catalog, tmp_path):
    run_eval(
        catalog, [RunConfig("endpoint")], FakeFactory(), tmp_path, ks=[20]
    )  # each group has 5 operations
    result = run_eval(catalog, [RunConfig("endpoint")], FakeFactory(), tmp_path, ks=[5, 50])
    assert result.searched == 0
    assert {r.scores.retrieved for r in result.results} == {5}


def test_an_interrupted_run_resumes(catalog, tmp_path):
    configs = grid(["endpoint", "thin"], ["default"], ["dense"])
    with pytest.raises(KeyboardInterrupt):
        run_eval(catalog, configs, FailingFactory(budget=5), tmp_path, ks=[3])
    cached = [json.loads(p.read_text()) for p in (tmp_path / "cache").glob("*.json")]
    assert sum(len(g["ranked"]) for c in cached for g in c["groups"].values()) == 5
    resumed = run_eval(catalog, configs, FakeFactory(), tmp_path, ks=[3])
    assert (resumed.searched, resumed.reused) == (7, 5)


def test_changed_descriptions_or_queries_invalidate_the_cache(catalog, tmp_path):
    cfg = RunConfig("endpoint")
    run_eval(catalog, [cfg], FakeFactory(), tmp_path, ks=[2])
    catalog.groups[0].fingerprint = "changed"
    assert run_eval(catalog, [cfg], FakeFactory(), tmp_path, ks=[2]).searched == 3

    cache = ResultCache.open(tmp_path / "cache", catalog.name, cfg)
    group = catalog.groups[1]
    query = group.queries[0]
    assert cache.get(group.name, group.fingerprint, query.id, query.text, 2) is not None
    assert cache.get(group.name, group.fingerprint, query.id, "another text", 2) is None


def test_cache_file_names_are_distinct_and_safe(tmp_path):
    a = cache_path(tmp_path, "jsonl:x", RunConfig("endpoint", "BAAI/bge-small", "dense"))
    b = cache_path(tmp_path, "jsonl:x", RunConfig("endpoint", "BAAI-bge-small", "dense"))
    assert a != b and a.parent == tmp_path and "/" not in a.name and ":" not in a.name


def test_auto_k_uses_what_the_retriever_returns(catalog, tmp_path):
    result = run_eval(catalog, [RunConfig("endpoint")], FakeFactory(), tmp_path, ks=["auto"])
    assert {r.k for r in result.results} == {None}
    assert all(r.scores.retrieved >= 1 for r in result.results)
    assert result.rows()[0]["k"] == "auto"


def test_same_endpoint_in_two_services_counts_once(tmp_path):
    from openapi_rag.bench import load_dataset
    from tests.bench.conftest import CATALOG

    # One group over both services: bare "GET /pets" is answered by either service's operation.
    for sub in ("pets", "shop"):
        (tmp_path / "data" / sub).mkdir(parents=True)
        for f in (CATALOG / sub).iterdir():
            (tmp_path / "data" / sub / f.name).write_bytes(f.read_bytes())
    (tmp_path / "data" / "queries.jsonl").write_text('{"query": "list pets", "expected": ["GET /pets"]}\n')
    ds = load_dataset("jsonl", tmp_path / "data")
    result = run_eval(ds, [RunConfig("summary")], FakeFactory(), tmp_path / "out", ks=[2])
    (r,) = result.results
    # Both summaries of GET /pets share two words with the query and rank first: one endpoint,
    # so k' = 1 and precision 1.
    assert (r.scores.recall, r.scores.retrieved, r.scores.precision) == (1.0, 1, 1.0)


def test_changed_retrieval_code_invalidates_the_cache(catalog, tmp_path, monkeypatch):
    cfg = RunConfig("endpoint")
    run_eval(catalog, [cfg], FakeFactory(), tmp_path, ks=[2])
    assert run_eval(catalog, [cfg], FakeFactory(), tmp_path, ks=[2]).searched == 0
    monkeypatch.setattr(cache_module, "code_fingerprint", lambda: "another version of the code")
    assert run_eval(catalog, [cfg], FakeFactory(), tmp_path, ks=[2]).searched == 6


def test_code_fingerprint_covers_the_search_code():
    fingerprint = cache_module.code_fingerprint()
    assert len(fingerprint) == 16 and fingerprint == cache_module.code_fingerprint()
    assert "search" in cache_module.RETRIEVAL_PACKAGES and "chunking" in cache_module.RETRIEVAL_PACKAGES
