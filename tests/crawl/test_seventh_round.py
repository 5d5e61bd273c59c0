"""Issue 17's seventh round: general rules after aglio's first contact (an API Blueprint renderer), each
on a small fragment of the structure it draws (each fails without its rule), and the real aglio page."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.page_words import PageWords
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.samples import parse_named_signature, parse_signature, split_url
from openapi_rag.crawl.schema_sections import schema_sections
from openapi_rag.crawl.scrape import scrape
from tests.crawl.conftest import PAGES

_HEADER = ["name", "in", "type", "required", "description"]


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def test_a_heading_that_names_the_operation_then_its_request_line_is_a_signature() -> None:
    # aglio: the summary and a method badge beside the path in one heading.
    html = (
        "<h3>Alerts</h3><h4><div>Create custom energy alerts</div><a href='#post'>POST</a>"
        "<code>/v1/alert-settings</code></h4><p>Create customized alerts.</p>"
        "<h3>Alert</h3><h4><div>Remove an alert</div><a href='#delete'>DELETE</a>"
        "<code>/v1/alert-settings/{id}</code></h4><p>Remove one.</p>"
    )
    operations = scrape(parse_html(html)).operations
    assert [(op.method, op.path) for op in operations] == [
        ("POST", "/v1/alert-settings"),
        ("DELETE", "/v1/alert-settings/{id}"),
    ]
    assert parse_named_signature("List pets GET /pets") == ("GET", "/pets", "List pets")
    # A request line alone is parse_signature's; prose with a lower-case verb is none.
    assert parse_named_signature("GET /pets") is None
    assert parse_named_signature("How to get /pets") is None


def test_a_uri_templates_query_expansion_names_query_parameters(tmp_path: Path) -> None:
    # RFC 6570 "{?tags*,limit}" (API Blueprint's URI templates): query names, not part of the path;
    # a name may be percent-encoded ("critics%2dpick" is "critics-pick").
    assert split_url("/v2/pets{?tags*,limit}") == ("", "/v2/pets", ["tags", "limit"])
    assert split_url("/reviews/search.json{?query,critics%2dpick}")[2] == ["query", "critics-pick"]
    long_line = "GET /discover{?" + ",".join(f"name_{k}" for k in range(60)) + "}"
    assert parse_signature(long_line) == ("GET", long_line[4:])  # a long list of names is no sentence
    doc = _crawl(
        tmp_path,
        "<h4><div>Search reviews</div><a>GET</a><code>/reviews/search.json{?query,critics%2dpick}</code></h4>"
        "<p>Search the reviews.</p>",
    )
    (operation,) = [op for item in doc["paths"].values() for op in item.values()]
    assert list(doc["paths"]) == ["/reviews/search.json"]
    assert {(p["name"], p["in"]) for p in operation["parameters"]} == {
        ("query", "query"),
        ("critics-pick", "query"),
    }


def test_a_name_shown_percent_encoded_occurs_in_the_page() -> None:
    words = PageWords("GET /search.json{?critics%2dpick}")
    assert "critics-pick" in words
    assert "critics-pickle" not in words


def test_a_body_under_a_response_run_is_the_responses() -> None:
    # aglio: "Response 201" is a run, then "Headers", "Body" and "Schema" headings: the body and its
    # schema are the response's, not a request body; under "Request" they are the request's.
    html = (
        "<h4>POST /alerts</h4><p>Create one.</p>"
        "<div><strong>Request</strong></div><h5>Headers</h5><pre><code>Accept: application/json</code></pre>"
        '<h5>Body</h5><pre><code>{"threshold": 1.5}</code></pre>'
        "<div><strong>Response <code>201</code></strong></div><p>Successfully created an alert.</p>"
        "<h5>Headers</h5><pre><code>Content-Type: application/json</code></pre>"
        '<h5>Body</h5><pre><code>{"alertId": "a1"}</code></pre>'
        '<h5>Schema</h5><pre><code>{"type": "object", "properties": {"alertId": {"type": "string"}}}</code></pre>'
    )
    (operation,) = scrape(parse_html(html)).operations
    assert operation.request_examples == [{"threshold": 1.5}]
    assert operation.response_examples == {"201": [{"alertId": "a1"}]}
    assert {status: [row.name for row in rows] for status, rows in operation.response_fields.items()} == {
        "201": ["alertId"]
    }
    assert [row.name for _, row in operation.params] == []


def test_a_definition_term_whose_description_leads_with_its_type_is_a_field() -> None:
    # aglio's "URI Parameters": <dt>id</dt><dd><code>string</code> (required) <p>description</p></dd>;
    # a short run after it ("Response 200") is the page's again, not the field's description.
    html = (
        "<div><strong>URI Parameters</strong></div><dl><dt>id</dt><dd><code>string</code> "
        "<span>(required)</span> <p>Unique identifier of the alert.</p></dd>"
        "<dt>limit</dt><dd><code>number</code> <span>(optional)</span> <p>How many to return.</p></dd></dl>"
        "<div><strong>Response <code>200</code></strong></div><h5>Body</h5>"
    )
    blocks = field_runs(parse_html(html).blocks)
    assert [b.rows for b in blocks if b.kind == "table"] == [
        [
            _HEADER,
            ["id", "", "string", "true", "Unique identifier of the alert."],
            ["limit", "", "number", "false", "How many to return."],
        ]
    ]
    assert "Response 200" in [b.text for b in blocks if b.kind == "text"]


def test_aglio_page_gives_operations_parameters_bodies_and_responses() -> None:
    result = crawl_pages([PAGES / "aglio" / "socbench-01-energy-01-Energy.html"])
    doc = result.document
    assert result.findings == []
    assert doc["servers"][0]["url"] == "https://api.energyinsights.com"
    assert sum(len(item) for item in doc["paths"].values()) == 10
    alerts = doc["paths"]["/v1/alert-settings"]["post"]
    assert alerts["summary"] == "Create custom energy alerts"
    body = alerts["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"notificationType", "sector", "threshold"}
    created = alerts["responses"]["201"]["content"]["application/json"]["schema"]
    assert set(created["properties"]) == {"alertId", "message"}
    removed = doc["paths"]["/v1/alert-settings/{id}"]["delete"]
    assert [(p["name"], p["in"], p["required"]) for p in removed["parameters"]] == [("id", "path", True)]


def test_a_method_and_a_url_drawn_in_pieces_is_one_request_line() -> None:
    # aglio's "Example URI": host, path, a parameter's example value and query names in elements of
    # their own, so the page's text has spaces between them.
    assert parse_signature("DELETE https://api.example.com /v1/alerts/ id") == (
        "DELETE",
        "https://api.example.com/v1/alerts/id",
    )
    assert parse_signature("GET https://api.example.com /v1/alerts? page= & limit=") == (
        "GET",
        "https://api.example.com/v1/alerts?page=&limit=",
    )
    # A sentence after a URL is never taken in.
    assert parse_signature("GET https://api.example.com returns the alerts") is None
    assert parse_signature("GET https://api.example.com /v1/alerts returns them") is None


def test_a_json_schema_blocks_own_definitions_resolve_its_references() -> None:
    # aglio shows each response's JSON Schema with the definitions it uses inside the same block.
    schema = (
        '{"type": "object", "properties": {"results": {"type": "array", "items": '
        '{"$ref": "#/definitions/movie"}}}, "definitions": {"movie": {"type": "object", "properties": '
        '{"vote_average": {"type": "number"}, "next": {"$ref": "#/definitions/movie"}}}}}'
    )
    html = (
        "<h4>GET /movies</h4><div><strong>Response <code>200</code></strong></div>"
        f"<h5>Schema</h5><pre><code>{schema}</code></pre>"
    )
    (operation,) = scrape(parse_html(html)).operations
    rows = [(row.name, row.type, row.depth) for row in operation.response_fields["200"]]
    assert ("vote_average", "number", 1) in rows
    assert ("results", "array", 0) in rows
    # The cyclic "next" stays a reference (an object), its fields not read again below it.
    assert [row for row in rows if row[0] == "next"] == [("next", "object", 1)]
    assert max(depth for _, _, depth in rows) == 1


def test_a_table_of_terms_inside_an_outline_schema_holds_the_fields_of_the_term_above() -> None:
    # bootprint: the innermost definition list (empty descriptions) is drawn as a table of terms.
    def term(name: str, type_: str, inner: str = "<div> </div>") -> str:
        return f"<dt> <span>{name}:</span> <span>{type_}</span> <span></span> </dt> <dd> {inner} </dd>"

    inner = "<div> <section> <span>object</span> <span></span> <div> <section> <dl>"
    inner += term("created_at", "number") + term("id", "string") + "</dl> </section> </div> </section> </div>"
    html = (
        "<div> <h3><a></a>updates-array: <span> <span>object</span> </span> </h3> </div>"
        f"<div> <section> <dl> {term('total', 'number')} {term('updates', 'object[]', inner)} </dl> </section> </div>"
    )
    sections = schema_sections(parse_html(html).blocks, set())
    assert [(row.name, row.depth, row.type) for row in sections["updates-array"]] == [
        ("total", 0, "number"),
        ("updates", 0, "array"),
        ("created_at", 1, "number"),
        ("id", 1, "string"),
    ]


def test_a_link_alone_under_an_operations_term_names_that_fields_schema(tmp_path: Path) -> None:
    # bootprint: "200 OK", "artists: object[]", then a link alone to the item's schema section.
    html = (
        "<h3>GET /artists/{id}/related-artists</h3><dl><dt> 200 OK </dt> <dd> <div> <p>A set of artists</p>"
        " </div> <div> <section> <dl> <dt> <span>artists:</span> <span>object[]</span> <span></span> </dt>"
        " <dd> <div> <section> <span> <a href='#/definitions/ArtistObject'>ArtistObject</a> </span>"
        " <span></span> <div> </div> </section> </div> </dd> </dl> </section> </div> </dd> </dl>"
        "<div> <h3><a></a>ArtistObject: <span> <span>object</span> </span> </h3> </div>"
        "<div> <section> <dl> <dt> <span>name:</span> <span>string</span> </dt> <dd> <p>The name.</p> </dd>"
        " <dt> <span>popularity:</span> <span>integer</span> </dt> <dd> <p>From 0 to 100.</p> </dd> </dl>"
        " </section> </div>"
    )
    doc = _crawl(tmp_path, html)
    response = doc["paths"]["/artists/{id}/related-artists"]["get"]["responses"]["200"]
    artists = response["content"]["application/json"]["schema"]["properties"]["artists"]
    assert set(artists["items"]["properties"]) == {"name", "popularity"}


def test_a_field_named_items_beside_fields_of_its_level_is_a_property(tmp_path: Path) -> None:
    # A paging object: "items" next to "total" and "next" is a property, not an array's item wrapper.
    html = (
        "<h3>GET /me/albums</h3><h4>Response 200</h4><table><tr><th>Name</th><th>Type</th></tr>"
        "<tr><td>total</td><td>integer</td></tr><tr><td>items</td><td>array</td></tr>"
        "<tr><td>» album_id</td><td>string</td></tr><tr><td>next</td><td>string</td></tr></table>"
    )
    doc = _crawl(tmp_path, html)
    schema = doc["paths"]["/me/albums"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"total", "items", "next"}
    assert set(schema["properties"]["items"]["items"]["properties"]) == {"album_id"}


def test_a_term_typed_by_a_schema_name_takes_that_schemas_fields(tmp_path: Path) -> None:
    # bootprint: "tracks: PagingTrackObject", a term whose type is a page schema's name, not a type word.
    def section(name: str, terms: str) -> str:
        heading = f"<div> <h3><a></a>{name}: <span> <span>object</span> </span> </h3> </div>"
        return f"{heading}<div> <section> <dl> {terms} </dl> </section> </div>"

    def term(name: str, type_: str) -> str:
        return f"<dt> <span>{name}:</span> <span>{type_}</span> </dt> <dd> <p>The {name}.</p> </dd>"

    html = (
        "<h3>GET /albums/{id}</h3><dl><dt> 200 OK </dt> <dd> <div> <p>An album</p> </div>"
        " <span> <a href='#/definitions/AlbumObject'>AlbumObject</a> </span> </dd> </dl>"
        + section("AlbumObject", term("name", "string") + term("tracks", "PagingTrackObject"))
        + section("PagingTrackObject", term("total", "integer") + term("next", "string"))
    )
    doc = _crawl(tmp_path, html)
    schema = doc["paths"]["/albums/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]["tracks"]["properties"]) == {"total", "next"}
