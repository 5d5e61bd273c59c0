"""Issue 17's fifth round: general rules after spectacle's first contact, each on a small fragment
(each fails without its rule), and the real spectacle page they came from."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.example_schema import schema_from_example
from openapi_rag.crawl.labels import lists_scopes
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.scrape import scrape
from openapi_rag.crawl.servers import stated_servers
from openapi_rag.crawl.tables import field_rows
from tests.crawl.conftest import PAGES

_HEADER = ["name", "in", "type", "required", "description"]


def _tables(html: str) -> list[list[list[str]]]:
    return [b.rows for b in field_runs(parse_html(html).blocks) if b.kind == "table"]


def test_a_name_and_type_run_then_an_in_run_is_a_field() -> None:
    # "page: integer" states name and type in one run, "in query" its place, as OpenAPI's `in` says it.
    html = (
        "<h2>GET /pets</h2><div>page: <span>integer</span></div><div>in query</div>"
        "<p>Which page of results.</p><div>since: string (date)</div><div>in query</div><p>Only newer.</p>"
        "<div>Enabled: boolean</div><div>in formData</div><p>Turn it on.</p><div>200 OK</div>"
    )
    assert _tables(html) == [
        [
            _HEADER,
            ["page", "query", "integer", "", "Which page of results."],
            ["since", "query", "string", "", "Only newer."],
            ["Enabled", "formData", "boolean", "", "Turn it on."],
        ]
    ]


def test_a_name_and_type_run_alone_stays_text() -> None:
    # Without a run stating the place, "Version: 1" or "status: string" is no parameter.
    blocks = field_runs(parse_html("<div>status: string</div><p>The state of the order.</p>").blocks)
    assert [b.kind for b in blocks] == ["text", "text"]


def test_type_object_is_a_schema_keyword_not_a_field() -> None:
    # An inline response schema drawn as "type" / "object": JSON Schema's keyword, not a field "type".
    html = "<div>200 OK</div><p>Done.</p><div>type</div><div>object</div><h5>Response Example</h5>"
    assert _tables(html) == []
    assert _tables(html.replace("<div>object</div>", "<div>object[]</div>")) == []
    # A field named "type" with a scalar type stays a field.
    assert _tables("<div>type</div><div>Type: string</div><p>The kind of pet.</p>") == [
        [_HEADER, ["type", "", "string", "", "The kind of pet."]]
    ]


def test_form_data_in_an_in_column_is_a_body_field_whatever_its_case() -> None:
    rows = [["Name", "In", "Type"], ["Enabled", "formData", "boolean"], ["Page", "QUERY", "integer"]]
    assert [(r.name, r.location) for r in field_rows(rows, True)] == [
        ("Enabled", "formData"),
        ("Page", "query"),
    ]


def test_an_example_of_type_names_is_a_sketch_of_the_schema() -> None:
    sketch = {"total": "number", "updates": [{"id": "integer", "at": "string (date-time)", "meta": "object"}]}
    schema = schema_from_example(sketch, {})
    item = schema["properties"]["updates"]["items"]["properties"]
    assert schema["properties"]["total"] == {"type": "number"}
    assert (item["id"]["type"], item["at"]["type"], item["meta"]["type"]) == ("integer", "string", "object")
    # Data with one real string is data: "number" there is a value, not a type.
    mixed = schema_from_example({"kind": "number", "name": "Rex"}, {})
    assert mixed["properties"]["kind"] == {"type": "string"}


def test_a_url_alone_in_a_code_block_under_an_endpoint_label_is_the_server() -> None:
    code = "<pre><code>https://api.example.com/1/</code></pre><h5>Version: 1</h5>"
    assert stated_servers(parse_html("<h5>API Endpoint</h5>" + code).blocks, set()) == [
        "https://api.example.com/1"
    ]
    # The same block under other words is an example, not the server.
    assert stated_servers(parse_html("<h5>Request Example</h5>" + code).blocks, set()) == []


def test_spectacle_page_gives_its_server_query_parameters_and_sketched_types() -> None:
    result = crawl_pages([PAGES / "spectacle" / "realworld-bufferapp-com-1-swagger.html"])
    doc = result.document
    assert result.findings == []
    assert doc["servers"] == [{"url": "https://api.bufferapp.com/1"}]
    pending = doc["paths"]["/profiles/{id}/updates/pending{mediaTypeExtension}"]["get"]
    query = {p["name"]: p["schema"]["type"] for p in pending["parameters"] if p["in"] == "query"}
    assert query == {"page": "integer", "count": "integer", "since": "string", "utc": "boolean"}
    body = pending["responses"]["200"]["content"]["application/json"]["schema"]
    assert body["properties"]["total"]["type"] == "number"  # the example shows "total": "number"


def test_a_description_led_by_a_type_states_it_where_no_column_does() -> None:
    # openapi-generator's html2: "Name | Description" tables, the type printed first in the description.
    rows = [
        ["Name", "Description"],
        ["id*", "Long (int64) ID of pet to fetch Required"],
        ["tags", "array[String] tags to filter by"],
        ["url", "String URL-encoded URL of the page."],
        ["count", "Number of items to return"],  # prose: "Number" with no format after it
    ]
    assert [(r.name, r.type) for r in field_rows(rows, True)] == [
        ("id", "integer"),
        ("tags", "array"),
        ("url", "string"),
        ("count", None),
    ]


def test_a_trailing_link_to_elsewhere_on_the_page_is_no_part_of_a_heading() -> None:
    html = (
        '<h3><a><code>NewPet</code> - </a> <a href="#__Models">Up</a></h3><p>x</p>'
        '<h2 id="p"><a href="#p">GET /pets</a></h2><h2>Pets<a href="#pets">¶</a></h2>'
    )
    assert [b.text for b in parse_html(html).blocks if b.kind == "heading"] == ["NewPet", "GET /pets", "Pets"]


def test_a_link_under_a_request_body_label_names_the_body_schema(tmp_path: Path) -> None:
    # openapi-generator's html: "Request body" then "NewPet NewPet (required)" linking to the model.
    html = (
        "<h1>Methods</h1><pre>post /pets</pre><h3>Request body</h3><p><a href='#NewPet'>NewPet</a> NewPet (required)</p>"
        "<h3>Responses</h3><h4>200</h4><p>pet response</p>"
        "<h1>Models</h1><h3><a>NewPet - </a> <a href='#__Models'>Up</a></h3>"
        "<table><tr><th>Name</th><th>Type</th></tr><tr><td>name</td><td>string</td></tr>"
        "<tr><td>tag</td><td>string</td></tr></table>"
    )
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    body = crawl_pages([page]).document["paths"]["/pets"]["post"]["requestBody"]
    assert set(body["content"]["application/json"]["schema"]["properties"]) == {"name", "tag"}


def test_a_stated_integer_never_retypes_a_literal_with_a_fraction() -> None:
    # TMDB: one model states vote_average as an integer, the example shows 7.5 (a number).
    schema = schema_from_example({"vote_average": 7.5, "width": "300", "ratio": 0}, {
        "vote_average": "integer", "width": "integer", "ratio": "number"
    })  # fmt: skip
    types = {name: child["type"] for name, child in schema["properties"].items()}
    assert types == {"vote_average": "number", "width": "integer", "ratio": "number"}


def test_a_table_of_scopes_lists_no_parameters(tmp_path: Path) -> None:
    # openapi-generator html2: an operation's OAuth scopes in a table under "Scopes".
    page = tmp_path / "api.html"
    page.write_text(
        '<h1>getTop</h1><pre>curl -X GET "https://api.example.com/v1/me/top?limit=5"</pre>'
        "<h2>Scopes</h2><table><tr><td>user-top-read</td><td>Read your top artists and content.</td></tr></table>"
        "<h2>Parameters</h2><p>Query parameters</p><table><tr><th>Name</th><th>Description</th></tr>"
        "<tr><td>limit</td><td>Integer How many.</td></tr></table>",
        encoding="utf-8",
    )
    operation = crawl_pages([page]).document["paths"]["/v1/me/top"]["get"]
    assert [p["name"] for p in operation["parameters"]] == ["limit"]


def test_outline_terms_before_any_response_of_a_post_are_its_body() -> None:
    # bootprint: a POST's body fields as "name: type" terms right under its description, no label.
    html = (
        "<h3>POST /alerts</h3><p>Create an alert.</p><dl><dt>threshold: number</dt><dd><p>When to alert.</p></dd>"
        "<dt>sector: string</dt><dd><p>Which sector.</p></dd></dl>"
        "<dl><dt>201 Created</dt><dd><p>Created.</p><dl><dt>alertId: string</dt><dd><p>Its id.</p></dd></dl></dd></dl>"
    )
    (operation,) = scrape(parse_html(html)).operations
    assert [(kind, row.name) for kind, row in operation.params] == [("body", "threshold"), ("body", "sector")]
    assert [row.name for rows in operation.response_fields.values() for row in rows] == ["alertId"]


def test_only_a_label_introduces_scopes_not_a_sentence_about_them() -> None:
    assert lists_scopes("scopes") and lists_scopes("required oauth scopes:")
    assert not lists_scopes("the scopes the token is asked for. | post /token")
