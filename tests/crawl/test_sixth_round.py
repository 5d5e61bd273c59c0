"""Issue 17's sixth round: general rules after openapi2html's first contact, each on a small fragment
(each fails without its rule), and the real openapi2html page they came from."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.scrape import scrape
from openapi_rag.crawl.servers import stated_servers
from openapi_rag.crawl.tables import field_rows
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


def test_a_model_drawn_as_names_then_runs_led_by_their_types_is_a_field_table() -> None:
    # openapi-generator's html models: "threshold" (required: left bare), its type leading its
    # description and linking to the type's docs; "sector (optional)" marked.
    html = (
        "<h3>_alert_settings_post_request</h3><div>threshold</div>"
        "<div><a href='#number'>BigDecimal</a> Threshold that triggers the alert.</div>"
        "<div>sector (optional)</div><div><a href='#string'>String</a> Sector for which the alert is created.</div>"
        "<div>parameters (optional)</div><div>Object Additional parameters.</div><h3>Next</h3>"
    )
    assert [row[:4] for row in _tables(html)[0][1:]] == [
        ["threshold", "", "number", "true"],
        ["sector", "", "string", "false"],
        ["parameters", "", "object", "false"],
    ]
    # A bare name then prose led by a type word, no link: text, as before.
    assert _tables("<h4>Summary</h4><div>Trimming</div><div>String values are trimmed.</div><h4>x</h4>") == []


def test_a_long_linked_body_name_shown_twice_is_no_prose(tmp_path: Path) -> None:
    html = (
        "<h1>Methods</h1><pre>put /update-data</pre><h3>Request body</h3>"
        "<p><a href='#_update_data_put_request'>_update_data_put_request</a> _update_data_put_request (required)</p>"
        "<h3>Responses</h3><h4>200</h4><p>Updated.</p>"
        "<h1>Models</h1><h3>_update_data_put_request</h3><div>usage (optional)</div>"
        "<div><a href='#number'>BigDecimal</a> Energy usage reading.</div>"
    )
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    body = crawl_pages([page]).document["paths"]["/update-data"]["put"]["requestBody"]
    assert set(body["content"]["application/json"]["schema"]["properties"]) == {"usage"}


def test_a_bracketed_type_beside_enum_values_is_one_of_them() -> None:
    rows = [
        ["Field Name", "Required", "Type", "Description", "Format"],
        ["album_type", "X", "[String]", "The type of the album.", "Enum: album, single, compilation,"],
        ["markets", "X", "List of [string]", "The markets.", ""],
        ["tags", "", "[String]", "Its tags.", ""],
    ]
    assert [(r.name, r.type) for r in field_rows(rows, True)] == [
        ("album_type", "string"),
        ("markets", "array"),
        ("tags", "array"),
    ]


def test_a_status_tables_schema_named_as_an_anchor_finds_its_renamed_section(tmp_path: Path) -> None:
    # asciidoc: the Datatype cell "[_forecast_get_200_response]", the model section "2.1. ForecastGet200Response".
    html = (
        "<h4>1.1.1. forecastGet</h4><p>GET /forecast</p><h5>Responses</h5>"
        "<table><thead><tr><th>Code</th><th>Message</th><th>Datatype</th></tr></thead>"
        "<tr><td>200</td><td>The forecast.</td><td>[_forecast_get_200_response]</td></tr></table>"
        "<h2>2. Models</h2><h3>2.1. ForecastGet200Response</h3>"
        "<table><thead><tr><th>Field Name</th><th>Required</th><th>Type</th><th>Description</th></tr></thead>"
        "<tr><td>forecastPeriod</td><td></td><td>String</td><td>The period.</td></tr></table>"
    )
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    response = crawl_pages([page]).document["paths"]["/forecast"]["get"]["responses"]["200"]
    assert set(response["content"]["application/json"]["schema"]["properties"]) == {"forecastPeriod"}


def test_a_sentence_naming_the_base_uri_states_the_server() -> None:
    html = (
        "<p>Spotify Web API. The base URI for all Web API requests is "
        "<code><a href='https://api.spotify.com/v1'>https://api.spotify.com/v1</a></code>. Need help?</p><h2>Endpoints</h2>"
    )
    assert stated_servers(parse_html(html).blocks, set()) == ["https://api.spotify.com/v1"]
    assert stated_servers(parse_html("<p>The base URI changes every year.</p><h2>x</h2>").blocks, set()) == []


def test_a_page_that_marks_optional_fields_leaves_required_ones_bare() -> None:
    # A model whose every field is required, on a page that marks optional ones elsewhere.
    html = (
        "<h3>Query</h3><div>limit (optional)</div><div>Query Parameter — How many.</div>"
        "<h3>NewPet</h3><div>name</div><div><a href='#string'>String</a> Its name.</div>"
        "<div>tag</div><div><a href='#string'>String</a> Its tag.</div><h3>End</h3>"
    )
    assert [[row[0], row[3]] for table in _tables(html) for row in table[1:]] == [
        ["limit", "false"],
        ["name", "true"],
        ["tag", "true"],
    ]


def test_a_status_word_then_a_linked_schema_name_is_no_field() -> None:
    # bootprint: "200 OK", then "OK", then "updates-array" linking to its schema: not a field "OK".
    assert (
        _tables(
            "<h6>200 OK</h6><div>OK</div><div><a href='#updates-array'>updates-array</a></div><h6>400</h6>"
        )
        == []
    )


def test_form_parameters_are_the_bodys_fields(tmp_path: Path) -> None:
    # openapi-generator html2: a "Form parameters" table of a POST.
    page = tmp_path / "api.html"
    page.write_text(
        '<h1>createJob</h1><pre>curl -X POST "https://api.example.com/v1/Jobs"</pre><h2>Parameters</h2>'
        "<p>Form parameters</p><table><tr><th>Name</th><th>Description</th></tr>"
        "<tr><td>FriendlyName*</td><td>String The job's name Required</td></tr></table><h2>Responses</h2>",
        encoding="utf-8",
    )
    operation = crawl_pages([page]).document["paths"]["/v1/Jobs"]["post"]
    assert "parameters" not in operation
    schema = next(iter(operation["requestBody"]["content"].values()))["schema"]
    assert list(schema["properties"]) == ["FriendlyName"]


def test_a_label_heading_under_an_empty_subtitle_is_no_summary() -> None:
    # openapi2html: "GET /pets", an empty h6 where the summary goes, then "Request Parameters".
    html = (
        "<h3>GET /pets</h3><h6></h6><p>Returns all pets.</p><h4>Request Parameters</h4>"
        "<h5>limit (query)</h5><div>Type integer</div><h3>GET /stores</h3><h6>List stores</h6><h4>Responses</h4>"
    )
    titles = {op.path: op.title for op in scrape(parse_html(html)).operations}
    assert titles == {"/pets": "", "/stores": "List stores"}


def test_a_marked_name_then_a_run_led_by_a_linked_schema_is_a_field_of_that_schema() -> None:
    # openapi-generator's html models: "followers (optional)", then its type printed as a link to the
    # model, then the description.
    html = (
        "<h3>ArtistObject</h3><div>followers (optional)</div>"
        "<div><a href='#FollowersObject'>FollowersObject</a> Information about the followers.</div>"
        "<div>images (optional)</div><div>array[<a href='#ImageObject'>ImageObject</a>] Its images.</div>"
        "<div>OK</div><div><a href='#updates-array'>updates-array</a></div><h3>Next</h3>"
    )
    (table,) = [b for b in field_runs(parse_html(html).blocks) if b.kind == "table"]
    assert [row[:3] for row in table.rows[1:]] == [["followers", "", "object"], ["images", "", "array"]]
    assert [links[2] for links in table.cell_links[1:]] == ["FollowersObject", "ImageObject"]


def test_a_format_that_openapi_defines_names_the_type_where_nothing_else_does() -> None:
    html = (
        "<h3>Path parameters</h3><div>id (required)</div><div>Path Parameter — ID of pet default: null format: int64</div>"
        "<div>ratio (optional)</div><div>Query Parameter — How much. format: double</div>"
        "<div>page (optional)</div><div>Query Parameter — Which page. default: null</div><h3>Return type</h3>"
    )
    assert [row[:3] for row in _tables(html)[0][1:]] == [
        ["id", "path", "integer"],
        ["ratio", "query", "number"],
        ["page", "query", ""],
    ]


def test_a_link_alone_before_a_schema_sections_fields_takes_that_schema_in_whole() -> None:
    # bootprint: "Pet:" (allOf NewPet and its own id) draws a link "NewPet", then its own table.
    html = (
        "<h2>Schema definitions</h2><h3>NewPet: object</h3><table><tr><td>name: string</td><td></td></tr>"
        "<tr><td>tag: string</td><td></td></tr></table>"
        "<h3>Pet:</h3><div><a href='#/definitions/NewPet'>NewPet</a></div>"
        "<table><tr><td>id: integer (int64)</td><td></td></tr></table>"
    )
    schemas = scrape(parse_html(html)).schemas
    assert [row.name for row in schemas["Pet"]] == ["name", "tag", "id"]
    assert [row.name for row in schemas["NewPet"]] == ["name", "tag"]
