"""Issue 17's ninth round: general rules after Docusaurus' first contact (docusaurus-plugin-openapi-docs:
each field one run, "name string required", under "Query Parameters" or "Body"; responses as a strip of
status tabs, then one panel per tab, each a description, a schema tree and its example), each on a small
fragment of the structure it draws (each fails without its rule), and the real Docusaurus pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.inline_fields import inline_field
from openapi_rag.crawl.samples import documented_colons


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, type_: str, *marks: str, description: str = "") -> str:
    """One field as the plugin's schema tree draws it: the name in bold, its type and marks beside it."""
    shown = "".join(f"<span>{mark}</span>" for mark in marks)
    about = f"<div><p>{description}</p></div>" if description else ""
    return f"<div><span><strong>{name}</strong><span> {type_}</span>{shown}</span>{about}</div>"


def _panel(description: str, fields: str, example: str) -> str:
    """One status tab's panel: its description, media type, the Schema / Example tabs, fields, example."""
    return (
        f"<div><p>{description}</p></div><ul><li>application/json</li></ul>"
        "<ul><li><span>Schema</span></li><li><span>Example (from schema)</span></li></ul>"
        f"<details><summary><strong><p>Schema</p></strong></summary><ul>{fields}</ul></details>"
        f"<pre><code>{example}</code></pre>"
    )


def _operation(method: str, path: str, request: str, statuses: list[str], panels: str) -> str:
    tabs = "".join(f"<li>{status}</li>" for status in statuses)
    return (
        f"<article><h1>Call {path}</h1><pre><span>{method}</span> <h2>{path}</h2></pre>"
        f"<p>Does what {path} does.</p><h2>Request</h2>{request}"
        f"<h2>Responses</h2><ul>{tabs}</ul>{panels}</article>"
    )


def test_a_field_drawn_in_one_run_gives_its_name_type_and_marks(tmp_path: Path) -> None:
    request = (
        "<details><summary><h3></h3><p>Query Parameters</p></summary><ul>"
        + _field("tags", "string[]", description="tags to filter by")
        + _field("limit", "int32", "required", description="maximum number of results to return")
        + "</ul></details>"
    )
    panels = _panel("pet response", _field("id", "int64", "required") + _field("name", "string"),
                    '{"id": 1, "name": "Rex"}')  # fmt: skip
    doc = _crawl(tmp_path, _operation("GET", "/pets", request, ["200"], panels))
    operation = doc["paths"]["/pets"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert params["tags"]["in"] == "query" and params["tags"]["schema"]["type"] == "array"
    assert params["limit"]["schema"]["type"] == "integer" and params["limit"]["required"] is True
    assert params["tags"]["description"] == "tags to filter by"
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["id"]["type"] == "integer"


def test_a_body_drawn_in_one_run_fields_is_the_request_body(tmp_path: Path) -> None:
    request = (
        "<ul><li>application/json</li></ul><details><summary><h3></h3><p>Body</p><strong><p>required</p>"
        "</strong></summary><div><p>Pet to add to the store</p></div><ul>"
        + _field("name", "string", "required")
        + _field("owner", "image-path (string)", "nullable")
        + "</ul></details>"
    )
    doc = _crawl(tmp_path, _operation("POST", "/pets", request, ["201"], _panel("Created", "", "{}")))
    schema = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "owner"}
    assert schema["properties"]["owner"]["type"] == "string" and schema["required"] == ["name"]


def test_each_panel_after_a_strip_of_status_tabs_is_its_own_tabs(tmp_path: Path) -> None:
    # "200", "429", then the 200 panel, then the 429 panel: the strip's last tab, the nearest status
    # before the first panel, is not the first panel's status, and each example goes with its panel.
    panels = _panel("An album", _field("album_type", "string") + _field("total_tracks", "integer"),
                    '{"album_type": "single", "total_tracks": 9}')  # fmt: skip
    panels += _panel("Too many requests", _field("message", "string"), '{"message": "slow down"}')
    doc = _crawl(tmp_path, _operation("GET", "/albums/{id}", "", ["200", "429"], panels))
    responses = doc["paths"]["/albums/{id}"]["get"]["responses"]
    ok = responses["200"]["content"]["application/json"]["schema"]
    assert set(ok["properties"]) == {"album_type", "total_tracks"}
    limited = responses["429"]["content"]["application/json"]["schema"]
    assert set(limited["properties"]) == {"message"}


def test_a_run_that_opens_a_list_types_nothing(tmp_path: Path) -> None:
    # "Schema" then "Array [": a label and the opening of a list drawn over the runs below, no field.
    fields = "<li><div><p>Array [</p></div></li>" + _field("name", "string", "required") + "<li><p>]</p></li>"
    panels = _panel("pet response", fields, '[{"name": "Rex"}]')
    doc = _crawl(tmp_path, _operation("GET", "/pets", "", ["200"], panels))
    schema = doc["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    shown = schema.get("items", schema)
    assert set(shown["properties"]) == {"name"}


def test_which_runs_draw_a_field() -> None:
    assert inline_field("name string required") == ("name", "string", ["required"])
    assert inline_field("tags string[]") == ("tags", "array", [])
    assert inline_field("owner image-path (string) nullable") == ("owner", "string", ["nullable"])
    # A schema's title where the type would be: a field when it repeats the name or a mark follows.
    assert inline_field("limit Limit") == ("limit", None, [])
    assert inline_field("id Spotify Artist ID required") == ("id", None, ["required"])
    # A format may name a field; a JSON type then a format is a type run ("string date-time").
    assert inline_field("date date-time required") == ("date", "string", ["required"])
    assert inline_field("string date-time") is None and inline_field("integer int64") is None
    shown = "include_groups Groups to include (single, album, appears_on) required"
    assert inline_field(shown) == ("include_groups", None, ["required"])
    # Prose, labels, a title, a name shown twice (a schema's name and its link): no field.
    for text in ("Returns string values", "Type string", "Query string", "Spotify URI", "This field is required",
                 "ListDayResponse ListDayResponse", "Array [", "Note that this is required"):  # fmt: skip
        assert inline_field(text) is None, text


def test_a_caption_right_under_a_status_run_labels_that_response(tmp_path: Path) -> None:
    # "200" (a strip of one tab), then "a pull request object": the caption says "request", the
    # status before it says which part it is.
    panels = _panel("a pull request object", _field("id", "integer") + _field("title", "string"),
                    '{"id": 1, "title": "Fix"}')  # fmt: skip
    doc = _crawl(tmp_path, _operation("GET", "/pullrequests/{pid}", "", ["200"], panels))
    operation = doc["paths"]["/pullrequests/{pid}"]["get"]
    assert "requestBody" not in operation
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"id", "title"}


def test_a_colon_glued_inside_a_segment_is_a_template_where_a_path_parameter_says_so(tmp_path: Path) -> None:
    # The plugin writes `{format}` as `:format`, glued to the segment ("/lists.:format").
    request = (
        "<details><summary><h3></h3><p>Path Parameters</p></summary><ul>"
        + _field("format", "string", "required", description="The response format")
        + "</ul></details>"
    )
    doc = _crawl(tmp_path, _operation("GET", "/lists.:format", request, ["200"], _panel("OK", "", "{}")))
    assert list(doc["paths"]) == ["/lists.{format}"]
    assert doc["paths"]["/lists.{format}"]["get"]["parameters"][0]["name"] == "format"


def test_an_undocumented_colon_inside_a_segment_stays_part_of_the_path() -> None:
    # Google-style custom methods: "/things/{id}:undelete" names no parameter "undelete".
    assert documented_colons("/things/{id}:undelete", ["id"]) == "/things/{id}:undelete"
    assert documented_colons("/info/configuration:ext", ["ext"]) == "/info/configuration{ext}"


def test_a_piece_label_over_a_scalar_type_is_no_field(tmp_path: Path) -> None:
    # A response whose schema is a scalar: "Schema", then its type, as a tab's label over the tree.
    scalar = (
        "<div><p>OK</p></div><ul><li>application/json</li></ul><details><summary><strong><p>Schema</p>"
        "</strong></summary><div><span>string</span></div></details><pre><code>\"X\"</code></pre>"
    )
    fields = _panel("Illegal coordinates", _field("message", "string"), '{"message": "no"}')
    doc = _crawl(tmp_path, _operation("GET", "/board/{row}", "", ["200", "400"], scalar + fields))
    responses = doc["paths"]["/board/{row}"]["get"]["responses"]
    shown = responses.get("200", {}).get("content", {}).get("application/json", {}).get("schema", {})
    assert "Schema" not in shown.get("properties", {})


def test_a_numeric_bound_or_default_types_a_field_that_states_no_type(tmp_path: Path) -> None:
    # "limit Limit required": the schema's title where the type would be; its bounds say a number.
    request = (
        "<details><summary><h3></h3><p>Query Parameters</p></summary><ul>"
        + _field("limit", "Limit", "required", description="Possible values: &gt;= 0 and &lt;= 50")
        + _field("since", "Since", "required", description="Default value: 2023-01-01")
        + "</ul></details>"
    )
    doc = _crawl(tmp_path, _operation("GET", "/me/tracks", request, ["200"], _panel("OK", "", "{}")))
    params = {p["name"]: p for p in doc["paths"]["/me/tracks"]["get"]["parameters"]}
    assert params["limit"]["schema"]["type"] == "integer"
    assert params["since"]["schema"]["type"] == "string"  # a date is no number


def test_a_panel_with_no_fields_is_its_caption_alone(tmp_path: Path) -> None:
    # "200", "401", "429": the 200 panel is only its caption ("Playlist updated"); the next panels show
    # the same pickers before their fields, so the runs before those are captions, one per panel.
    error = _field("message", "string") + _field("status", "integer")
    panels = "<div><p>Playlist updated</p></div>"
    panels += _panel("Bad or expired token", error, '{"message": "x", "status": 401}')
    panels += _panel("The app has exceeded its rate limits", error, '{"message": "x", "status": 429}')
    doc = _crawl(tmp_path, _operation("PUT", "/playlists/{id}", "", ["200", "401", "429"], panels))
    responses = doc["paths"]["/playlists/{id}"]["put"]["responses"]
    assert "content" not in responses.get("200", {})
    assert set(responses["401"]["content"]["application/json"]["schema"]["properties"]) == {"message", "status"}


def test_a_dotted_name_under_a_scalar_is_a_name_of_its_own(tmp_path: Path) -> None:
    # Query operators ("certification.lte") beside a scalar parameter of the stem's name: a string holds
    # no fields, so the dotted name is its own parameter, not "lte" nested under it.
    request = (
        "<details><summary><h3></h3><p>Query Parameters</p></summary><ul>"
        + _field("certification", "string", description="Filter by certification")
        + _field("certification.lte", "string", description="At most this certification")
        + "</ul></details>"
    )
    doc = _crawl(tmp_path, _operation("GET", "/discover/movie", request, ["200"], _panel("OK", "", "{}")))
    names = {p["name"] for p in doc["paths"]["/discover/movie"]["get"]["parameters"]}
    assert names == {"certification", "certification.lte"}


def test_a_label_then_a_mark_then_fields_drawn_in_one_run_makes_no_field_of_the_label(tmp_path: Path) -> None:
    # "Body", "required", then "name string", "type string": the label and its mark, then two fields;
    # "type string" is a field named type, not the type run of a field "Body".
    request = (
        "<ul><li>application/json</li></ul><details><summary><h3></h3><p>Body</p><strong><p>required</p>"
        "</strong></summary><ul>"
        + _field("name", "string", description="The name of the material")
        + _field("type", "string", description="The type of material (e.g., steel, concrete)")
        + "</ul></details>"
    )
    doc = _crawl(tmp_path, _operation("POST", "/materials", request, ["201"], _panel("Created", "", "{}")))
    schema = doc["paths"]["/materials"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "type"}


def test_a_mark_run_before_a_field_drawn_in_one_run_is_no_field(tmp_path: Path) -> None:
    # "Body", "required", then "type string required": the mark belongs to the label; "type string"
    # read as a type run had made a body field named "required".
    request = (
        "<ul><li>application/json</li></ul><details><summary><h3></h3><p>Body</p><strong><p>required</p>"
        "</strong></summary><ul>"
        + _field("type", "string", "required", description="Type of the detected threat")
        + _field("severity", "string", "required")
        + "</ul></details>"
    )
    doc = _crawl(tmp_path, _operation("POST", "/threats", request, ["201"], _panel("Logged", "", "{}")))
    schema = doc["paths"]["/threats"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"type", "severity"}
