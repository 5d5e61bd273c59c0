"""Issue 17's tenth round: general rules after VitePress' first contact (vitepress-openapi: each field a
name with `*` for required, then its attributes as label/value runs, "Type" then "integer", "Format"
then '"int32"'; servers listed under a "Servers" heading, each URL with its description beside it),
each on a small fragment of the structure it draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.label_values import join_label_values
from openapi_rag.crawl.page import Block
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _attribute(label: str, value: str) -> str:
    """One attribute as the theme draws it: the label and the value in spans of their own."""
    return f"<div><span>{label}</span><div><div><span>{value}</span></div></div></div>"


def _field(name: str, *attributes: tuple[str, str], required: bool = False, description: str = "") -> str:
    star = "<span>*</span>" if required else ""
    about = f"<div><p>{description}</p></div>" if description else ""
    shown = "".join(_attribute(label, value) for label, value in attributes)
    mark = "<span>Required</span>" if required else ""
    return f"<div><div><div><span>{name}</span>{star}</div></div>{about}<div>{shown}{mark}</div></div>"


def _operation(method: str, path: str, body: str, servers: str = "") -> str:
    return (
        f"<html><body><main><h1>Pet store</h1>{servers}<hr><div><h1>Call {path}</h1>"
        f"<div><div>{method}</div><div><span><span>{path}</span></span></div></div>"
        f"<p>Does what {path} does.</p>{body}<h2>Responses</h2><div><button>200</button></div>"
        "<div><p>OK</p></div></div></main></body></html>"
    )


def test_label_value_runs_give_a_fields_type_format_and_required(tmp_path: Path) -> None:
    body = (
        "<h2>Parameters</h2><div><h3>Header Parameters</h3>"
        + _field("Authorization", ("Type", "string"), required=True)
        + "</div><div><h3>Query Parameters</h3>"
        + _field("text", ("Type", "string"), required=True)
        + _field("latitude", ("Type", "number"), ("Format", '"double"'), required=True)
        + _field("limit", ("Type", "integer"), ("Default", "20"), ("Maximum", "50"))
        + "</div>"
    )
    operation = _crawl(tmp_path, _operation("GET", "/autocomplete", body))["paths"]["/autocomplete"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert set(params) == {"Authorization", "text", "latitude", "limit"}  # no field named "Type"
    assert params["Authorization"]["in"] == "header" and params["text"]["in"] == "query"
    assert params["latitude"]["schema"]["type"] == "number" and params["latitude"]["required"] is True
    assert params["limit"]["schema"]["type"] == "integer" and not params["limit"].get("required")


def test_a_label_run_joins_only_a_value_not_a_column_label_or_a_field() -> None:
    runs = ["Name", "Type", "Description", "Type", "integer", "Type", "limit *", "Default", "Required",
            "Type", "A sentence."]  # fmt: skip
    joined = [b.text for b in join_label_values([Block("text", text=t) for t in runs])]
    assert joined == ["Name", "Type", "Description", "Type: integer", "Type", "limit *", "Default", "Required",
                      "Type", "A sentence."]  # fmt: skip


def test_a_described_field_right_under_a_heading_is_one_when_its_type_is_said_as_such(tmp_path: Path) -> None:
    # "page", its description, then "Type: integer" (a label's): the field's even right under the
    # "Query Parameters" heading, where a name then prose then a bare type word may be a caption.
    body = (
        "<h2>Parameters</h2><div><h3>Query Parameters</h3>"
        "<div><span>page</span></div><div><p>Specify which page to query.</p></div>"
        "<div><span>Type: integer</span></div><div><span>Default: 1</span></div></div>"
    )
    operation = _crawl(tmp_path, _operation("GET", "/movie/{id}/reviews", body))["paths"]["/movie/{id}/reviews"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert params["page"]["in"] == "query" and params["page"]["schema"]["type"] == "integer"


def test_a_server_listed_under_a_servers_heading_with_its_description(tmp_path: Path) -> None:
    servers = "<h2>Servers</h2><div><span>https://api.example.com/v1</span> <span>Production server</span></div>"
    doc = _crawl(tmp_path, _operation("GET", "/pets", "", servers))
    assert doc["servers"][0]["url"] == "https://api.example.com/v1"
    varied = "<h2>Servers</h2><div><span>{scheme}://developer.example.gov/ds-api</span></div>"
    doc = _crawl(tmp_path, _operation("GET", "/pets", "", varied))
    assert doc["servers"][0]["url"] == "https://developer.example.gov/ds-api"


def test_the_real_vitepress_pages_give_fields_and_servers() -> None:
    page = BENCH / "pages" / "vitepress" / "realworld-yelp-com-v3-swagger.html"
    doc = crawl_pages([page]).document
    assert doc["servers"][0]["url"] == "https://api.yelp.com/v3"
    params = {p["name"]: p for p in doc["paths"]["/businesses/search"]["get"]["parameters"]}
    assert params["term"]["in"] == "query" and params["latitude"]["schema"]["type"] == "number"
    assert "Type" not in params


def _json_lines(*lines: str) -> str:
    """A JSON example as the theme's viewer draws it: one run per line, strings shown unescaped."""
    return "".join(f"<div><span>{line}</span></div>" for line in lines)


def _response(status: str, caption: str, example: str) -> str:
    return (
        f"<h2>Responses</h2><div><button>{status}</button></div><div><p>{caption}</p></div>"
        "<div><label>Content-Type</label><span>application/json</span></div>"
        f"<div><button>Schema</button></div><div><div>JSON</div><div>JSON</div>{example}</div>"
    )


def _page(method: str, path: str, body: str) -> str:
    return (
        f"<html><body><main><h1>People</h1><hr><div><h1>Call {path}</h1>"
        f"<div><div>{method}</div><div><span><span>{path}</span></span></div></div>"
        f"<p>Does what {path} does.</p>{body}</div></main></body></html>"
    )


def test_json_drawn_one_line_a_run_with_unescaped_quotes_is_read(tmp_path: Path) -> None:
    example = _json_lines(
        "{", '"id" : 287 ,', '"name" : "Petyr "Littlefinger" Baelish" ,', '"also_known_as" : [',
        '"Brad "the actor" Pitt" ,', '"Бред Питт"', "] ,", '"adult" : false', "}",
    )  # fmt: skip
    doc = _crawl(tmp_path, _page("GET", "/person/{person_id}", _response("200", "A person", example)))
    schema = doc["paths"]["/person/{person_id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"id", "name", "also_known_as", "adult"}
    assert schema["properties"]["also_known_as"]["type"] == "array"


def test_a_caption_right_under_a_status_is_the_responses_whatever_it_names(tmp_path: Path) -> None:
    # "200", then "a pull request object" (naming a request), the media type and the pickers: the
    # example after them is the 200 response's, not a request body.
    example = '<pre><code>{"id": 1, "title": "Fix", "author": {"username": "ada"}}</code></pre>'
    doc = _crawl(tmp_path, _page("GET", "/pullrequests/{pid}", _response("200", "a pull request object", example)))
    operation = doc["paths"]["/pullrequests/{pid}"]["get"]
    assert "requestBody" not in operation
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert {"id", "title", "author"} <= set(schema["properties"])


def test_a_heading_that_names_a_part_of_the_documentation_is_no_operations_summary(tmp_path: Path) -> None:
    # The operation's heading is its request line; the headings after it name parts of its
    # documentation ("Authorizations", "Playground", "Samples"), never the operation.
    html = (
        "<html><body><main><h1>Repositories</h1><hr><div><h1>POST /repositories/{slug}/merge</h1>"
        "<div><div>POST</div><div><span><span>/repositories/{slug}/merge</span></span></div></div>"
        "<h2>Authorizations</h2><div><span>api_key</span></div><h2>Parameters</h2><h3>Path Parameters</h3>"
        + _field("slug", ("Type", "string"), required=True)
        + "<h2>Responses</h2><div><button>204</button></div><div><p>merged</p></div>"
        "<h2>Playground</h2><div><button>Try it out</button></div><h2>Samples</h2></div></main></body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/repositories/{slug}/merge"]["post"]
    assert operation.get("summary", "") not in ("Authorizations", "Playground", "Samples")
    assert [p["name"] for p in operation["parameters"]] == ["slug"]


def test_keys_a_generator_writes_for_a_maps_entries_are_no_fields(tmp_path: Path) -> None:
    # vitepress-openapi writes a map's entries as "additionalProperties": "string", Swagger UI as
    # "additionalProp1"…: placeholders for any key, not fields the schema names.
    example = _json_lines(
        "{", '"name" : "string" ,', '"public" : true ,', '"labels" : {', '"additionalProp1" : "string"', "} ,",
        '"additionalProperties" : "string"', "}",
    )  # fmt: skip
    body = f"<h2>Request Body</h2><div><span>application/json</span></div><div><button>Schema</button></div>{example}"
    operation = _crawl(tmp_path, _page("POST", "/playlists", body))["paths"]["/playlists"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "public", "labels"}
    assert not schema["properties"]["labels"].get("properties")


def test_a_date_format_beside_a_field_is_a_note_not_a_field(tmp_path: Path) -> None:
    body = (
        "<h2>Parameters</h2><div><h3>Query Parameters</h3>"
        + _field("list", ("Type", "string"), description="The name of the best-seller list.")
        + "<div><div><div><span>bestsellers-date</span></div></div><div><p>YYYY-MM-DD</p>"
        "<p>The week-ending date for the sales reflected on list-name.</p></div>"
        + _attribute("Type", "string")
        + "</div></div>"
    )
    operation = _crawl(tmp_path, _page("GET", "/lists.json", body))["paths"]["/lists.json"]["get"]
    assert [p["name"] for p in operation["parameters"]] == ["list", "bestsellers-date"]


def test_required_said_as_a_labels_value_yes_or_no(tmp_path: Path) -> None:
    # "Required" alone marks a field; "Required", then "No" says it is not required.
    body = (
        "<h2>Parameters</h2><div><h3>Query Parameters</h3>"
        + _field("q", ("Type", "string"), ("Required", "Yes"))
        + _field("page", ("Type", "integer"), ("Required", "No"))
        + "</div>"
    )
    operation = _crawl(tmp_path, _page("GET", "/search", body))["paths"]["/search"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert params["q"]["required"] is True and not params["page"].get("required")
    assert params["page"]["schema"]["type"] == "integer"


def test_an_attributes_label_and_value_is_no_fields_description(tmp_path: Path) -> None:
    body = (
        "<h2>Parameters</h2><div><h3>Query Parameters</h3>"
        + _field("latitude", ("Type", "number"), ("Format", '"double"'), required=True)
        + _field("radius", ("Type", "integer"), ("Example", '"40000 metres, the most allowed"'), description="In metres.")
        + "</div>"
    )
    operation = _crawl(tmp_path, _page("GET", "/businesses/search", body))["paths"]["/businesses/search"]["get"]
    params = {p["name"]: p for p in operation["parameters"]}
    assert "Format" not in params["latitude"].get("description", "")
    assert params["radius"]["description"] == "In metres." and params["radius"]["schema"]["type"] == "integer"
