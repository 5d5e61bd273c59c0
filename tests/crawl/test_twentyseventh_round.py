"""Issue 17's twenty-seventh round: general rules after the twenty-fifth round's swagger2rst (its Jinja templates of
reStructuredText through Sphinx): a nested object's fields in a table of their own after a label that carries the
anchor the parent row's type cell links to ("array of parts" to "Parts schema:"); a status heading that is only the
keyword "default"; an example after a nested label and table in a request body's part; header parameters as
"Name: value" lines in a code block under a request's "Headers" heading; one server under two schemes in a run
under "Base URL"; a map's entry drawn as "Map of {"key": "200-mapped"}". Each on a small fragment of the
structure (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from tests.crawl.conftest import BENCH

_HEAD = "<tr><th><p>Name</p></th><th><p>Required</p></th><th><p>Type</p></th><th><p>Description</p></th></tr>"


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _table(*rows: tuple[str, str, str]) -> str:
    """A Name | Required | Type | Description table; a Type cell may hold a link."""
    body = "".join(
        f"<tr><td><p>{name}</p></td><td><p>{required}</p></td><td><p>{type_}</p></td><td></td></tr>"
        for name, required, type_ in rows
    )
    return f"<table><thead>{_HEAD}</thead><tbody>{body}</tbody></table>"


def _code(text: str) -> str:
    return f"<div><pre>{text}</pre></div>"


def _operation(method: str, path: str, request: str = "", responses: str = "") -> str:
    slug = f"{method}-{path}".lower().replace("/", "-").replace("{", "").replace("}", "")
    return (
        f'<section id="{slug}"><h3>{method} <code>{path}</code></h3>'
        f"<section><h4>Request</h4>{request}</section>"
        f"<section><h4>Responses</h4>{responses}</section></section>"
    )


def _status(status: str, inside: str) -> str:
    return f"<section><h5><strong>{status}</strong></h5>{inside}</section>"


def _page(*operations: str, base: str = "<p>https://api.example.com/v1</p>") -> str:
    other = _operation("DELETE", "/other/{id}", responses=_status("204", "<p>deleted</p>"))
    return (
        "<html><body><section><h1>Example API</h1>"
        f"<section><h2>Base URL</h2>{base}</section>"
        f"<section><h2>DEFAULT</h2>{''.join(operations)}{other}</section></section></body></html>"
    )


def _schema(operation: dict, status: str = "200") -> dict:
    return operation["responses"][status]["content"]["application/json"]["schema"]


def test_a_table_after_a_label_a_type_cell_links_to_is_that_fields_fields(tmp_path: Path) -> None:
    responses = _status(
        "200",
        '<p id="i-1"><strong>Response Schema:</strong></p>'
        + _table(("id", "No", "integer"), ("parts", "No", 'array of <a href="#i-2"><span>parts</span></a>'))
        + '<p id="i-2"><strong>Parts schema:</strong></p>'
        + _table(("popularity", "No", "number"), ("title", "No", "string"))
        + "<p><strong>Example:</strong></p>"
        + _code('{"id": 1, "parts": [{"popularity": 1, "title": "somestring"}]}'),
    )
    doc = _crawl(tmp_path, _page(_operation("GET", "/collections/{id}", responses=responses)))
    schema = _schema(doc["paths"]["/collections/{id}"]["get"])
    assert set(schema["properties"]) == {"id", "parts"}  # the nested fields are no top-level fields
    parts = schema["properties"]["parts"]
    assert parts["type"] == "array"
    # the nested table states the type the example's literal cannot ("1" is no integer here)
    assert parts["items"]["properties"]["popularity"]["type"] == "number"


def test_a_run_carries_the_id_of_the_element_it_is_the_whole_of() -> None:
    page = parse_html(
        '<html><body><p id="label"><strong>Parts schema:</strong></p>'
        '<section id="part"><h4>Description</h4>Creates a pet.</section>'
        '<div id="box"><p>First words</p><p>more words</p></div></body></html>'
    )
    anchors = {b.text: b.anchor for b in page.blocks if b.kind == "text"}
    assert anchors["Parts schema:"] == "label"
    assert anchors["Creates a pet."] == ""  # the section's id names the section, not its words
    assert anchors["First words"] == ""


def test_a_heading_that_is_only_default_is_that_status(tmp_path: Path) -> None:
    responses = _status(
        "200", "<p>pet response</p><p><strong>Example:</strong></p>" + _code('{"id": 1, "name": "somestring"}')
    ) + _status(
        "default",
        "<p>unexpected error</p><p><strong>Example:</strong></p>" + _code('{"code": 1, "message": "somestring"}'),
    )
    doc = _crawl(tmp_path, _page(_operation("GET", "/pets/{id}", responses=responses)))
    operation = doc["paths"]["/pets/{id}"]["get"]
    assert set(_schema(operation)["properties"]) == {"id", "name"}
    assert set(_schema(operation, "default")["properties"]) == {"code", "message"}


def test_an_example_after_a_nested_label_in_a_body_is_the_requests(tmp_path: Path) -> None:
    request = (
        "<section><h5>Body</h5>"
        + _table(("parameters", "Yes", '<a href="#i-3"><span>parameters</span></a>'), ("usage", "Yes", "number"))
        + '<p id="i-3"><strong>Parameters schema:</strong></p>'
        + "<p>Additional parameters for the optimization process.</p>"
        + _code('{"parameters": {}, "usage": 1}')
        + "</section>"
    )
    responses = _status("200", "<p>Submitted.</p>" + _table(("message", "No", "string")))
    doc = _crawl(tmp_path, _page(_operation("POST", "/optimize", request=request, responses=responses)))
    operation = doc["paths"]["/optimize"]["post"]
    assert set(_schema(operation)["properties"]) == {"message"}
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"parameters", "usage"}


def test_header_lines_in_a_code_block_under_a_requests_headers_heading_are_header_parameters(
    tmp_path: Path,
) -> None:
    request = "<section><h5>Headers</h5>" + _code("Authorization:\nX-Trace-Id: the caller's trace id\n") + "</section>"
    responses = _status("200", "<p>Headers:</p>" + _code("X-Rate-Limit: 100") + _code('{"id": 1}'))
    doc = _crawl(tmp_path, _page(_operation("GET", "/businesses", request=request, responses=responses)))
    operation = doc["paths"]["/businesses"]["get"]
    assert {(p["name"], p["in"]) for p in operation["parameters"]} == {
        ("Authorization", "header"),
        ("X-Trace-Id", "header"),
    }
    assert "security" not in operation  # a documented parameter, not a credential read from a sample


def test_header_lines_under_a_title_that_says_request_are_no_parameters(tmp_path: Path) -> None:
    # A request line whose path says "request" ("POST /procurement/request") labels no request part: the
    # "Headers" under the response's run after it are the response's
    html = (
        "<html><body><h1>API</h1><h2>Group</h2><h3>Order</h3><h4>Order POST /procurement/request</h4>"
        "<p>Response 200</p><h5>Headers</h5><pre>Content-Type: application/json</pre>"
        '<h5>Body</h5><pre>{"id": 1}</pre>'
        "<h3>Other</h3><h4>Other GET /other</h4><p>Response 200</p><h5>Body</h5><pre>{\"a\": 1}</pre>"
        "</body></html>"
    )
    doc = _crawl(tmp_path, html)
    assert "parameters" not in doc["paths"]["/procurement/request"]["post"]


def test_a_link_to_an_id_set_before_a_heading_names_its_section(tmp_path: Path) -> None:
    responses = _status(
        "200", '<p>the property</p><p>Type: <a href="#d-1"><span>Property</span></a></p>'
        + "<p><strong>Example:</strong></p>" + _code('{"id": "somestring", "price": 1, "photo": "somestring"}')
    )
    structures = (
        '<section id="data-structures"><h2>Data Structures</h2>'
        '<section id="property-model-structure"><span id="d-1"></span><h3>Property Model Structure</h3>'
        + _table(("id", "No", "string"), ("price", "No", "number"), ("photo", "No", '<a href="#d-2">image-path</a>'))
        + '</section><section id="image-path-model-structure"><span id="d-2"></span><h3>image-path Model Structure</h3>'
        + _table(("image-path", "No", "string"))
        + "</section></section>"
    )
    html = _page(_operation("GET", "/properties/{id}", responses=responses)).replace(
        "</section></body>", structures + "</section></body>"
    )
    schema = _schema(_crawl(tmp_path, html)["paths"]["/properties/{id}"]["get"])
    assert schema["properties"]["price"]["type"] == "number"  # the section's stated type, not the literal's
    # a scalar schema drawn as one field of its own name is no object of fields
    assert schema["properties"]["photo"] == {"type": "string"}


def test_one_server_under_two_schemes_is_the_server(tmp_path: Path) -> None:
    base = (
        '<p><a href="http://api.example.com/svc/v2">http://api.example.com/svc/v2</a> '
        '<a href="https://api.example.com/svc/v2">https://api.example.com/svc/v2</a></p>'
    )
    doc = _crawl(tmp_path, _page(_operation("GET", "/reviews", responses=_status("200", "<p>ok</p>")), base=base))
    assert doc["servers"] == [{"url": "https://api.example.com/svc/v2"}]
    two = '<p><a href="https://a.example.com/v1">https://a.example.com/v1</a> https://b.example.com/v1</p>'
    doc = _crawl(tmp_path, _page(_operation("GET", "/reviews", responses=_status("200", "<p>ok</p>")), base=two))
    assert doc.get("servers") != [{"url": "https://a.example.com/v1"}]  # two hosts are no one server


def test_a_maps_stated_entry_name_is_no_field(tmp_path: Path) -> None:
    responses = _status(
        "200",
        "<p>successful operation</p>"
        "<p>Map of {“key”:” 200-mapped ”}</p><p><strong>Example:</strong></p>"
        + _code('[{"200-mapped": {}}, {"200-mapped": {}}]'),
    )
    doc = _crawl(tmp_path, _page(_operation("POST", "/records", responses=responses)))
    schema = _schema(doc["paths"]["/records"]["post"])
    assert "200-mapped" not in str(schema)
    assert schema["type"] == "array"


def test_real_pages() -> None:
    pages = BENCH / "pages" / "swagger2rst"
    tmdb = crawl_pages([pages / "restbench-tmdb.html"]).document
    collection = _schema(tmdb["paths"]["/collection/{collection_id}"]["get"])
    assert collection["properties"]["parts"]["items"]["properties"]["popularity"]["type"] == "number"
    assert "popularity" not in collection["properties"]
    pets = crawl_pages([pages / "realworld-v3-0-petstore-expanded.html"]).document
    created = pets["paths"]["/pets"]["post"]
    assert set(_schema(created)["properties"]) == {"id", "name", "tag"}
    assert set(_schema(created, "default")["properties"]) == {"code", "message"}
    yelp = crawl_pages([pages / "realworld-yelp-com-v3-swagger.html"]).document
    search = yelp["paths"]["/businesses/search"]["get"]
    assert ("Authorization", "header") in {(p["name"], p["in"]) for p in search["parameters"]}
    reviews = crawl_pages([pages / "realworld-nytimes-movie_reviews-movie_reviews_v2.html"]).document
    assert reviews["servers"] == [{"url": "https://api.nytimes.com/svc/movies/v2"}]
