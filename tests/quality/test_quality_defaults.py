"""Real runs of the default configuration (issue 7) on the shared benchmark data.

A floor, not the headline numbers (those come from `scripts/ablation_quality.py`): the default
must beat the old default (thin chunks, RRF, whole query only) on recall, and stay above levels a
regression would break.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import replace
from pathlib import Path

import pytest

from openapi_rag.bench.metrics import score_query
from openapi_rag.chunking import render
from openapi_rag.index import DEFAULT_STRATEGY, Index
from openapi_rag.spec import load_services

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
DOMAIN = SHARED / "socbench-d" / "socbenchd_1" / "01-energy"
RESTBENCH = SHARED / "restbench"
OLD_DEFAULT = dict(fusion="rrf", clauses=False, dependencies=False)


def recall(index: Index, queries: list[tuple[str, list[str]]], k: int) -> float:
    return statistics.fmean(
        score_query([h.id for h in index.search(q, k=k, expand=False)], gold, k=k).recall
        for q, gold in queries
    )


@pytest.fixture(scope="module")
def energy() -> tuple[list, list[tuple[str, list[str]]]]:
    if not DOMAIN.is_dir():
        pytest.skip("../shared/data not present")
    queries = json.loads((DOMAIN / "queries.json").read_text())["queries"]
    return load_services([DOMAIN]).services, [(q["query"], q["endpoints"]) for q in queries]


def test_default_beats_the_old_default_on_a_socbench_domain(energy) -> None:  # type: ignore[no-untyped-def]
    services, queries = energy
    assert DEFAULT_STRATEGY == "compact"
    index = Index.build(services)
    new = recall(index, queries, 5)
    old_index = Index.build(services, strategy="thin")
    old_index.searcher.configure(**OLD_DEFAULT)
    old = recall(old_index, queries, 5)
    assert new >= 0.7 and new > old + 0.1
    auto = [index.search(q, k="auto", expand=False) for q, _ in queries]
    assert all(1 <= len(hits) <= 20 for hits in auto)


@pytest.mark.slow
def test_restbench_floor() -> None:
    if not RESTBENCH.is_dir():
        pytest.skip("../shared/data not present")
    services = load_services([RESTBENCH / "specs"]).services
    queries = [
        (q["query"], q["solution"])
        for f in sorted((RESTBENCH / "datasets").glob("*.json"))
        for q in json.loads(f.read_text())
    ]
    index = Index.build(services)
    assert recall(index, queries, 5) >= 0.6
    assert recall(index, queries, 20) >= 0.9


@pytest.mark.parametrize(
    ("query", "operation"),
    [("Skip to the next track", "POST /me/player/next"), ("Show me the albums I saved", "GET /me/albums")],
)
def test_an_operation_id_names_an_operation_without_summary_or_description(
    bare_spotify, query: str, operation: str, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """Spotify's spec stripped of summaries and descriptions, as many real catalogs come: its
    operationIds (`skip-users-playback-to-next-track`) are what names the operations."""
    top = Index.build(bare_spotify).search(query, k=1, expand=False)
    assert [h.id for h in top] == [operation]
    assert top[0].summary.startswith(("skip users playback", "get users saved albums"))  # shown in results
    monkeypatch.setattr(render, "OPERATION_ID_FOR_SUMMARY", False)
    index = Index.build(bare_spotify)
    # The path alone names /me/albums' resource, and the second model reads "albums I saved" from it.
    index.searcher.configure(settle_first=False, static_scope="intents")
    assert operation not in [h.id for h in index.search(query, k=3, expand=False)]


@pytest.fixture(scope="module")
def bare_spotify() -> list:
    spec = RESTBENCH / "specs" / "spotify_oas.json"
    if not spec.is_file():
        pytest.skip("../shared/data not present")
    return [
        replace(service, operations=[replace(op, summary="", description="") for op in service.operations])
        for service in load_services([spec]).services
    ]
