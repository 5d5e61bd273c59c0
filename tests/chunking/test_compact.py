"""The `compact` strategy: a short embedded line, a fuller BM25 text, thin JSON returned."""

from __future__ import annotations

import json

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.compact import compact_text, lexical_text
from openapi_rag.chunking.render import leading_sentence
from openapi_rag.model import Operation, Parameter, Service
from openapi_rag.search.bm25 import BM25_TEXT, BM25Index


def op(**kw) -> Operation:  # type: ignore[no-untyped-def]
    base = dict(service="tmdb", method="GET", path="/movie/{movie_id}/credits")
    return Operation(**(base | kw))


SERVICE = Service(id="tmdb", title="TMDB  API", version="3", file="tmdb.json", format="oas30")


def test_leading_sentence() -> None:
    assert leading_sentence("Get the cast.  And the crew! More.") == "Get the cast."
    assert leading_sentence("") == ""
    assert leading_sentence("No end mark") == "No end mark"


def test_compact_text_has_title_tags_path_summary_sentence_and_parameter_names() -> None:
    operation = op(
        summary="Get credits",
        description="Get the cast and crew for a movie. Long details follow here.",
        tags=["movies"],
        parameters=[Parameter("movie_id", "path", True, "The movie."), Parameter("language", "query")],
    )
    assert compact_text(SERVICE, operation) == (
        "TMDB API – movies – GET /movie/{movie_id}/credits: Get credits. Get the cast and crew for a movie."
        " Parameters: movie_id, language."
    )


def test_compact_text_skips_a_description_that_repeats_the_summary_and_empty_parts() -> None:
    operation = op(summary="Get credits", description="Get credits")
    bare = Service(id="x", title="", version="1", file="x.json", format="oas30")
    assert compact_text(bare, operation) == "GET /movie/{movie_id}/credits: Get credits"


def test_lexical_text_keeps_the_whole_description_and_parameter_descriptions() -> None:
    operation = op(
        summary="Get credits",
        description="First. Second sentence.",
        tags=["movies"],
        parameters=[Parameter("movie_id", "path", True, "The movie id.")],
    )
    assert lexical_text(SERVICE, operation) == (
        "GET /movie/{movie_id}/credits Get credits movies First. Second sentence. movie_id The movie id."
    )


def test_the_texts_name_the_success_response_fields(campaigns) -> None:  # type: ignore[no-untyped-def]
    listing = campaigns.operation("GET /campaigns")  # 200: array of Campaign; 400: Error
    assert compact_text(campaigns, listing).endswith("Parameters: status. Returns: id, name, owner.")
    assert lexical_text(campaigns, listing).endswith(" id name owner")
    assert "message" not in lexical_text(campaigns, listing)  # the error response's field
    assert "Returns" not in compact_text(campaigns, listing, returns=0)
    assert compact_text(campaigns, listing, returns=2).endswith("Returns: id, name.")


def test_returns_is_a_strategy_parameter_recorded_with_the_index(campaigns) -> None:  # type: ignore[no-untyped-def]
    assert get_strategy("compact").params["returns"] == 25
    plain = get_strategy("compact", returns=0)
    assert plain.params["returns"] == 0
    assert all("Returns:" not in c.embed_text for c in plain.chunk([campaigns]))


def test_strategy_chunks_carry_the_bm25_text_and_return_thin_json(campaigns) -> None:  # type: ignore[no-untyped-def]
    chunks = get_strategy("compact").chunk([campaigns])
    assert [c.operations for c in chunks] == [[o.id] for o in campaigns.operations]
    post = next(c for c in chunks if c.operations == ["POST /campaigns"])
    assert post.id == f"{campaigns.id}:compact:POST /campaigns"
    assert post.embed_text.startswith("Campaigns API – campaigns – POST /campaigns: Create a campaign.")
    assert "\n" not in post.embed_text
    assert post.metadata[BM25_TEXT].startswith(
        "POST /campaigns Create a campaign campaigns Creates a campaign."
    )
    header, body = post.content.split("\n", 1)
    assert header == "POST /campaigns" and "requestBody" not in json.loads(body)


def test_bm25_index_matches_the_bm25_text_not_the_embedded_line(campaigns) -> None:  # type: ignore[no-untyped-def]
    chunks = get_strategy("compact").chunk([campaigns])
    # "state" is only in the status parameter's description, which the embedded line leaves out
    assert all("state" not in c.embed_text for c in chunks)
    hits = BM25Index.from_chunks(chunks).search("state", k=3)
    assert [h[0] for h in hits] == [f"{campaigns.id}:compact:GET /campaigns"]
    # field="content" indexes the returned JSON, whose key names the line and the BM25 text lack
    assert "responses" not in chunks[0].metadata[BM25_TEXT]
    assert BM25Index.from_chunks(chunks).search("responses", k=3) == []
    assert len(BM25Index.from_chunks(chunks, field="content").search("responses", k=3)) == 3


def test_an_operation_without_a_summary_is_named_by_its_operation_id_in_words(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from openapi_rag.chunking import render

    bare = op(operation_id="getMovieCredits", description="The cast.")
    assert compact_text(SERVICE, bare).startswith(
        "TMDB API – GET /movie/{movie_id}/credits: get movie credits. The cast."
    )
    assert lexical_text(SERVICE, bare) == "GET /movie/{movie_id}/credits get movie credits The cast."
    named = op(operation_id="getMovieCredits", summary="Get credits")
    assert "get movie credits" not in compact_text(SERVICE, named)  # a summary is the better name
    monkeypatch.setattr(render, "OPERATION_ID_FOR_SUMMARY", False)
    assert lexical_text(SERVICE, bare) == "GET /movie/{movie_id}/credits The cast."


def test_a_one_word_summary_is_put_in_words_or_named_by_the_operation_id_too() -> None:
    # Trello's summaries are its operationIds as code; Lob's are one verb ("Create", "Cancel"):
    # on their own they do not say what is created or cancelled.
    coded = op(operation_id="updateCardsIdBoardByIdCard", summary="updateCardsIdBoardByIdCard()")
    assert "GET /movie/{movie_id}/credits: update cards id board by id card" in compact_text(SERVICE, coded)
    bare_verb = op(operation_id="postcard_create", summary="Create")
    assert "GET /movie/{movie_id}/credits: Create: postcard create" in compact_text(SERVICE, bare_verb)
    # A one-word summary the operationId adds nothing to, and a summary of several words, stay as written.
    assert ": List." in compact_text(SERVICE, op(operation_id="list", summary="List", description="All."))
    assert ": Get credits" in compact_text(SERVICE, op(operation_id="getMovieCredits", summary="Get credits"))


def test_each_statement_is_a_short_view_of_its_own() -> None:
    from openapi_rag.chunking.compact import view_texts

    operation = op(
        summary="Get credits",
        description="Get the cast and crew for a movie. Long details follow here.",
        tags=["movies", "people"],
        parameters=[Parameter("movie_id", "path", True, "The movie.")],
    )
    assert view_texts(SERVICE, operation) == [
        "movies, people – GET /movie/{movie_id}/credits: Get credits",
        "movies, people – GET /movie/{movie_id}/credits: Get the cast and crew for a movie.",
    ]
    bare = op(operation_id="getMovieCredits")  # no tags, no summary: the operationId in words
    assert view_texts(SERVICE, bare) == ["GET /movie/{movie_id}/credits: get movie credits"]
    assert view_texts(SERVICE, op()) == []  # nothing said: no view


def test_views_are_a_strategy_parameter_written_on_the_chunks(campaigns) -> None:  # type: ignore[no-untyped-def]
    from openapi_rag.search.views import VIEWS

    chunks = get_strategy("compact", views=True).chunk([campaigns])
    post = next(c for c in chunks if c.operations == ["POST /campaigns"])
    assert post.metadata[VIEWS][0] == "campaigns – POST /campaigns: Create a campaign"
    assert all(not view.startswith("Campaigns API") for c in chunks for view in c.metadata[VIEWS])
    plain = get_strategy("compact")
    assert plain.params["views"] is False and get_strategy("compact", views=True).params["views"] is True
    assert all(VIEWS not in c.metadata for c in plain.chunk([campaigns]))
    assert [c.embed_text for c in plain.chunk([campaigns])] == [c.embed_text for c in chunks]


def test_takes_is_recorded_with_the_index_only_when_on() -> None:
    assert "takes" not in get_strategy("compact").params  # indexes built before it compare equal
    assert get_strategy("compact", takes=10).params["takes"] == 10
