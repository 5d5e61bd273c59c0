"""Issue 17's thirty-fifth round: general rules written on a development set of nine more specs
(benchmarks/crawl/dev), never on the benchmark's 38 nor the held-out eleven: a body parameter named "body" whose
type links to a schema the page documents; a parameter table with no type column whose description is the
schema's link alone; a part's label alone ("Parameters", "Tags") before a request body's reference is no schema's
name; a parameter label ("Request headers") before a response's label labels the request, not the response's
fields; symbols a schema tree draws as marks ("id: string 🆁", read-only) are no part of a name or a type; a
response's field table after a table of one status row is that status's; a row one level under an object parameter
is its property; a "Models" heading ends an operation's part. Each on a small fragment of the structure (each
fails without its rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.declarations import declaration_runs, without_symbols
from openapi_rag.crawl.labels import label_location, response_label


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(f"<html><body><h1>Mail API</h1>{html}</body></html>", encoding="utf-8")
    return crawl_pages([page]).document


def _body_fields(document: dict, path: str) -> set[str]:
    body = document["paths"][path]["post"].get("requestBody") or {}
    schema = (body.get("content") or {}).get("application/json", {}).get("schema") or {}
    return set(schema.get("properties") or {})


_MODEL_TABLE = (
    "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead><tbody>"
    "<tr><td><strong>email</strong></td><td><strong>String</strong></td><td></td><td>[optional]</td></tr>"
    "<tr><td><strong>include_expired</strong></td><td><strong>Boolean</strong></td><td></td><td>[optional]</td></tr>"
    "</tbody></table>"
)


def test_a_body_row_typed_by_a_documented_schema_is_that_schema(tmp_path: Path) -> None:
    # "body | rejects_list" (a Swagger 2 body parameter's usual name, its type a link to the model's section)
    page = (
        "<h1><strong>rejectsListJsonPost</strong></h1><p><strong>POST</strong> /rejects/list.json</p>"
        "<h3>Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead><tbody>"
        '<tr><td><strong>body</strong></td><td><a href="../Models/rejects_list.md"><strong>rejects_list</strong>'
        "</a></td><td></td><td></td></tr></tbody></table><h3>Return type</h3><p>null (empty response body)</p>"
        f"<h1>rejects_list</h1><h2>Properties</h2>{_MODEL_TABLE}"
    )
    document = _crawl(tmp_path, page)
    assert _body_fields(document, "/rejects/list.json") == {"email", "include_expired"}
    assert not document["paths"]["/rejects/list.json"]["post"].get("parameters")  # no query parameter "body"


def test_a_description_of_the_link_alone_types_the_row(tmp_path: Path) -> None:
    # A body parameter's table with no type column: "body | RejectsList | X", the description the link alone
    page = (
        "<h2>POST /rejects/list.json</h2><p>Retrieves your rejection blacklist.</p><h5>Parameters</h5>"
        "<h6>Body Parameter</h6><table><thead><tr><th>Name</th><th>Description</th><th>Required</th>"
        "<th>Default</th><th>Pattern</th></tr></thead><tbody><tr><td><p>body</p></td>"
        '<td><p><a href="#RejectsList"><em>RejectsList</em></a></p></td><td><p>X</p></td><td></td><td></td></tr>'
        "</tbody></table><h5>Responses</h5><p>200 OK</p>"
        '<h2>Models</h2><h3 id="RejectsList">RejectsList</h3><table><thead><tr><th>Field Name</th>'
        "<th>Required</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td><p>email</p></td><td></td><td><p>String</p></td><td></td></tr>"
        "<tr><td><p>include_expired</p></td><td></td><td><p>Boolean</p></td><td></td></tr></tbody></table>"
    )
    assert _body_fields(_crawl(tmp_path, page), "/rejects/list.json") == {"email", "include_expired"}


def _parameter_section(name: str) -> str:
    return (
        f'<div><h4 id="_components_parameters_{name}">{name}</h4><table><tbody><tr><td><p>name</p></td>'
        "<td><p>location</p></td><td><p>description</p></td><td><p>required</p></td></tr>"
        f"<tr><td><p>x-{name}</p></td><td><p>header</p></td><td><p>The request's {name}</p></td>"
        "<td><p>True</p></td></tr></tbody></table><div><p><em>Schema</em></p></div><div><p>type: string</p></div></div>"
    )


def test_a_part_label_alone_names_no_body_schema(tmp_path: Path) -> None:
    # "Tags", "Parameters" (runs alone) before "Request body" and its reference: the reference names the
    # body's schema, though the page's components have a section headed "Parameters" too
    page = (
        '<h2 id="_paths">Paths</h2><h3>/pets</h3><h4>post</h4><p>Tags</p><p>Pets</p>'
        "<p><em>summary:</em> Add a pet</p><div>Parameters</div><p><em>Parameter reference</em></p>"
        '<p>ref: <a href="#_components_parameters_trace">#/components/parameters/trace</a></p>'
        "<p><em>Request body</em></p><p>required: True</p><div>application/json</div>"
        '<p>ref: <a href="#_components_schemas_NewPet">#/components/schemas/NewPet</a></p>'
        "<div>Responses</div><p><em>201</em></p><p>description: Created</p>"
        "<h3>/owners</h3><h4>get</h4><p><em>summary:</em> List owners</p><div>Responses</div><p><em>200</em></p>"
        '<h2 id="_components">Components</h2><h3 id="_schemas">Schemas</h3>'
        '<div><h4 id="_components_schemas_NewPet">NewPet</h4><div><p>type: object</p></div>'
        "<div><p><em>Schema properties</em></p></div><table><tbody><tr><td><p>Property</p></td><td><p>Type</p></td>"
        "</tr><tr><td><p><strong>name</strong></p></td><td><div><div><p>type: string</p></div></div></td></tr>"
        "<tr><td><p><strong>tag</strong></p></td><td><div><div><p>type: string</p></div></div></td></tr>"
        '</tbody></table></div><h3 id="_parameters">Parameters</h3>'
        + _parameter_section("trace")
        + _parameter_section("tenant")
    )
    assert _body_fields(_crawl(tmp_path, page), "/pets") == {"name", "tag"}


def test_request_headers_before_the_response_label_the_request() -> None:
    label = "object | application/json | schema | search results | 400 | 200 | response | request headers | request"
    assert response_label(label) == "object | application/json | schema | search results | 400"
    assert label_location(response_label(label)) is None  # the response's fields, not its headers
    assert label_location(response_label("response headers: | 200 | responses")) == "header"


def test_a_response_schema_after_request_headers_is_read(tmp_path: Path) -> None:
    # A tree of runs: "REQUEST", "REQUEST HEADERS" over the header's table, "RESPONSE", the status tabs, the schema
    page = (
        "<h2>List settings</h2><div><span>get</span> <span>/settings</span></div>"
        "<div>REQUEST</div><div>REQUEST HEADERS</div><table><tr><td><div>* tenant-id</div><div>string</div></td>"
        "<td>Tenant</td></tr></table><div>RESPONSE</div><div><button>200</button><button>400</button></div>"
        "<div><p>search results</p></div><div><button>EXAMPLE</button><button>SCHEMA</button>"
        "<span>application/json</span></div><div><div>object</div><div>{</div>"
        "<div><span>prefix:</span> <span>string</span></div><div><span>sequence:</span> <span>integer</span></div>"
        "<div>}</div></div><div><p>bad input parameter</p></div>"
    )
    responses = _crawl(tmp_path, page)["paths"]["/settings"]["get"]["responses"]
    schema = responses["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"prefix", "sequence"}


def test_symbol_marks_are_no_part_of_a_declaration() -> None:
    assert without_symbols("id: string 🆁") == "id: string"
    assert without_symbols("custom_mappings 🆁: null┃{") == "custom_mappings : null {"
    assert without_symbols("status_code * : integer") == "status_code * : integer"
    runs = ["{", "id: string 🆁", "custom_mappings 🆁: null┃{", "[any-key]: any", "}", "name: string┃null", "}"]
    declared = declaration_runs(runs)
    assert declared is not None and "custom_mappings?: null {" in declared and "id?: string" in declared


def _status_table(status: str, words: str) -> str:
    return (
        "<table><thead><tr><th>Status</th><th>Description</th></tr></thead>"
        f"<tbody><tr><td>{status} {words}</td><td></td></tr></tbody></table>"
    )


def _field_table(*fields: tuple[str, str]) -> str:
    rows = "".join(f"<tr><td>{name}</td><td>{type_}</td><td>required</td><td></td></tr>" for name, type_ in fields)
    return (
        "<table><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Description</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def test_fields_after_a_one_status_table_are_that_status(tmp_path: Path) -> None:
    # "Responses", a status table per response ("200 pet response"), each with its media types and fields below
    # (the success's an empty example): the error's fields are the default response's, not the success's
    page = (
        "<h3>[GET]/pets/{id}</h3><p>Operation id</p><p>findPetById</p><h4>Responses</h4>"
        f"{_status_table('200', 'pet response')}<p>application/json</p><pre><code>{{\n}}\n</code></pre>"
        f"{_status_table('default', 'unexpected error')}<p>application/json</p>"
        f"{_field_table(('code', 'integer'), ('message', 'string'))}<p>application/xml</p>"
        f"{_field_table(('code', 'integer'), ('message', 'string'))}"
        "<h3>[DELETE]/pets/{id}</h3><p>Operation id</p><p>deletePet</p>"
    )
    responses = _crawl(tmp_path, page)["paths"]["/pets/{id}"]["get"]["responses"]
    success = responses["200"].get("content", {}).get("application/json", {}).get("schema", {})
    assert not success.get("properties")  # the page shows the success's body as "{}" alone
    assert set(responses["default"]["content"]["application/json"]["schema"]["properties"]) == {"code", "message"}


def test_a_row_under_an_object_parameter_is_its_property(tmp_path: Path) -> None:
    # "pass_through | object", then "» example_downstream_property": the parameter's property, no parameter
    page = (
        "<h3>[GET]/departments</h3><p>Operation id</p><p>departmentsAll</p><h4>Parameters(Query)</h4>"
        f"{_field_table(('raw', 'boolean'))}"
        f"{_field_table(('pass_through', 'object'), ('» example_downstream_property', 'string'))}"
        f"{_field_table(('fields', 'string'))}<h4>Responses</h4>{_status_table('200', 'Departments')}"
        "<h3>[POST]/departments</h3><p>Operation id</p><p>departmentsAdd</p>"
    )
    listed = _crawl(tmp_path, page)["paths"]["/departments"]["get"]["parameters"]
    assert [p["name"] for p in listed] == ["raw", "pass_through", "fields"]


def test_a_models_heading_ends_the_last_operation(tmp_path: Path) -> None:
    # A tag's section (h1) with its last operation, then the page's "Models" (h2) under it: no model's example or
    # fields are the operation's
    page = (
        "<h1>Tokens</h1><h2>createToken</h2><pre><code>post /v1/token</code></pre><p>Issues a new token.</p>"
        "<h3>Responses</h3><h4>201</h4><p>Created</p>"
        "<h2>Models</h2><h3>Key</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>sid</td><td>String</td><td>The key's id</td></tr></tbody></table>"
        '<h3>Error</h3><pre><code>{"code": 20404, "message": "Not found"}</code></pre>'
    )
    token = _crawl(tmp_path, page)["paths"]["/v1/token"]["post"]
    assert "requestBody" not in token and "content" not in token["responses"].get("201", {})


def test_a_description_of_a_type_link_alone_names_no_schema() -> None:
    from openapi_rag.crawl.tables import field_rows

    rows = [["Name", "Description", "Required"], ["body", "RejectsList", "X"], ["type", "[String]", "X"]]
    links = [["", "", ""], ["", "RejectsList", ""], ["", "String", ""]]
    by_name = {row.name: row for row in field_rows(rows, True, links)}
    assert by_name["body"].ref == "RejectsList" and by_name["body"].type == "object"
    assert by_name["type"].ref == "" and by_name["type"].type != "object"  # "[String]" links to a type's docs


def test_a_dotted_schema_name_alone_names_the_body(tmp_path: Path) -> None:
    # "Request Body", then a namespaced schema's name alone (a link), longer than a short run: the body's schema
    page = (
        "<h2>POST /v1/apps</h2><p>Creates an app.</p><h3>Request Body</h3>"
        '<p><a href="#iam.v1.account.appcreaterequest">iam.v1.account.AppCreateRequest</a></p>'
        "<h3>Responses</h3><h4>201</h4><p>Created</p>"
        "<h2>DELETE /v1/apps/{sid}</h2><p>Deletes an app.</p><h3>Responses</h3><h4>204</h4><p>Deleted</p>"
        '<h1>Components</h1><h2 id="iam.v1.account.appcreaterequest">iam.v1.account.AppCreateRequest</h2>'
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>friendly_name</td><td>string</td><td>A name</td></tr>"
        "<tr><td>owner_sid</td><td>string</td><td>The owner</td></tr></tbody></table>"
    )
    assert _body_fields(_crawl(tmp_path, page), "/v1/apps") == {"friendly_name", "owner_sid"}


def test_the_responses_no_status_names_are_the_default() -> None:
    from openapi_rag.crawl.labels import label_status

    assert label_status("application/json | other responses") == "default"
    assert label_status("response example (default )") == "default"
    assert label_status("response example (200 ok)") == "200"


def _mkdocs_operation(method: str, path: str, rest: str) -> str:
    return (
        f"<h3>{method} {path}</h3><p>Description deletes a single pet</p><p>Input parameters</p>"
        "<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>id</td><td>path</td><td>integer</td><td>ID of pet</td></tr></tbody></table>" + rest
    )


def test_fields_under_other_responses_are_the_default(tmp_path: Path) -> None:
    # "Response 204 No Content" (nothing under it), then "Other responses" over the error's example and schema:
    # a success of no body, the error's fields the default response's
    generated = (
        "<p><em>This example has been generated automatically from the schema and it is not accurate. Refer to "
        "the schema for more information.</em></p>"
    )
    schema = (
        '<p><strong>Schema of the response body</strong></p><pre><code>{"properties": {"code": {"type": "integer"},'
        ' "message": {"type": "string"}}, "required": ["code", "message"], "type": "object"}</code></pre>'
    )
    example = '<pre><code>{"code": 261, "message": "string"}</code></pre>'
    other = (
        f"<h3>Other responses</h3><p><strong>application/json</strong></p>{example}{generated}{schema}"
        f"<p><strong>application/xml</strong></p>{example}{generated}<p><em>Other possible types: text/xml</em></p>"
        f"{schema}"
    )
    page = _mkdocs_operation("DELETE", "/pets/{id}", f"<h3>Response 204 No Content</h3>{other}")
    page += _mkdocs_operation(
        "GET", "/pets/{id}", f"<h3>Response 200 OK</h3><p>Schema of the response body</p>"
        f"{_field_table(('name', 'string'))}{other}"
    )
    responses = _crawl(tmp_path, f"<h2>Pets</h2>{page}")["paths"]["/pets/{id}"]["delete"]["responses"]
    assert "204" in responses and "content" not in responses["204"]
    assert set(responses["default"]["content"]["application/json"]["schema"]["properties"]) == {"code", "message"}
