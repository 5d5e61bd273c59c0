"""Issue 17's twenty-second round: general rules after the first contact of pretty-swag (one page its Vue client
draws: each operation a run "GET /pets" over "Description", "Parameters" and "Responses" headings, parameters a
table Name | Located In | Description | Required | Schema, responses a table Code | Description | Schema, a body's or
a response's schema drawn in a code block as a sketch of its JSON whose values are type names, each member's
description a comment after it, `/* The id. */`, over one line or more, an allOf's parts joined without the comma
between them, a format written where the type would be, `"id": "int64"`, a schema it cannot draw as `""`; a
parameter's type drawn as one line of code in the Schema cell; a response's example under a "Response Example"
heading, the status as a run, then a code block of its media type that holds the example's own), each on a small
fragment of the structure it draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.example_schema import schema_from_example
from openapi_rag.crawl.samples import parse_json
from tests.crawl.conftest import BENCH

_SKETCH_WITH_COMMENTS = """{
   "name": "string",     /* The pet's name. */
   "tags": [     /* Its tags, the first one
                  *
                  */
      "string"
   ],
   "owner": {
      "id": "string"     /* Who keeps it. */
   }
}"""

_JOINED_PARTS = """{
   "name": "string",
   "tag": "string"
   "id": "int64"
}"""


def test_member_descriptions_as_comments_are_no_part_of_the_json() -> None:
    # a comment after a member, on its line or over several, is its description: the sketch is read without it
    assert parse_json(_SKETCH_WITH_COMMENTS) == {"name": "string", "tags": ["string"], "owner": {"id": "string"}}


def test_a_comma_left_out_between_two_members_lines_is_read_as_there() -> None:
    assert parse_json(_JOINED_PARTS) == {"name": "string", "tag": "string", "id": "int64"}


def test_valid_json_and_text_that_is_no_json_are_read_as_before() -> None:
    assert parse_json('{"a": "*/*", "b": 1}') == {"a": "*/*", "b": 1}
    assert parse_json('{"a": "x" "b": 1}') is None  # two members on one line: no line to mend
    assert parse_json("{ not json at all }") is None


def test_a_format_where_the_type_would_be_is_its_type_in_a_sketch() -> None:
    schema = schema_from_example({"name": "string", "id": "int64", "weight": "double", "born": "date-time"}, {})
    props = schema["properties"]
    assert props["id"]["type"] == "integer"
    assert props["weight"]["type"] == "number"
    assert props["name"]["type"] == "string" and props["born"]["type"] == "string"


def test_format_names_alone_are_data_not_a_sketch() -> None:
    # no type name beside them: an example whose values happen to be format names stays an example
    schema = schema_from_example({"kind": "email", "scheme": "uuid"}, {})
    assert schema["properties"]["kind"]["type"] == "string"
    assert parse_json('{"kind": "email"}') == {"kind": "email"}


def _pre(text: str) -> str:
    return "<pre>" + "".join(f"<span>{line}\n</span>" for line in text.splitlines()) + "</pre>"


def _page() -> str:
    body = (
        "<table><thead><tr><th>Name</th><th>Located In</th><th>Description</th><th>Required</th><th>Schema</th></tr>"
        "</thead><tbody><tr><td><p>body</p></td><td><p>body</p></td><td><p>Pet to add</p></td><td><p>Yes</p></td>"
        f"<td>{_pre(_SKETCH_WITH_COMMENTS)}</td></tr></tbody></table>"
    )
    responses = (
        "<table><thead><tr><th>Code</th><th>Description</th><th>Schema</th></tr></thead><tbody><tr><td><p>200</p>"
        f"</td><td><p>pet response</p></td><td>{_pre(_JOINED_PARTS)}</td></tr></tbody></table>"
    )
    return (
        "<html><body><h1>Pets</h1><div><span>Base URL</span><span>: </span><span>api.example.com/v1</span></div>"
        "<h5>Paths</h5><div><div><span>/pets</span></div><div><div>POST /pets</div><div><div>pet</div><div>POST</div>"
        "</div><h5>Description</h5><p>Creates a new pet in the store.</p><h5>Parameters</h5>"
        f"{body}<h5>Responses</h5>{responses}</div></div></body></html>"
    )


def test_a_pretty_swag_operation_reads_its_sketched_body_and_response(tmp_path: Path) -> None:
    page = tmp_path / "api.html"
    page.write_text(_page(), encoding="utf-8")
    doc = crawl_pages([page]).document
    operation = next(iter(doc["paths"].values()))["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert {"name", "tags", "owner"} <= set(body["properties"])
    response = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(response["properties"]) == {"name", "tag", "id"}
    assert response["properties"]["id"]["type"] == "integer"


def test_real_pages(tmp_path: Path) -> None:
    pages = BENCH / "pages" / "pretty-swag"
    doc = crawl_pages([pages / "realworld-v3-0-petstore-expanded.html"]).document
    get = doc["paths"]["/pets/{id}"]["get"]  # an allOf's two parts joined without the comma between them
    schema = get["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "tag", "id"}
    assert schema["properties"]["id"]["type"] == "integer"
    doc = crawl_pages([pages / "socbench-01-energy-01-Energy.html"]).document
    post = doc["paths"]["/alert-settings"]["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"notificationType", "sector", "threshold"}


# Second batch.


def test_a_description_comment_on_a_line_of_its_own_is_no_part_of_the_json() -> None:
    text = '[\n   {\n      "amenities": [\n         "string"\n     /* Its amenities. */\n      ],\n'
    text += '      "id": "string"\n   }\n]'
    assert parse_json(text) == [{"amenities": ["string"], "id": "string"}]


def test_a_media_type_line_over_an_example_labels_it() -> None:
    # a code block of the media type that holds the example's own code block: its text is both, a line each
    assert parse_json('application/json\n{\n   "id": 301,\n   "status": "Available"\n}') == {
        "id": 301,
        "status": "Available",
    }
    assert parse_json("application/xml\n<pet/>") is None


def test_untyped_and_null_values_beside_type_names_are_a_sketch() -> None:
    # a schema the renderer could not draw ("item": "", a oneOf) and a null type ("null") are no data
    schema = schema_from_example({"is_playing": "boolean", "item": "", "rank": "integer", "last": "null"}, {})
    props = schema["properties"]
    assert props["is_playing"]["type"] == "boolean" and props["rank"]["type"] == "integer"
    assert "type" not in props["item"] and "type" not in props["last"]


def test_a_type_drawn_as_one_line_of_code_in_a_schema_cell_is_the_cell(tmp_path: Path) -> None:
    head = "<tr><th>Name</th><th>Located In</th><th>Description</th><th>Required</th><th>Schema</th></tr>"
    row = (
        "<tr><td><p>{name}</p></td><td><p>query</p></td><td><p>The {name}.</p></td><td><p>No</p></td>"
        "<td><p></p><pre><span>{type}\n</span></pre><p></p></td></tr>"
    )
    rows = row.format(name="count", type="integer") + row.format(name="ratio", type="number")
    html = (
        "<html><body><h1>Pets</h1><div><div>GET /pets</div><h5>Description</h5><p>Lists the pets.</p>"
        f"<h5>Parameters</h5><table><thead>{head}</thead><tbody>{rows}</tbody></table></div></body></html>"
    )
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    doc = crawl_pages([page]).document
    params = {p["name"]: p for p in doc["paths"]["/pets"]["get"]["parameters"]}
    assert params["count"]["schema"]["type"] == "integer"
    assert params["ratio"]["schema"]["type"] == "number"


def test_real_pages_second_batch() -> None:
    pages = BENCH / "pages" / "pretty-swag"
    doc = crawl_pages([pages / "socbench-04-consumer-02-Hotel.html"]).document
    get = doc["paths"]["/rooms/{id}"]["get"]
    assert get["parameters"][0]["schema"]["type"] == "integer"
    schema = get["responses"]["200"]["content"]["application/json"]["schema"]
    assert {"amenities", "id", "pricePerNight", "status", "type"} <= set(schema["properties"])
