"""crawl/runs.py: fields drawn as runs of text (a name run, then a run stating its type or place)."""

from __future__ import annotations

from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs


def _tables(html: str) -> list[list[list[str]]]:
    return [b.rows for b in field_runs(parse_html(html).blocks) if b.kind == "table"]


def test_a_name_run_then_a_type_run_is_a_field() -> None:
    html = (
        "<h4>Query Parameters</h4><div>page</div><div>Type: integer</div><div>Default</div><div>1</div>"
        "<div>Specify which page to query.</div><div>tracks</div><div>Type: array of object</div>"
        "<div>required</div><div>Spotify URIs of the tracks.</div><h4>Responses</h4>"
    )
    assert _tables(html) == [
        [
            ["name", "in", "type", "required", "description"],
            ["page", "", "integer", "", "Specify which page to query."],
            ["tracks", "", "array", "true", "Spotify URIs of the tracks."],
        ]
    ]


def test_a_place_run_and_marks_beside_the_name() -> None:
    html = (
        "<h3>Query parameters</h3><div>tags (optional)</div><div>Query Parameter — tags to filter by</div>"
        "<div>limit (optional)</div><div>Query Parameter — maximum number of results</div>"
        "<h3>Pet</h3><div>id</div><div>Long format: int64</div><div>name *</div><div>String</div>"
    )
    assert _tables(html) == [
        [
            ["name", "in", "type", "required", "description"],
            ["tags", "query", "", "false", "tags to filter by"],
            ["limit", "query", "", "false", "maximum number of results"],
        ],
        [
            ["name", "in", "type", "required", "description"],
            ["id", "", "integer", "", ""],
            ["name", "", "string", "true", ""],
        ],
    ]


def test_a_name_or_a_type_word_alone_stays_text() -> None:
    # A value under "Example", a type word after a sentence, a name with nothing after it.
    html = "<div>Example</div><div>ES</div><p>Returns the album.</p><div>string</div><div>id</div>"
    blocks = field_runs(parse_html(html).blocks)
    assert [b.kind for b in blocks] == ["text"] * 5


def test_a_type_word_alone_is_no_field_name() -> None:
    # bootprint: a body of "string" items drawn as "string" then "object" (two types, no field).
    html = "<h4>Body</h4><div>string</div><div>object</div><div>ids</div><div>Type: array of string</div>"
    assert _tables(html) == [
        [["name", "in", "type", "required", "description"], ["ids", "", "array", "", ""]]
    ]
