from __future__ import annotations

import pytest

from openapi_rag.search.dependencies import (
    DependencyGraph,
    best_producer,
    gives_identifier,
    names_something,
    path_entities,
    producer_entity,
    propagate,
    speaks_of_own,
)
from openapi_rag.search.settings import DEFAULT_SETTINGS


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


def test_a_search_under_an_entity_finds_that_entity_and_only_a_top_level_search_is_generic() -> None:
    assert producer_entity("GET /businesses/search") == "business"
    assert producer_entity("GET /api/2/user/permission/search") == "permission"
    assert [producer_entity(f"GET {p}") for p in ("/search", "/api/2/search", "/v3/search")] == ["search"] * 3
    jira = [
        ("jira", "GET /api/2/search"),
        ("jira", "GET /api/2/user/search"),
        ("jira", "GET /api/2/issue/{issueIdOrKey}"),
        ("jira", "GET /api/2/user/{userKey}/columns"),
    ]
    graph = DependencyGraph.of(jira)
    # The issue is found by the generic search, not by a search for users.
    assert graph.needs(("jira", "GET /api/2/issue/{issueIdOrKey}")) == [[("jira", "GET /api/2/search")]]
    assert graph.producers(("jira", "GET /api/2/user/{userKey}/columns")) == [
        ("jira", "GET /api/2/user/search"),
        ("jira", "GET /api/2/search"),
    ]


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


def test_propagate_lifts_a_search_before_a_better_scoring_list(monkeypatch: pytest.MonkeyPatch) -> None:
    graph = DependencyGraph.of(OPS)
    scores = {
        ("tmdb", "GET /movie/{movie_id}/credits"): 1.0,
        ("tmdb", "GET /discover/movie"): 0.2,
        ("tmdb", "GET /search/movie"): 0.1,
    }
    lifted = propagate(scores, graph, share=0.9)
    assert lifted[("tmdb", "GET /search/movie")] == pytest.approx(0.9)  # finds the movie by its name
    assert lifted[("tmdb", "GET /discover/movie")] == pytest.approx(0.2)  # left alone
    assert scores[("tmdb", "GET /search/movie")] == 0.1  # input untouched
    lifted = propagate(scores, graph, share=0.9, search_first=False)
    assert lifted[("tmdb", "GET /discover/movie")] == pytest.approx(0.9)  # the best producer for the query
    assert lifted[("tmdb", "GET /search/movie")] == pytest.approx(0.1)


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
    ops = [("spotify", "GET /search"), ("spotify", "GET /me"), ("spotify", "POST /users/{user_id}/playlists")]
    assert DependencyGraph.of(ops, aliases_first=False).needs(
        ("spotify", "POST /users/{user_id}/playlists")
    ) == [[("spotify", "GET /search"), ("spotify", "GET /me")]]


def test_my_lifts_the_caller_s_own_list_before_a_search() -> None:
    ops = [
        ("spotify", "GET /search"),
        ("spotify", "GET /me/playlists"),
        ("spotify", "DELETE /playlists/{playlist_id}/tracks"),
    ]
    graph = DependencyGraph.of(ops)
    consumer, own, search = ("spotify", "DELETE /playlists/{playlist_id}/tracks"), ops[1], ops[0]
    assert set(graph.producers(consumer)) == {own, search}
    scores = {consumer: 1.0, search: 0.3, own: 0.2}
    assert best_producer(graph.needs(consumer)[0], scores) == search
    assert best_producer(graph.needs(consumer)[0], scores, own=True) == own
    assert propagate(scores, graph, own=True)[own] == pytest.approx(0.9)
    assert speaks_of_own("Remove the first song from my playlist 'My Rock'")
    assert not speaks_of_own("Remove the first song of the Mysterious Skin soundtrack")


@pytest.mark.parametrize(
    ("task", "named"),
    [
        ("Follow Taylor Swift", True),
        ("Save the album 'Mojito' to my library", True),
        ("Who is my favorite artist?", False),
        ("I want my top tracks. Then play them", False),  # "I" and a sentence start are no names
    ],
)
def test_names_something(task: str, named: bool) -> None:
    assert names_something(task) is named


@pytest.mark.parametrize(
    "task",
    ["only let SSH in from our office IP address", "Who is the lead actor in the most popular TV show?"],
)
def test_a_word_in_capitals_is_a_term_unless_acronyms_are_read_as_names(task: str) -> None:
    assert names_something(task) and not names_something(task, acronyms=False)
    assert names_something("Play Mojito on my TV", acronyms=False)  # a name beside the term still names


def test_a_named_thing_lifts_the_best_operation_s_search(monkeypatch: pytest.MonkeyPatch) -> None:
    ops = [("spotify", "GET /search"), ("spotify", "PUT /me/following"), ("tmdb", "GET /search/movie")]
    graph = DependencyGraph.of(ops)
    assert graph.searches("spotify") == [("spotify", "GET /search")] and not graph.is_empty
    scores = {("spotify", "PUT /me/following"): 1.0, ("spotify", "GET /search"): 0.2}
    assert propagate(scores, graph, named=True)[("spotify", "GET /search")] == pytest.approx(0.9)
    assert propagate(scores, graph)[("spotify", "GET /search")] == 0.2  # PUT /me/following has no path id
    jira = [
        ("jira", "GET /api/2/search"),
        ("jira", "GET /api/2/user/search"),
        ("jira", "GET /api/2/priority"),
    ]
    scores = {jira[2]: 1.0, jira[1]: 0.5, jira[0]: 0.1}  # the generic search goes first all the same
    assert propagate(scores, DependencyGraph.of(jira), named=True)[jira[0]] == pytest.approx(0.9)
    assert not names_something("list my issues in Jira", known=frozenset({"jira"}))  # the API, no thing


@pytest.mark.parametrize(
    ("task", "given"),
    [
        ("Please mark order ord_3321 as paid in the point-of-sale system", True),
        ("Cancel the scheduled message SM8812 so it never goes out", True),
        ("Book leave for employee E-204 from 10 July", True),
        ("I want to cancel my contract. My account ID is 0123.", True),
        ("Update the reservation with ID 123", True),
        ("Close ticket #4521", True),
        ("refund $200 of yesterday's order", False),  # an amount
        ("alert me when CPU stays above 80% for 5 minutes after 9am", False),  # a share, a time
        ("add more worker nodes to my managed k8s cluster", False),  # a name
        ("Who directed the top-1 rated movie?", False),
        ("read this paragraph aloud as an mp3", False),
        ("resize the volume to 100GB", False),  # a size
    ],
)
def test_gives_identifier(task: str, given: bool) -> None:
    assert gives_identifier(task) is given


def test_no_producer_is_lifted_where_the_task_needs_none() -> None:
    graph = DependencyGraph.of(OPS)
    scores = {("tmdb", "GET /person/{person_id}/images"): 0.5}
    assert ("tmdb", "GET /search/person") in propagate(scores, graph)
    assert propagate(scores, graph, needs=False) == scores


@pytest.mark.shared
def test_a_request_giving_the_identifier_lifts_no_producer_of_it(restbench_index) -> None:  # type: ignore[no-untyped-def]
    searcher = restbench_index.searcher
    query = "Get the images of the person with id 287"  # the consumer has its person id
    searcher.configure(DEFAULT_SETTINGS, lift_identified=True)
    lifted = {hit.id: hit.score for hit in restbench_index.search(query, k=10, expand=False)}
    searcher.configure(DEFAULT_SETTINGS)  # lift_identified False
    kept = {hit.id: hit.score for hit in restbench_index.search(query, k=10, expand=False)}
    searcher.configure(DEFAULT_SETTINGS)
    consumer, producer = "GET /person/{person_id}/images", "GET /search/person"
    assert next(iter(lifted)) == next(iter(kept)) == consumer
    assert lifted[producer] == pytest.approx(0.9 * lifted[consumer])  # lifted to the producer share
    assert kept.get(producer, 0.0) < 0.9 * kept[consumer]  # where its own words put it, if anywhere


@pytest.mark.shared
@pytest.mark.parametrize(
    ("query", "producer", "switch"),
    [
        ("How many episodes does 2 Broke Girls have in total?", "GET /search/tv", "search_first"),
        ("What is the genre of the movie Lord of the Ring?", "GET /search/movie", "search_first"),
        ("Remove the first song from my playlist 'My Rock'", "GET /me/playlists", "own_first"),
        ("Follow Taylor Swift", "GET /search", "named_search"),
        ("Save Jay Chou's album Mojito", "GET /search", "named_search"),
    ],
)
def test_the_producer_a_restbench_task_needs_is_lifted(
    restbench_index, query: str, producer: str, switch: str
) -> None:  # type: ignore[no-untyped-def]
    searcher = restbench_index.searcher
    # these tasks name things too: see each rule alone
    searcher.configure(DEFAULT_SETTINGS, named_search=switch == "named_search")
    on = [hit.id for hit in restbench_index.search(query, k=5, expand=False)]
    searcher.configure(**{switch: False})
    off = [hit.id for hit in restbench_index.search(query, k=5, expand=False)]
    searcher.configure(DEFAULT_SETTINGS)
    assert producer in on and producer not in off


@pytest.fixture(scope="module")
def restbench_index():  # type: ignore[no-untyped-def]
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services
    from tests.conftest import shared_data

    return Index.build(load_services([shared_data("restbench") / "specs"]).services)
