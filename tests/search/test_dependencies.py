from __future__ import annotations

import pytest

from openapi_rag.search import dependencies
from openapi_rag.search.dependencies import DependencyGraph, path_entities, producer_entity, propagate


@pytest.mark.parametrize(
    ("path", "entities"),
    [
        ("/tv/{tv_id}/season/{season_number}/episode/{episode_number}/images", ["tv", "season", "episod"]),
        ("/albums/{id}/tracks", ["album"]),
        ("/users/{userId}/playlists", ["user"]),
        ("/{id}", []),  # no segment before a bare id
        ("/movie/popular", []),
    ],
)
def test_path_entities(path: str, entities: list[str]) -> None:
    assert path_entities(path) == entities


def test_producer_entity_is_the_last_segment_of_a_parameterless_get() -> None:
    assert producer_entity("GET /search/movie") == "movi"
    assert producer_entity("GET /albums") == "album"
    assert producer_entity("POST /albums") is None
    assert producer_entity("GET /albums/{id}") is None
    assert producer_entity("GET /") is None


OPS = [
    ("tmdb", "GET /search/movie"),
    ("tmdb", "GET /discover/movie"),
    ("tmdb", "GET /movie/{movie_id}/credits"),
    ("tmdb", "GET /search/person"),
    ("tmdb", "GET /person/{person_id}/images"),
    ("other", "GET /movies"),  # another service never produces for tmdb
]


def test_graph_links_consumers_to_producers_of_the_same_service() -> None:
    graph = DependencyGraph.of(OPS)
    assert graph.producers(("tmdb", "GET /movie/{movie_id}/credits")) == [
        ("tmdb", "GET /search/movie"),
        ("tmdb", "GET /discover/movie"),
    ]
    assert graph.producers(("tmdb", "GET /search/movie")) == []
    assert len(graph) == 2


def test_propagate_lifts_the_best_scoring_producer_below_its_consumer() -> None:
    graph = DependencyGraph.of(OPS)
    scores = {
        ("tmdb", "GET /movie/{movie_id}/credits"): 1.0,
        ("tmdb", "GET /discover/movie"): 0.2,
        ("tmdb", "GET /search/movie"): 0.1,
    }
    lifted = propagate(scores, graph, share=0.9)
    assert lifted[("tmdb", "GET /discover/movie")] == pytest.approx(0.9)  # best producer for the query
    assert lifted[("tmdb", "GET /search/movie")] == pytest.approx(0.1)  # left alone
    assert scores[("tmdb", "GET /discover/movie")] == 0.2  # input untouched


def test_propagate_adds_an_absent_producer_and_never_lowers_a_score() -> None:
    graph = DependencyGraph.of(OPS)
    lifted = propagate(
        {("tmdb", "GET /person/{person_id}/images"): 0.5, ("tmdb", "GET /search/person"): 0.8}, graph
    )
    assert lifted[("tmdb", "GET /search/person")] == pytest.approx(0.8)
    only_consumer = propagate({("tmdb", "GET /person/{person_id}/images"): 0.5}, graph, share=0.5)
    assert only_consumer[("tmdb", "GET /search/person")] == pytest.approx(0.25)


def test_propagate_only_from_the_top_consumers() -> None:
    graph = DependencyGraph.of(OPS)
    scores = {("tmdb", "GET /search/person"): 0.9, ("tmdb", "GET /movie/{movie_id}/credits"): 0.5}
    assert propagate(scores, graph, consumers=1) == scores


def test_generic_search_and_me_produce_any_entity_and_the_user() -> None:
    ops = [
        ("spotify", "GET /search"),
        ("spotify", "GET /me"),
        ("spotify", "GET /albums"),
        ("spotify", "GET /albums/{id}/tracks"),
        ("spotify", "POST /users/{user_id}/playlists"),
    ]
    graph = DependencyGraph.of(ops)
    assert graph.needs(("spotify", "GET /albums/{id}/tracks")) == [
        [("spotify", "GET /albums"), ("spotify", "GET /search")]
    ]
    # GET /me alone produces the caller's user id where it exists (ALIASES_FIRST)
    assert graph.needs(("spotify", "POST /users/{user_id}/playlists")) == [[("spotify", "GET /me")]]
    plain = DependencyGraph.of(ops, generic=False)
    assert plain.needs(("spotify", "GET /albums/{id}/tracks")) == [[("spotify", "GET /albums")]]
    assert plain.needs(("spotify", "POST /users/{user_id}/playlists")) == []
    # one producer per needed entity: the better-scoring of /albums and /search
    lifted = propagate({("spotify", "GET /albums/{id}/tracks"): 1.0, ("spotify", "GET /search"): 0.3}, graph)
    assert lifted[("spotify", "GET /search")] == pytest.approx(0.9)
    assert ("spotify", "GET /albums") not in lifted


def test_without_aliases_first_me_competes_with_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dependencies, "ALIASES_FIRST", False)
    ops = [("spotify", "GET /search"), ("spotify", "GET /me"), ("spotify", "POST /users/{user_id}/playlists")]
    assert DependencyGraph.of(ops).needs(("spotify", "POST /users/{user_id}/playlists")) == [
        [("spotify", "GET /search"), ("spotify", "GET /me")]
    ]
