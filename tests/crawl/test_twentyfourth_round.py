"""Issue 17's twenty-fourth round: general rules after the twenty-third round's openapi-to-asciidoc (its Jinja
templates of AsciiDoc through Asciidoctor.js): the server a run "url: https://…" under a "Server information"
heading; each parameter a table of its own whose header row is drawn in plain cells (name | location |
description | required), its schema after it as keyword runs ("Schema", "type: integer"); bodies' and responses'
fields in Property | Type tables whose Type cells hold keyword runs ("type: string description: …"), a schema's
required fields a run "Required: ['a', 'b']" over its table; references as runs "ref: #/components/schemas/Pet" to
sections of a Components part, parameters as "ref: #/components/parameters/…". Each on a small fragment of the
structure (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.schema_runs import schema_runs
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _cells(*cells: str) -> str:
    return "<tr>" + "".join(f"<td><p>{cell}</p></td>" for cell in cells) + "</tr>"


def _parameter(name: str, where: str, about: str, required: str, type_: str) -> str:
    """A parameter's own table, its header row in plain cells, then its schema as keyword runs."""
    return (
        "<table><tbody>"
        + _cells("name", "location", "description", "required", "deprecated")
        + _cells(name, where, about, required, "False")
        + f"</tbody></table><div><p><em>Schema</em></p></div><div><p>type: {type_}</p></div>"
    )


def _properties(*rows: tuple[str, str]) -> str:
    """A Property | Type table, its header row in plain cells, each Type cell keyword runs."""
    body = "".join(
        f"<tr><td><p><strong>{name}</strong></p></td><td><div>"
        + "".join(f"<div><p>{run}</p></div>" for run in runs.split(" | "))
        + "</div></td></tr>"
        for name, runs in rows
    )
    return "<table><tbody>" + _cells("Property", "Type") + body + "</tbody></table>"


def _ref(kind: str, name: str) -> str:
    return f'<div><p>ref: <a href="#_components_{kind}_{name}">#/components/{kind}/{name}</a></p></div>'


def _page(paths: str, components: str = "", servers: str = "") -> str:
    return (
        "<html><body><h1>Open API specification</h1>"
        + (f"<h2>Servers</h2><h3>Server information</h3>{servers}" if servers else "")
        + f"<h2>Paths</h2>{paths}"
        # a second path, so that no one operation's part of the page is the whole page
        + "<h3>/status</h3><h4>get</h4><p>Tells whether the service is up.</p>"
        + (f"<h2>Components</h2>{components}" if components else "")
        + "</body></html>"
    )


def test_a_header_row_drawn_in_plain_cells_names_the_columns(tmp_path: Path) -> None:
    html = _page(
        "<h3>/pets</h3><h4>get</h4><p>Lists the pets.</p>"
        + "<table><tbody>"
        + _cells("name", "location", "description", "required", "deprecated")
        + _cells("limit", "query", "How many to return.", "False", "False")
        + _cells("since", "header", "Only pets added after it.", "True", "False")
        + "</tbody></table>"
    )
    parameters = _crawl(tmp_path, html)["paths"]["/pets"]["get"]["parameters"]
    assert [(p["name"], p["in"], p["required"]) for p in parameters] == [
        ("limit", "query", False),
        ("since", "header", True),
    ]  # no parameter "name" read from the header row


def test_a_table_whose_second_row_is_column_words_too_keeps_its_first_row() -> None:
    page = parse_html("<table>" + _cells("name", "type") + _cells("description", "required") + "</table>")
    assert not page.blocks[0].header


def test_a_server_url_under_a_label_and_beside_its_description_is_the_server(tmp_path: Path) -> None:
    servers = (
        "<div><p>description: Production server</p></div><div><p>url: https://api.example.com/v1</p></div>"
    )
    document = _crawl(tmp_path, _page("<h3>/pets</h3><h4>get</h4><p>Lists the pets.</p>", servers=servers))
    assert document["servers"] == [{"url": "https://api.example.com/v1"}]


def test_a_parameters_schema_drawn_after_its_table_types_it(tmp_path: Path) -> None:
    html = _page(
        "<h3>/pets/{id}</h3><h4>get</h4><p>Finds one pet.</p>"
        + _parameter("id", "path", "The pet's id.", "True", "integer")
        + _parameter("fields", "query", "Which fields to return.", "False", "array")
    )
    parameters = _crawl(tmp_path, html)["paths"]["/pets/{id}"]["get"]["parameters"]
    assert {p["name"]: p["schema"]["type"] for p in parameters} == {"id": "integer", "fields": "array"}


def test_keyword_runs_in_a_type_cell_give_the_type_and_the_description(tmp_path: Path) -> None:
    html = _page(
        "<h3>/pets</h3><h4>post</h4><p>Adds a pet to the store.</p>"
        + "<div><p><em>Request body</em></p></div><div><div>application/json</div><p>type: object</p></div>"
        + "<div><p>Required: ['name']</p></div><div><p><em>Schema properties</em></p></div>"
        + _properties(
            ("name", "type: string | description: The pet's name."),
            ("count", "type: string | description: The number of legs, as a word."),
            ("tags", "type: array | description: A list of tags."),
        )
    )
    schema = _crawl(tmp_path, html)["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"][
        "schema"
    ]
    properties = schema["properties"]
    assert {name: p["type"] for name, p in properties.items()} == {
        "name": "string",
        "count": "string",
        "tags": "array",
    }
    assert properties["name"]["description"] == "The pet's name."
    assert schema["required"] == ["name"]  # the Required list, the others optional


def test_a_required_list_marks_the_properties_table_after_it() -> None:
    page = parse_html(
        "<p>Required: ['a', 'c']</p><p>Schema properties</p><table>"
        + _cells("Property", "Type")
        + _cells("a", "type: string")
        + _cells("b", "type: string")
        + _cells("c", "type: integer")
        + "</table>"
    )
    table = schema_runs(page.blocks)[-1]
    assert table.rows == [
        ["Property", "Type", "required"],
        ["a", "type: string", "true"],
        ["b", "type: string", "false"],
        ["c", "type: integer", "true"],
    ]


def test_a_reference_run_takes_its_sections_fields(tmp_path: Path) -> None:
    paths = (
        "<h3>/pets</h3><h4>get</h4><p>Lists every pet in the store.</p>"
        + "<div><div>Responses</div><p><em>200</em></p></div><div><p>description: pet response</p></div>"
        + "<div><div>application/json</div><p>type: array</p></div>"
        + _ref("schemas", "PetWithAVeryLongNameIndeed")
        + "<h4>post</h4><p>Adds a pet to the store.</p>"
        + "<div><p><em>Request body</em></p></div><div><div>application/json</div></div>"
        + _ref("schemas", "NewPet")
    )
    components = (
        "<h3>Schemas</h3>"
        + "<h4>PetWithAVeryLongNameIndeed</h4><div><p>allOf:</p></div>"
        + _ref("schemas", "NewPet")
        + "<div><p>type: object</p></div><div><p><em>Schema properties</em></p></div>"
        + _properties(("id", "type: integer | format: int64"))
        + "<h4>NewPet</h4><div><p>type: object</p></div><div><p><em>Schema properties</em></p></div>"
        + _properties(("name", "type: string"), ("tag", "type: string"))
    )
    paths_out = _crawl(tmp_path, _page(paths, components))["paths"]["/pets"]
    listed = paths_out["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    fields = listed.get("items", listed)["properties"]
    assert set(fields) == {"name", "tag", "id"}  # the allOf part's fields and its own
    assert fields["id"]["type"] == "integer"
    body = paths_out["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}
    assert "ref:" not in paths_out["get"].get("description", "")  # a reference is no prose


def test_a_reference_to_a_parameter_is_that_parameter(tmp_path: Path) -> None:
    paths = (
        "<h3>/albums</h3><h4>get</h4><p>Lists the albums.</p><div>Parameters</div>"
        + "<div><p><em>Parameter reference</em></p></div>"
        + _ref("parameters", "QueryLimit")
    )
    components = "<h3>Parameters</h3><h4>QueryLimit</h4>" + _parameter(
        "limit", "query", "None", "False", "integer"
    )
    parameters = _crawl(tmp_path, _page(paths, components))["paths"]["/albums"]["get"]["parameters"]
    assert [(p["name"], p["in"], p["schema"]["type"]) for p in parameters] == [("limit", "query", "integer")]


def test_a_name_alone_after_a_responses_run_is_no_request_body(tmp_path: Path) -> None:
    paths = (
        "<h3>/player/pause</h3><h4>put</h4><p>Pauses the playback on the account.</p>"
        + "<div><div>Responses</div><p><em>204</em></p></div><div><p>description: Paused</p></div>"
    )
    components = "<h3>Schemas</h3><h4>Responses</h4><div><p>type: object</p></div>" + _properties(
        ("items", "type: array"), ("total", "type: integer")
    )
    operation = _crawl(tmp_path, _page(paths, components))["paths"]["/player/pause"]["put"]
    assert "requestBody" not in operation


def test_real_pages() -> None:
    pages = BENCH / "pages" / "openapi-to-asciidoc"
    doc = crawl_pages([pages / "realworld-v3-0-petstore-expanded.html"]).document
    assert doc["servers"] == [{"url": "https://petstore.swagger.io/v2"}]
    listed = doc["paths"]["/pets"]["get"]
    assert {p["name"]: p["schema"]["type"] for p in listed["parameters"]} == {
        "tags": "array",
        "limit": "integer",
    }
    pets = listed["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(pets.get("items", pets)["properties"]) == {"id", "name", "tag"}
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}
    assert body["required"] == ["name"]


def _nested_properties(name: str, runs: str, inner: str) -> str:
    """A Property | Type table of one field whose Type cell holds its runs and, nested, its own fields' table."""
    return (
        "<table><tbody>"
        + _cells("Property", "Type")
        + f"<tr><td><p><strong>{name}</strong></p></td><td><div><div><p>{runs}</p></div>{inner}</div></td></tr>"
        + "</tbody></table>"
    )


def test_a_responses_headers_runs_label_nothing_after_its_content(tmp_path: Path) -> None:
    headers = "".join(
        f"<div><p>{name}</p></div><div><p>description: {about}</p></div>"
        for name, about in (
            ("X-Rate-Limit", "Requests allowed per hour in the query window"),
            ("Access-Control-Allow-Headers", "Specify the headers allowed when accessing the resource"),
        )
    )
    paths = (
        "<h3>/jobs</h3><h4>get</h4><p>Lists the export jobs of the account.</p>"
        + "<div><div>Responses</div><p><em>200</em></p></div><div><p>description: OK</p></div>"
        + "<div><p><em>Headers</em></p></div>"
        + headers
        + "<div><p><em>Content</em></p></div><div><div>application/json</div><p>type: object</p></div>"
        + _properties(("jobs", "type: array"), ("page_size", "type: integer"))
    )
    operation = _crawl(tmp_path, _page(paths))["paths"]["/jobs"]["get"]
    assert "parameters" not in operation  # the fields are not read as request headers or parameters
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"jobs", "page_size"}


def test_tables_nested_in_a_schema_sections_cells_are_its_fields_too(tmp_path: Path) -> None:
    paths = (
        "<h3>/updates</h3><h4>get</h4><p>Lists the pending updates of a profile.</p>"
        + "<div><div>Responses</div><p><em>200</em></p></div><div><div>application/json</div></div>"
        + _ref("schemas", "updates-array")
    )
    inner = (
        "<table><tbody>" + _cells("Property", "Type") + _cells("due_at", "type: number") + "</tbody></table>"
    )
    components = "<h3>Schemas</h3><h4>updates-array</h4><div><p>type: object</p></div>" + _nested_properties(
        "updates", "type: array type: object Schema properties", inner
    )
    schema = _crawl(tmp_path, _page(paths, components))["paths"]["/updates"]["get"]["responses"]["200"]
    names = set(schema["content"]["application/json"]["schema"]["properties"])
    assert {"updates", "due_at"} <= names


def test_a_sections_parts_are_followed_past_one_level(tmp_path: Path) -> None:
    paths = (
        "<h3>/albums</h3><h4>get</h4><p>Lists the saved albums of the user.</p>"
        + "<div><div>Responses</div><p><em>200</em></p></div>"
        + _ref("responses", "PagedAlbums")
    )
    components = (
        "<h3>Schemas</h3>"
        + "<h4>PagingObject</h4><div><p>type: object</p></div>"
        + _properties(("href", "type: string"), ("total", "type: integer"))
        + "<h4>PagingAlbumObject</h4><div><p>allOf:</p></div>"
        + _ref("schemas", "PagingObject")
        + "<div><p>type: object</p></div>"
        + _properties(("items", "type: array"))
        + "<h3>Responses</h3><h4>PagedAlbums</h4><div><p>description: Pages of albums</p></div>"
        + "<div><div>application/json</div></div>"
        + _ref("schemas", "PagingAlbumObject")
    )
    schema = _crawl(tmp_path, _page(paths, components))["paths"]["/albums"]["get"]["responses"]["200"]
    assert set(schema["content"]["application/json"]["schema"]["properties"]) == {"href", "total", "items"}


def test_a_summary_run_names_an_operation_its_headings_name_by_method_or_path(tmp_path: Path) -> None:
    paths = (
        "<h3>/pets</h3><h4>get</h4><div><p><em>summary:</em> List all pets</p></div>"
        + "<div><p><em>description:</em> Returns all pets from the system that the user can see.</p></div>"
        + "<h3>/stores</h3><h4>post</h4><div><p><em>summary:</em> Open a store</p></div>"
    )
    paths_out = _crawl(tmp_path, _page(paths))["paths"]
    assert paths_out["/pets"]["get"]["summary"] == "List all pets"
    assert "Returns all pets" in paths_out["/pets"]["get"]["description"]
    assert paths_out["/stores"]["post"]["summary"] == "Open a store"  # not the path's heading, "/stores"
