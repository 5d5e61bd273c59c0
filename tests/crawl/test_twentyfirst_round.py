"""Issue 17's twenty-first round: general rules after the first contact of openapi3-generator (its Markdown
template turned into HTML: each operation a heading "GET /pets" over label headings "Query parameters", "Request
body", "Responses"; each parameter a heading of its name, with a leading arrow, over a table of name, type, in and
description; each status a heading "▶ 200 - caption" over a "Headers" heading, each header a heading of its own
name, drawn a level shallower, over its table, then its media type's heading over a table of fields, a schema of no
fields of its own drawn as one row "Response" with its fields as "Response.id" below, then an "Example" heading at
the status's level), each on a small fragment of the structure it draws (each fails without its rule), and the
real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from tests.crawl.conftest import BENCH

_HEAD = "<thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>"
_PARAM_HEAD = "<thead><tr><th>Name</th><th>Type</th><th>In</th><th>Description</th></tr></thead>"


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _fields(*rows: tuple[str, str]) -> str:
    body = "".join(f"<tr><td>{name}</td><td>{type_}</td><td>The {name}.</td></tr>" for name, type_ in rows)
    return f"<table>{_HEAD}<tbody>{body}</tbody></table>"


def _parameter(name: str, type_: str, where: str) -> str:
    return (
        f"<h5>▷ {name}</h5><p>The {name} to use.</p><table>{_PARAM_HEAD}<tbody><tr><td>{name}</td>"
        f"<td>{type_}</td><td>{where}</td><td>The {name} to use.</td></tr></tbody></table>"
    )


def _status(caption: str, fields: str = "", example: str = "", headers: str = "") -> str:
    shown = "<h6>application/json</h6>" + fields if fields else ""
    sample = f"<h5>Example <em>(generated)</em></h5><pre><code>{example}</code></pre>" if example else ""
    return f"<h5>▶ {caption}</h5><h6>Headers</h6>{headers or '<p><em>No headers specified</em></p>'}{shown}{sample}"


def _page(*operations: str) -> str:
    return (
        "<html><body><h1>Pets</h1><h2>Servers</h2><table><thead><tr><th>URL</th><th>Description</th></tr></thead>"
        '<tbody><tr><td><a href="https://api.example.com/v1">https://api.example.com/v1</a></td><td></td></tr>'
        "</tbody></table><h2>Paths</h2>" + "".join(operations) + "</body></html>"
    )


def _operation(method: str, path: str, parts: str) -> str:
    # no summary, and a description too long for one: nothing above the parts names the operation
    said = (
        f"What {method} {path} does, for whom, and how often it may be called before it is refused by the service,"
        " told in full here."
    )
    return f"<h3><code>{method}</code> {path}</h3><p>{said}</p>{parts}"


def _response(document: dict, path: str, method: str, status: str) -> dict:
    return document["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"]


def test_a_leading_arrow_marks_a_heading_and_names_no_word_of_it(tmp_path: Path) -> None:
    # "▶ 201 - Created": the arrow says the part folds; the heading is a status heading, so its fields are the 201's
    # (with the arrow taken for a word, the caption read as a sentence and the fields fell to no status).
    parts = "<h4>Responses</h4>" + _status("201 - Created", _fields(("id", "integer"), ("name", "string")))
    document = _crawl(tmp_path, _page(_operation("POST", "/pets", parts)))
    responses = document["paths"]["/pets"]["post"]["responses"]
    assert "201" in responses and responses["201"]["description"].endswith("Created")
    assert set(_response(document, "/pets", "post", "201")["properties"]) == {"id", "name"}


def test_a_status_and_a_dash_open_a_response_heading_whatever_its_caption(tmp_path: Path) -> None:
    # "401 - Bad or expired token. This can happen …" and "default - unexpected error": a status and a dash, then
    # a caption that is a sentence or says no "response": each heading is that status's, its fields its own.
    parts = (
        "<h4>Responses</h4>"
        + _status("200 - A pet", _fields(("id", "integer"), ("name", "string")))
        + _status("401 - Bad or expired token. This can happen when the user revoked it.", _fields(("error", "object")))
        + _status("default - unexpected error", _fields(("code", "integer"), ("message", "string")))
    )
    document = _crawl(tmp_path, _page(_operation("GET", "/pets/{id}", parts)))
    assert set(_response(document, "/pets/{id}", "get", "200")["properties"]) == {"id", "name"}
    assert set(_response(document, "/pets/{id}", "get", "401")["properties"]) == {"error"}
    assert set(_response(document, "/pets/{id}", "get", "default")["properties"]) == {"code", "message"}


def test_an_example_heading_beside_the_status_headings_is_the_status_before_it(tmp_path: Path) -> None:
    # "204 - deleted" shows nothing; "default - unexpected error", its fields, then "Example" at the statuses' level:
    # the default's example, not the first status's.
    parts = "<h4>Responses</h4>" + _status("204 - pet deleted") + _status(
        "default - unexpected error", _fields(("code", "integer")), '{"code": 0, "message": "string"}'
    )
    document = _crawl(tmp_path, _page(_operation("DELETE", "/pets/{id}", parts)))
    responses = document["paths"]["/pets/{id}"]["delete"]["responses"]
    assert "content" not in responses["204"]
    assert set(_response(document, "/pets/{id}", "delete", "default")["properties"]) == {"code", "message"}


def test_a_row_named_response_wraps_the_fields_under_it(tmp_path: Path) -> None:
    # A schema of no fields of its own (an array) drawn as one row "Response", its items' fields as "Response.id":
    # the row stands in for the response, as a row "body" does for a request body; it is no field.
    table = _fields(("Response", "array"), ("Response.id", "integer"), ("Response.name", "string"))
    parts = "<h4>Responses</h4>" + _status("200 - pets", table)
    document = _crawl(tmp_path, _page(_operation("GET", "/pets", parts)))
    schema = _response(document, "/pets", "get", "200")
    assert "Response" not in schema.get("properties", {})
    assert {"id", "name"} <= set(schema["properties"])


def test_a_row_named_by_a_number_under_a_field_is_one_of_its_alternatives(tmp_path: Path) -> None:
    # A oneOf's alternatives drawn by their positions below the field, its type cell "oneOf" ("vote_average.0",
    # "vote_average.1"; "item.0", then "item.0.name"): no field named "0"; an alternative's own fields are the field's.
    table = _fields(
        ("vote_average", "oneOf"),
        ("vote_average.0", "integer"),
        ("vote_average.1", "number"),
        ("item", "oneOf"),
        ("item.0", "object"),
        ("item.0.name", "string"),
    )
    parts = "<h4>Responses</h4>" + _status("200 - ratings", table)
    document = _crawl(tmp_path, _page(_operation("GET", "/ratings", parts)))
    schema = _response(document, "/ratings", "get", "200")
    assert set(schema["properties"]) == {"vote_average", "item"}
    assert "properties" not in schema["properties"]["vote_average"]
    assert set(schema["properties"]["item"]["properties"]) == {"name"}


def test_header_headings_after_a_response_headers_heading_are_its_headers(tmp_path: Path) -> None:
    # "Headers" (h6), then a heading per header at the status's level (h5) over its table, then the media type's
    # heading (h6) and the body's fields: the headers are no fields, and the last one's name ("…-Expose-Headers")
    # does not make the body's table a table of request headers.
    headers = "".join(
        f"<h5>{name}</h5>" + _fields((name, "string"))
        for name in ("Access-Control-Allow-Origin", "Access-Control-Expose-Headers")
    )
    parts = (
        "<h4>Request body</h4><h6>application/json</h6>"
        + _fields(("grant_type", "string"))
        + "<h4>Responses</h4>"
        + _status("201 - Created", _fields(("access_token", "string"), ("expires_in", "integer")), headers=headers)
    )
    document = _crawl(tmp_path, _page(_operation("POST", "/token", parts)))
    token = document["paths"]["/token"]["post"]
    assert not token.get("parameters")
    assert set(token["requestBody"]["content"]["application/json"]["schema"]["properties"]) == {"grant_type"}
    assert set(_response(document, "/token", "post", "201")["properties"]) == {"access_token", "expires_in"}


def test_a_heading_under_a_label_heading_is_no_title(tmp_path: Path) -> None:
    # No summary: the request line, its description, "Query parameters", then "▷ limit" over its table: the
    # parameter's heading, not the operation's title.
    parts = "<h4>Query parameters</h4>" + _parameter("limit", "integer", "query")
    other = "<h4>Path parameters</h4>" + _parameter("id", "integer", "path")
    document = _crawl(tmp_path, _page(_operation("GET", "/pets", parts), _operation("DELETE", "/pets/{id}", other)))
    operation = document["paths"]["/pets"]["get"]
    assert operation.get("summary", "") != "limit"
    assert document["paths"]["/pets/{id}"]["delete"].get("summary", "") != "id"
    assert [(p["name"], p["in"]) for p in operation["parameters"]] == [("limit", "query")]


def test_a_tags_heading_is_no_title(tmp_path: Path) -> None:
    # No summary: the request line, its description, its responses, then "Tags" over the tag's name: a part of the
    # operation's documentation, as "Security" or "Code samples" are, never its title.
    parts = "<h4>Responses</h4>" + _status("200 - OK") + "<h4>Tags</h4><div><div>site</div></div>"
    other = "<h4>Responses</h4>" + _status("204 - deleted") + "<h4>Tags</h4><div><div>site</div></div>"
    document = _crawl(tmp_path, _page(_operation("GET", "/sites", parts), _operation("DELETE", "/sites/{id}", other)))
    assert document["paths"]["/sites"]["get"].get("summary", "") != "Tags"
    assert document["paths"]["/sites/{id}"]["delete"].get("summary", "") != "Tags"


def test_a_servers_table_cell_whose_scheme_is_a_variable_is_a_server(tmp_path: Path) -> None:
    # A table of URL and description whose URL's scheme is a server variable ("{scheme}://api.example.com/ds-api"):
    # a server all the same, its scheme https where the page names none.
    servers = (
        "<table><thead><tr><th>URL</th><th>Description</th></tr></thead><tbody><tr><td>"
        '<a href="{scheme}://api.example.com/ds-api">{scheme}://api.example.com/ds-api</a></td><td></td></tr>'
        "</tbody></table>"
    )
    parts = "<h4>Responses</h4>" + _status("200 - data sets", _fields(("total", "integer")))
    html = f"<html><body><h1>Data sets</h1>{servers}<h2>Paths</h2>{_operation('GET', '/fields', parts)}</body></html>"
    document = _crawl(tmp_path, html)
    assert document["servers"][0]["url"] == "https://api.example.com/ds-api"
    assert set(document["paths"]) == {"/fields"}


def test_the_openapi3_generator_pages_meet_the_targets_on_petstore_and_twilio() -> None:
    pages = BENCH / "pages" / "openapi3-generator"
    petstore = crawl_pages([pages / "realworld-v3-0-petstore-expanded.html"]).document
    assert set(petstore["paths"]) == {"/pets", "/pets/{id}"}
    deleted = petstore["paths"]["/pets/{id}"]["delete"]["responses"]
    assert "content" not in deleted["204"]
    twilio = crawl_pages([pages / "realworld-twilio_oauth_v1.html"]).document
    token = twilio["paths"]["/v1/token"]["post"]
    assert not token.get("parameters")
    (body,) = token["responses"]["201"]["content"].values()
    assert "access_token" in body["schema"]["properties"]
    assert not any(name.startswith("Access-Control") for name in body["schema"]["properties"])
