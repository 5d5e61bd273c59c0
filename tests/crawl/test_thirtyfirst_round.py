"""Issue 17's thirty-first round: general rules after the thirtieth round's swagger-render (its Jinja HTML
templates): a heading that holds a request line and then the operation's title ("GET /pets/{id} Get a pet"); a
schema drawn in a table cell as one block per field ("name (type, optional): description", an object's fields in
blocks inside its block, an array's items' between "[" and "]"); a "Description" label heading, no title. Each on
a small fragment of the structure (each fails without its rule)."""

from __future__ import annotations

from pathlib import Path

import lxml.html

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.cell_fields import cell_field_rows, marks_optional
from openapi_rag.crawl.samples import parse_repeated_signature, parse_titled_signature


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, type_: str, mark: str = "", described: str = "", inner: str = "") -> str:
    marks = f", <span>{mark}</span>" if mark else ""
    says = f": <span><p>{described}</p></span>" if described else ""
    return f"<div><span>{name}</span> (<span>{type_}</span>{marks}){says}{inner}</div>"


def _operation(method: str, path: str, title: str, body: str) -> str:
    return (
        f'<div id="op"><a><h3><strong>{method}</strong> {path} <span> {title} </span></h3></a></div>'
        f"<div><h3>Description</h3><p>Returns the pet with the given identifier, if it exists.</p>{body}</div>"
    )


_PARAMS = (
    "<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Located in</th><th>Description</th>"
    "<th>Required</th><th>Schema</th></tr></thead><tbody>"
    "<tr><td>petId</td><td>path</td><td>The pet's id</td><td>True</td><td>integer</td></tr>"
    "<tr><td>verbose</td><td>query</td><td>More detail</td><td>False</td><td>boolean</td></tr>"
    "</tbody></table>"
)

_PET = (
    _field("id", "integer", described="The pet's id.")
    + _field("name", "string", "optional", "Its name.")
    + _field(
        "owner",
        "object",
        "optional",
        inner=_field("email", "string", "optional", "The owner's email."),
    )
    + _field(
        "photos",
        "array[object]",
        "optional",
        inner="<div>["
        + _field("url", "string", "", "Where.")
        + _field("width", "integer", "optional")
        + "]</div>",
    )
)

_RESPONSES = (
    "<h3>Responses</h3><table><thead><tr><th>Code</th><th>Description</th><th>Schema</th></tr></thead><tbody>"
    f"<tr><td>200</td><td></td><td>{_PET}</td></tr>"
    "<tr><td>404</td><td></td><td>" + _field("error_code", "integer", "optional") + "</td></tr>"
    "</tbody></table>"
)


def test_titled_request_line_parses() -> None:
    assert parse_titled_signature("GET /pets/{petId} Get a pet") == ("GET", "/pets/{petId}", "Get a pet")
    assert parse_titled_signature("GET /pets/{petId}") is None  # a request line alone: parse_signature's
    assert parse_titled_signature("GET /pets /{petId}") is None  # a path drawn in pieces
    assert parse_titled_signature("get /pets returns them") is None  # prose's lower-case method
    assert parse_repeated_signature("GET /pets /pets") == ("GET", "/pets", "/pets")
    assert parse_repeated_signature("GET /a/b/search /a/search") == ("GET", "/a/b/search", "/a/search")
    assert parse_repeated_signature("GET /pets /{petId}") is None
    assert parse_repeated_signature("GET /v1 /pets/{petId}") is None


def test_titled_heading_is_the_operations(tmp_path: Path) -> None:
    html = f"<html><body>{_operation('GET', '/pets/{petId}', 'Get a pet', _PARAMS)}</body></html>"
    doc = _crawl(tmp_path, html)
    assert list(doc["paths"]) == ["/pets/{petId}"]
    op = doc["paths"]["/pets/{petId}"]["get"]
    assert op["summary"] == "Get a pet"
    assert "given identifier" in op["description"]
    params = {p["name"]: p for p in op["parameters"]}
    assert params["petId"]["in"] == "path" and params["petId"]["schema"]["type"] == "integer"
    assert params["verbose"]["in"] == "query" and params["verbose"]["schema"]["type"] == "boolean"


def test_path_as_title_is_no_more_path(tmp_path: Path) -> None:
    html = f"<html><body>{_operation('GET', '/autocomplete', '/autocomplete', _PARAMS)}</body></html>"
    doc = _crawl(tmp_path, html)
    assert list(doc["paths"]) == ["/autocomplete"]


def test_description_label_heading_is_no_title(tmp_path: Path) -> None:
    html = f"<html><body>{_operation('GET', '/pets', '', '')}</body></html>"
    op = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert op.get("summary") != "Description"
    assert "given identifier" in op["description"]


def test_cell_field_rows_nest() -> None:
    cell = lxml.html.fromstring(f"<table><tr><td>{_PET}</td></tr></table>").find(".//td")
    rows = cell_field_rows(cell)
    assert rows is not None
    assert rows[0] == ["name", "type", "required", "description"]
    assert rows[1:] == [
        ["id", "integer", "required", "The pet's id."],
        ["name", "string", "optional", "Its name."],
        ["owner", "object", "optional", ""],
        ["» email", "string", "optional", "The owner's email."],
        ["photos", "array[object]", "optional", ""],
        ["» url", "string", "required", "Where."],
        ["» width", "integer", "optional", ""],
    ]
    # an array whose items have no fields drawn ("[]") is still a field
    tags = _field("id", "integer") + _field("tags", "array[object]", "optional", inner="<div>[]</div>")
    listed = lxml.html.fromstring(f"<table><tr><td>{tags}</td></tr></table>").find(".//td")
    assert [row[0] for row in cell_field_rows(listed)[1:]] == ["id", "tags"]
    prose = lxml.html.fromstring("<table><tr><td><div>Some words (see below)</div></td></tr></table>")
    assert cell_field_rows(prose.find(".//td")) is None
    plain = lxml.html.fromstring("<table><tr><td>string</td></tr></table>")
    assert cell_field_rows(plain.find(".//td")) is None


def test_unmarked_field_is_required_where_the_page_marks_optional_ones() -> None:
    page = lxml.html.fromstring(
        "<div><table><tr><td>" + _field("a", "string", "optional") + "</td></tr>"
        "<tr><td>" + _field("b", "string") + "</td></tr></table></div>"
    )
    cells = page.findall(".//td")
    assert marks_optional(page)
    assert cell_field_rows(cells[1])[1][2] == ""  # alone, the cell says nothing
    assert cell_field_rows(cells[1], optional_marked=True)[1][2] == "required"


def test_cell_schemas_become_body_and_responses(tmp_path: Path) -> None:
    body = (
        "<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Located in</th><th>Description</th>"
        "<th>Required</th><th>Schema</th></tr></thead><tbody>"
        "<tr><td>body</td><td>body</td><td></td><td>True</td><td>"
        + _field("name", "string", described="The pet's name.")
        + _field("tag", "string", "optional")
        + "</td></tr></tbody></table>"
    )
    html = f"<html><body>{_operation('POST', '/pets', 'Add a pet', body + _RESPONSES)}</body></html>"
    op = _crawl(tmp_path, html)["paths"]["/pets"]["post"]
    schema = op["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "tag"}
    assert schema.get("required") == ["name"]
    ok = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(ok["properties"]) == {"id", "name", "owner", "photos"}
    assert set(ok["properties"]["owner"]["properties"]) == {"email"}
    assert ok["properties"]["photos"]["type"] == "array"
    assert set(ok["properties"]["photos"]["items"]["properties"]) == {"url", "width"}
    # the 404's fields are the 404's, never the 200's (a run of statuses is no strip of tabs)
    assert "error_code" not in ok["properties"]
    missing = op["responses"]["404"]["content"]["application/json"]["schema"]
    assert set(missing["properties"]) == {"error_code"}
