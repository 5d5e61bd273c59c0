"""Issue 17's sixth round: general rules after openapi2html's first contact, each on a small fragment
(each fails without its rule), and the real openapi2html page they came from."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.scrape import scrape
from openapi_rag.crawl.servers import stated_servers
from tests.crawl.conftest import PAGES

_HEADER = ["name", "in", "type", "required", "description"]


def _tables(html: str) -> list[list[list[str]]]:
    return [b.rows for b in field_runs(parse_html(html).blocks) if b.kind == "table"]


def test_a_heading_that_names_a_field_then_states_its_type_is_a_field() -> None:
    # openapi2html: each parameter a heading "id (path) required", its description, "Type integer , format int64".
    html = (
        "<h4>Request Parameters</h4><h5>id (path) <span>required</span></h5><p>ID of pet to fetch</p>"
        "<div>Type <code>integer</code><span>, format <code>int64</code></span></div>"
        "<h5>tags (query)</h5><p>tags to filter by</p><div>Type <code>array</code></div>"
        "<div>Item type <code>string</code></div><h4>Responses</h4>"
    )
    assert _tables(html) == [
        [
            _HEADER,
            ["id", "path", "integer", "true", "ID of pet to fetch"],
            ["tags", "query", "array", "", "tags to filter by"],
        ]
    ]


def test_a_heading_over_deeper_headings_or_without_a_type_is_no_field() -> None:
    # A schema section ("Error", its type, then "Properties") heads fields; it is none itself.
    section = "<h3>Error</h3><div>Type object</div><h4>Properties</h4><h5>code</h5><div>Type integer</div>"
    assert _tables(section) == [[_HEADER, ["code", "", "integer", "", ""]]]
    # A heading and prose, no type stated: a section of text.
    assert _tables("<h5>Overview</h5><p>What the API does.</p><h5>Limits</h5><p>Ten a second.</p>") == []
    # A status heading "default" then its schema's type heads a response, not a field "default".
    assert _tables("<h5>default</h5><p>unexpected error</p><div>Type object</div><h5>200</h5>") == []


def test_a_table_of_host_base_path_and_schemes_states_the_server() -> None:
    # Swagger 2's own terms as key/value rows (a definition list here).
    html = (
        "<dl><dt>Version</dt><dd>1.0</dd><dt>Host</dt><dd>api.example.com</dd><dt>Base path</dt><dd>/v2</dd>"
        "<dt>Schemes</dt><dd>http</dd></dl><h2>Paths</h2>"
    )
    assert stated_servers(parse_html(html).blocks, set()) == ["http://api.example.com/v2"]
    # Without a host name it states nothing ("Host" of a hotel, say).
    assert (
        stated_servers(
            parse_html(
                "<dl><dt>Host</dt><dd>Alice</dd><dt>Base path</dt><dd>/v2</dd></dl><h2>Paths</h2>"
            ).blocks,
            set(),
        )
        == []
    )


def test_properties_under_a_status_take_the_status_from_the_heading_before() -> None:
    # "Responses" > "201" > its type, then "Properties" one level up: the fields are the 201 response's.
    html = (
        "<h3>POST /alerts</h3><h4>Request Body</h4><div>Type object</div><h4>Properties</h4>"
        "<h5>threshold required</h5><p>When to alert.</p><div>Type number</div>"
        "<h4>Responses</h4><h5>201</h5><p>Created.</p><div>Type object</div><h4>Properties</h4>"
        "<h5>alertId</h5><p>Its id.</p><div>Type string</div>"
    )
    (operation,) = scrape(parse_html(html)).operations
    assert [(kind, row.name) for kind, row in operation.params] == [("body", "threshold")]
    assert {status: [row.name for row in rows] for status, rows in operation.response_fields.items()} == {
        "201": ["alertId"]
    }


def test_a_link_in_a_short_run_under_a_2xx_status_names_the_response_schema(tmp_path: Path) -> None:
    html = (
        "<h3>GET /pets/{id}</h3><h4>Responses</h4><h5>200</h5><p>pet response</p>"
        "<div>Type <a href='#/definitions/Pet'>Pet</a></div>"
        "<h2>Schema definitions</h2><h3>Pet</h3><div>Type object</div><h4>Properties</h4>"
        "<h5>name required</h5><div>Type string</div><h5>tag</h5><div>Type string</div>"
    )
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    response = crawl_pages([page]).document["paths"]["/pets/{id}"]["get"]["responses"]["200"]
    assert set(response["content"]["application/json"]["schema"]["properties"]) == {"name", "tag"}


def test_openapi2html_page_gives_server_parameters_body_and_responses() -> None:
    result = crawl_pages([PAGES / "openapi2html" / "socbench-01-energy-01-Energy.html"])
    doc = result.document
    assert result.findings == []
    assert doc["servers"][0]["url"].endswith("/v1")
    alerts = doc["paths"]["/alert-settings"]["post"]
    body = alerts["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"notificationType", "sector", "threshold"}
    assert set(body["required"]) == {"notificationType", "threshold"}
    created = alerts["responses"]["201"]["content"]["application/json"]["schema"]
    assert set(created["properties"]) == {"alertId", "message"}


def test_a_field_heading_with_a_place_may_be_named_like_a_type_and_leave_its_type_out() -> None:
    # "date (query)": a type word, but the place makes it a field; "Type" alone or "Type Pet" (a schema
    # the page links) still says the run is the field's type.
    html = (
        "<h5>date (query)</h5><p>YYYY-MM-DD</p><div>Type string</div>"
        "<h5>external_ids</h5><p>Known external IDs.</p><div>Type</div>"
        "<h5>owner required</h5><div>Type <a href='#/definitions/User'>User</a></div><h4>Responses</h4>"
    )
    assert _tables(html) == [
        [
            _HEADER,
            ["date", "query", "string", "", "YYYY-MM-DD"],
            ["external_ids", "", "", "", "Known external IDs."],
            ["owner", "", "object", "true", ""],
        ]
    ]
    # "Type" among column labels is no field's type.
    assert _tables("<h5>Parameters</h5><div>Name</div><div>Type</div><div>Description</div><h5>x</h5>") == []


def test_a_one_word_sentence_is_no_field_name() -> None:
    # "201", its description "Created.", then the body's "Type object": no field named "Created.".
    assert _tables("<h5>201</h5><p>Created.</p><div>Type object</div><h4>Properties</h4>") == []


def test_a_heading_naming_a_path_under_another_word_starts_the_next_part() -> None:
    # openapi2html: "PARAMETERS /lists/{date}" heads what a path's operations share; the operation
    # before it keeps its own label headings and fields.
    html = (
        "<h3>PARAMETERS /lists</h3><h6></h6><h3>GET /lists</h3><h6>Best Seller List</h6>"
        "<h4>Request Parameters</h4><h5>rank (query)</h5><p>The rank.</p><div>Type integer</div>"
        "<h3>PARAMETERS /reviews</h3><h6></h6><h3>GET /reviews</h3><h6>Reviews</h6>"
        "<h4>Request Parameters</h4><h5>isbn (query)</h5><p>The ISBN.</p><div>Type string</div>"
    )
    operations = scrape(parse_html(html)).operations
    assert {op.path: [row.name for _, row in op.params] for op in operations} == {
        "/lists": ["rank"],
        "/reviews": ["isbn"],
    }


def test_a_field_headings_type_link_names_its_schema_unless_that_schema_is_a_scalar() -> None:
    # "Item type ImageObject" links a schema of fields; "Type image-path" one whose section says "Type string".
    html = (
        "<h5>images</h5><p>The cover art.</p><div>Type array</div>"
        "<div>Item type <a href='#/definitions/ImageObject'>ImageObject</a></div>"
        "<h5>profile_path</h5><div>Type <a href='#/definitions/image-path'>image-path</a></div><h4>Responses</h4>"
        "<h3>image-path</h3><div>Type string</div><h3>ImageObject</h3><div>Type object</div>"
    )
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[:3] for row in table.rows[1:]] == [["images", "", "array"], ["profile_path", "", "string"]]
    assert [links[2] for links in table.cell_links[1:]] == ["ImageObject", ""]
