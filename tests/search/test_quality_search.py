"""Searcher defaults of issue 7: min-max fusion, clause splitting, dependency lifting, k="auto"."""

from __future__ import annotations

import numpy as np
import pytest

from openapi_rag.model import Chunk
from openapi_rag.search import BM25Index, Searcher
from openapi_rag.search.settings import DEFAULT_SETTINGS
from openapi_rag.store import ChunkFilter, FaissStore

# (operation, text); chunk i's vector is the unit axis e_i.
OPS = [
    ("GET /search/movie", "Search for movies by title"),
    ("GET /movie/{movie_id}/credits", "Get the cast and crew of a movie"),
    ("GET /movie/{movie_id}/images", "Get the posters and backdrops of a movie"),
    ("GET /discover/movie", "Discover movies by rating"),
    ("GET /alerts", "List active alerts"),
    ("POST /alert-settings", "Configure alert thresholds"),
]
N = len(OPS)


def axis(*pairs: tuple[int, float]) -> np.ndarray:
    vector = np.zeros(N, dtype=np.float32)
    for i, weight in pairs:
        vector[i] = weight
    return vector / np.linalg.norm(vector)


def make_searcher(embedded: dict[str, np.ndarray] | None = None, **settings) -> Searcher:  # type: ignore[no-untyped-def]
    chunks = [
        Chunk(
            id=f"tmdb:compact:{op}",
            kind="endpoint",
            service="tmdb",
            operations=[op],
            embed_text=t,
            content=t,
            metadata={"tags": ["search"] if op.startswith(("GET /search", "GET /discover")) else ["details"]},
        )
        for op, t in OPS
    ]
    store = FaissStore(N)
    store.add([c.id for c in chunks], np.eye(N, dtype=np.float32), chunks)
    embedded = embedded or {}
    return Searcher(
        store,
        BM25Index.from_chunks(chunks),
        embed=lambda texts: np.stack([embedded[t] for t in texts]),
        **settings,
    )


def ids(results) -> list[str]:  # type: ignore[no-untyped-def]
    return [op.id for op in results.operations]


def test_minmax_hybrid_scores_are_a_convex_combination() -> None:
    searcher = make_searcher(dependencies=False)
    query = axis((1, 0.8), (2, 0.6))  # dense: credits .8, images .6, the rest 0
    results = searcher.search("posters of a movie", query, k=3)
    assert ids(results)[0] == "GET /movie/{movie_id}/images"  # BM25's best and dense's second
    assert all(0.0 <= op.score <= 1.0 for op in results.operations)
    dense_share = DEFAULT_SETTINGS.dense_weight / (DEFAULT_SETTINGS.dense_weight + 1.0)  # BM25's weight is 1
    assert results.operations[0].score == pytest.approx(dense_share * 0.75 + (1 - dense_share), abs=1e-5)


def test_unknown_fusion_and_bad_k_are_refused() -> None:
    with pytest.raises(ValueError, match="fusion"):
        make_searcher(fusion="borda")
    searcher = make_searcher()
    with pytest.raises(ValueError, match="auto"):
        searcher.search("alerts", axis((4, 1.0)), k="many")


def test_each_clause_of_a_multi_intent_query_gets_its_own_top_result() -> None:
    query = "List the active alerts, and configure alert thresholds for a sector"
    clauses = ["List the active alerts", "configure alert thresholds for a sector"]
    embedded = {clauses[0]: axis((4, 1.0)), clauses[1]: axis((5, 1.0))}
    # the whole query's vector leans to alerts and some movie noise
    whole = axis((4, 0.7), (0, 0.6), (3, 0.5))
    with_clauses = make_searcher(embedded, dependencies=False).search(query, whole, mode="dense", k=2)
    without = make_searcher(embedded, clauses=False, dependencies=False).search(
        query, whole, mode="dense", k=2
    )
    assert set(ids(with_clauses)) == {"GET /alerts", "POST /alert-settings"}
    assert "POST /alert-settings" not in ids(without)


def test_clauses_are_skipped_without_an_embed_function_or_with_a_threshold() -> None:
    searcher = make_searcher(dependencies=False)
    searcher.embed = None
    query = "List the active alerts, and configure alert thresholds for a sector"
    assert ids(searcher.search(query, axis((4, 1.0)), mode="dense", k=1)) == ["GET /alerts"]
    searcher = make_searcher({}, dependencies=False)  # embed would fail on any clause
    hits = searcher.search(query, axis((4, 1.0)), mode="dense", threshold=0.5)
    assert ids(hits) == ["GET /alerts"]


def test_the_producer_of_a_needed_identifier_is_lifted_below_its_consumer() -> None:
    query = axis((2, 1.0), (3, 0.3))  # images first, discover a little, search/movie not at all
    # settle_first off: "movie posters" names the search's resource (movie), not the images'
    lifted = make_searcher(clauses=False, settle_first=False).search("movie posters", query, mode="dense", k=3)
    # the search is lifted: it turns the movie's name into its id (dependencies.SEARCH_FIRST)
    assert ids(lifted)[:2] == ["GET /movie/{movie_id}/images", "GET /search/movie"]
    assert lifted.operations[1].score == pytest.approx(0.9 * lifted.operations[0].score)
    plain = make_searcher(clauses=False, dependencies=False).search("movie posters", query, mode="dense", k=3)
    assert plain.operations[1].score == pytest.approx(0.3 / np.hypot(1.0, 0.3))


def test_a_producer_no_retriever_returned_is_added_with_its_chunk() -> None:
    # bm25 mode: only chunks sharing a term come back; "crew" matches one operation only
    results = make_searcher(clauses=False).search("crew", mode="bm25", k=5, expand=True)
    assert ids(results)[0] == "GET /movie/{movie_id}/credits"
    added = [op for op in results.operations if op.id in ("GET /search/movie", "GET /discover/movie")]
    assert len(added) == 1 and added[0].chunk_ids == (f"tmdb:compact:{added[0].id}",)
    assert added[0].score == pytest.approx(0.9 * results.operations[0].score)


def test_a_filter_keeps_lifted_producers_out() -> None:
    searcher = make_searcher(clauses=False)
    results = searcher.search("crew", mode="bm25", k=5, filter=ChunkFilter.of(tags=["details"]))
    assert ids(results) == ["GET /movie/{movie_id}/credits"]
    unfiltered = searcher.search("crew", mode="bm25", k=5)
    assert len(unfiltered.operations) == 2


def test_auto_k_keeps_what_scores_near_the_best() -> None:
    searcher = make_searcher(clauses=False, dependencies=False, auto_ratio_whole=0.8)
    query = axis((4, 1.0), (5, 0.85), (0, 0.5), (3, 0.4))
    results = searcher.search("alerts", query, mode="dense", k="auto")
    assert ids(results) == ["GET /alerts", "POST /alert-settings"]
    assert len(searcher.search("alerts", query, mode="dense", k=5).operations) == 5


def test_auto_k_cuts_a_whole_query_looser_than_a_clause() -> None:
    # scores 1, .7, .5 of the best: a query searched whole keeps .7 (AUTO_RATIO_WHOLE .6) ...
    scores = ((4, 1.0), (5, 0.7), (0, 0.5))
    whole = make_searcher(clauses=False, dependencies=False)
    assert ids(whole.search("alerts", axis(*scores), mode="dense", k="auto")) == [
        "GET /alerts",
        "POST /alert-settings",
    ]
    # ... a clause (AUTO_RATIO .85) keeps its best only
    query = "List the active alerts, and search for movies by title"
    clauses = ["List the active alerts", "search for movies by title"]
    embedded = {clauses[0]: axis(*scores), clauses[1]: axis((0, 1.0))}
    split = make_searcher(embedded, dependencies=False).search(query, axis((4, 1.0)), mode="dense", k="auto")
    assert set(ids(split)) == {"GET /alerts", "GET /search/movie"}


def test_auto_k_cuts_per_clause() -> None:
    query = "List the active alerts, and configure alert thresholds for a sector"
    clauses = ["List the active alerts", "configure alert thresholds for a sector"]
    embedded = {clauses[0]: axis((4, 1.0), (0, 0.3)), clauses[1]: axis((5, 0.5), (1, 0.3))}
    searcher = make_searcher(embedded, dependencies=False)
    results = searcher.search(query, axis((4, 1.0)), mode="dense", k="auto")
    # the weak second clause still keeps its own best operation
    assert ids(results) == ["GET /alerts", "POST /alert-settings"]
    assert len(results.operations) <= DEFAULT_SETTINGS.auto_max


def test_the_searcher_embeds_the_query_itself_when_given_no_vector() -> None:
    embedded = {"alerts please": axis((4, 1.0))}
    searcher = make_searcher(embedded, dependencies=False)
    assert ids(searcher.search("alerts please", mode="dense", k=1)) == ["GET /alerts"]
    searcher.embed = None
    with pytest.raises(ValueError, match="query vector"):
        searcher.search("alerts please", mode="dense", k=1)


def test_a_many_clause_query_is_embedded_by_its_clauses_only() -> None:
    clauses = [
        "List the active alerts",
        "configure alert thresholds for a sector",
        "search for movies by title",
    ]
    query = ", ".join(clauses)
    calls: list[list[str]] = []
    vectors = {clauses[0]: axis((4, 1.0)), clauses[1]: axis((5, 1.0)), clauses[2]: axis((0, 1.0))}

    searcher = make_searcher(vectors, dependencies=False)
    embed = searcher.embed
    assert embed is not None
    searcher.embed = lambda texts: calls.append(list(texts)) or embed(texts)
    results = searcher.search(query, mode="dense", k=3)
    assert calls == [clauses]  # never the whole query
    assert set(ids(results)) == {"GET /alerts", "POST /alert-settings", "GET /search/movie"}
    assert all(op.dense_score == pytest.approx(1.0) for op in results.operations)


def test_auto_k_brings_the_producer_each_kept_operation_needs() -> None:
    query = axis((2, 1.0), (0, 0.2))  # movie images, far ahead of anything else
    # lifted to 0.9 of the images' score, the producer falls under a 0.95 ratio: it comes anyway
    searcher = make_searcher(clauses=False, auto_ratio_whole=0.95)
    results = searcher.search("posters", query, mode="dense", k="auto")
    assert ids(results) == ["GET /movie/{movie_id}/images", "GET /search/movie"]
    searcher.configure(auto_producers=False)
    assert ids(searcher.search("posters", query, mode="dense", k="auto")) == ["GET /movie/{movie_id}/images"]


def test_a_plan_of_three_clauses_gets_no_lifted_producers() -> None:
    clauses = [
        "List the active alerts",
        "configure alert thresholds for a sector",
        "show the posters of a movie",
    ]
    query = ", ".join(clauses)
    embedded = {clauses[0]: axis((4, 1.0)), clauses[1]: axis((5, 1.0)), clauses[2]: axis((2, 1.0))}
    steps = {"GET /alerts", "POST /alert-settings", "GET /movie/{movie_id}/images"}
    plan = make_searcher(embedded).search(query, mode="dense", k="auto")
    assert set(ids(plan)) == steps  # the plan names its steps: no producer is added
    not_a_plan = make_searcher(embedded)
    not_a_plan.configure(plan_clauses=4)
    lifted = set(ids(not_a_plan.search(query, mode="dense", k="auto")))
    assert lifted - steps in ({"GET /search/movie"}, {"GET /discover/movie"})


def test_a_lifted_producer_comes_with_its_chunk_of_the_filtered_view() -> None:
    # two views per operation, as CRAFT indexes have; search one view by its kind
    ops = [("GET /search/movie", "Search for movies by title"), ("GET /movie/{movie_id}/credits", "crew")]
    chunks = [
        Chunk(
            id=f"tmdb:craft:{view}:{op}",
            kind=view,
            service="tmdb",
            operations=[op],
            embed_text=text,
            content=text,
        )
        for view in ("view-a", "view-b")
        for op, text in ops
    ]
    store = FaissStore(4)
    store.add([c.id for c in chunks], np.eye(4, dtype=np.float32), chunks)
    searcher = Searcher(store, BM25Index.from_chunks(chunks), clauses=False)
    results = searcher.search("crew", mode="bm25", k=5, filter=ChunkFilter.of(kinds="view-b"))
    assert ids(results) == ["GET /movie/{movie_id}/credits", "GET /search/movie"]
    assert results.operations[1].chunk_ids == ("tmdb:craft:view-b:GET /search/movie",)
