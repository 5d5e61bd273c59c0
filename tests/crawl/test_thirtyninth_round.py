"""Issue 17's thirty-ninth round: rules written on the second development set (benchmarks/crawl/dev2), never on the
benchmark's 38 specs nor the held-out eleven. A headerless row whose name cell states the type keeps its description
whole (`tables._shape_row`); a table inside a schema drawn as a tree of runs is a field's note
(`code_blocks.join_json_runs`); an example's own name says nothing of request or response (`labels.label_kind`); an
object of untyped references, each named as a documented schema, has their fields, and a bare list named as a
schema's plural holds that schema (`row_schemas`); a parameter of no stated place named as headers are is a header,
and one of an operation that says it sends a form is a form field (`build`); a string's format drawn in a tree where
the type would be declares a field (`declarations`). Each on a small fragment of the structure (each fails without
its rule)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.declarations import declaration_runs
from openapi_rag.crawl.labels import label_kind


def _crawl(tmp_path: Path, body: str) -> dict[str, Any]:
    page = tmp_path / "api.html"
    page.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return crawl_pages([page]).document


def _response_schema(operation: dict[str, Any], status: str = "200") -> dict[str, Any]:
    content = operation["responses"][status]["content"]
    return next(iter(content.values()))["schema"]


def test_a_name_cell_that_states_the_type_leaves_the_description_whole(tmp_path: Path) -> None:
    # A form body drawn as a table with no header row: the name cell holds the name, a mark and the type; the
    # description's capitalised first word ("You", "The") is no schema's name.
    document = _crawl(
        tmp_path,
        "<h3>Request a verification</h3><div><span>POST</span><span>/verify/{format}</span></div>"
        "<h4>Request body</h4><table><tbody>"
        "<tr><td><div>api_key<span> *</span></div><div>string</div></td>"
        "<td><p>You can find your API key in your account dashboard</p></td></tr>"
        "<tr><td><div>code_length</div><div>integer</div></td><td><p>The length of the code.</p></td></tr>"
        "</tbody></table>",
    )
    body = document["paths"]["/verify/{format}"]["post"]["requestBody"]["content"]
    properties = next(iter(body.values()))["schema"]["properties"]
    assert properties["api_key"]["type"] == "string"
    assert properties["api_key"]["description"].startswith("You can find")
    assert properties["code_length"]["type"] == "integer"


def test_a_table_inside_a_schema_tree_is_a_fields_note(tmp_path: Path) -> None:
    # A oneOf drawn as a tree of runs, one field's enum drawn as a table inside it: the tree goes on after it.
    document = _crawl(
        tmp_path,
        "<h2>Request a verification</h2><div><span>post</span> <span>/{format}</span></div>"
        "<div>RESPONSE</div><div><span>200</span><div><p>OK</p></div>"
        "<div>application/json</div><div><div>object</div><div><span>{</span></div>"
        "<div><span>ONE OF</span></div><div><span>1</span> <span>{</span></div>"
        "<div><span>request_id:</span> <span>string</span></div>"
        "<div><span>status:</span> <span>string</span></div><div>}</div>"
        "<div><span>2</span> <span>{</span></div><div><span>status:</span> <span>enum</span></div>"
        "<table><thead><tr><th>Code</th><th>Text</th></tr></thead>"
        "<tbody><tr><td>0</td><td>Success</td></tr><tr><td>1</td><td>Throttled</td></tr></tbody></table>"
        "<div><span>error_text:</span> <span>string</span></div><div>}</div><div>}</div></div></div>",
    )
    schema = _response_schema(document["paths"]["/{format}"]["post"])
    assert {"request_id", "status", "error_text"} <= set(schema["properties"])


def test_an_examples_own_name_says_nothing_of_request_or_response() -> None:
    # Nearest first: the picker's button, the caption naming the example, the media type, the status.
    label = "copy | the request has been cancelled | example: the request has been cancelled | application/json | 200"
    assert label_kind(label) == "response"
    assert label_kind("request was started | example: request was started | response samples") == "response"
    # Where nothing farther says, the name still does.
    assert label_kind("example: request body") == "request"


def test_a_response_example_named_as_a_request_is_the_responses(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h2>Verify Control</h2><div>post /control/{format}</div><h3>Responses</h3><div>200</div><div>OK</div>"
        "<h3>Response samples</h3><div>200</div><div>Content type</div><div>application/json</div>"
        "<div>Example: The request has been cancelled</div><div>The request has been cancelled</div>"
        '<div>Copy</div><pre><code>{"status": "0", "command": "cancel"}</code></pre>',
    )
    operation = document["paths"]["/control/{format}"]["post"]
    assert set(_response_schema(operation)["properties"]) == {"status", "command"}
    assert "requestBody" not in operation


_SECTIONS = (
    "<h2>Pagination</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>page</td><td>integer</td><td></td></tr><tr><td>pageSize</td><td>integer</td><td></td></tr>"
    "</tbody></table>"
    "<h2>Problem</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>title</td><td>string</td><td>The type of the error</td></tr>"
    "<tr><td>invalidFields</td><td>array</td><td></td></tr></tbody></table>"
    "<h2>InvalidField</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>name</td><td>string</td><td>The field's name</td></tr>"
    "<tr><td>reason</td><td>string</td><td>Why it failed</td></tr></tbody></table>"
    "<h2>EarningsRate</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>earningsRateID</td><td>string</td><td>The rate's id</td></tr>"
    "<tr><td>ratePerUnit</td><td>number</td><td>The rate</td></tr></tbody></table>"
)


def test_an_object_of_untyped_references_has_the_fields_of_the_schemas_they_name(tmp_path: Path) -> None:
    # Every row of the response's schema leaves its type cell empty (references its renderer does not print), and
    # each is named as a schema the page documents: each is that schema.
    document = _crawl(
        tmp_path,
        "<h2>GET /EarningsRates/{EarningsRateID}</h2><h3>Responses</h3><h4>200</h4><p>search results</p>"
        '<p><a href="#earningsrateobject">EarningsRateObject</a></p>'
        "<h2>EarningsRateObject</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>pagination</td><td></td><td></td></tr><tr><td>problem</td><td></td><td></td></tr>"
        "<tr><td>earningsRate</td><td></td><td></td></tr></tbody></table>" + _SECTIONS,
    )
    schema = _response_schema(document["paths"]["/EarningsRates/{EarningsRateID}"]["get"])
    properties = schema["properties"]
    assert set(properties["pagination"]["properties"]) == {"page", "pageSize"}
    assert set(properties["earningsRate"]["properties"]) == {"earningsRateID", "ratePerUnit"}
    # "invalidFields | array": a bare list named as InvalidField's plural holds InvalidFields.
    invalid = properties["problem"]["properties"]["invalidFields"]
    assert invalid["type"] == "array"
    assert set(invalid["items"]["properties"]) == {"name", "reason"}


def test_untyped_rows_not_all_named_as_schemas_stay_fields(tmp_path: Path) -> None:
    # A list of the page's tags drawn as a table (no row states a type, "store" names no schema): no references.
    document = _crawl(
        tmp_path,
        "<h2>GET /pets</h2><h3>Responses</h3><h4>200</h4><p>OK</p>"
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>pagination</td><td></td><td></td></tr><tr><td>store</td><td></td><td></td></tr></tbody></table>"
        + _SECTIONS,
    )
    properties = _response_schema(document["paths"]["/pets"]["get"])["properties"]
    assert "properties" not in properties["pagination"]


def test_a_list_whose_items_the_page_states_holds_them(tmp_path: Path) -> None:
    # "invalidFields | string[]" says its items are strings: no InvalidField objects, though the name is its plural.
    document = _crawl(
        tmp_path,
        "<h2>GET /checks</h2><h3>Responses</h3><h4>200</h4><p>OK</p>"
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>title</td><td>string</td><td></td></tr>"
        "<tr><td>invalidFields</td><td>string[]</td><td></td></tr></tbody></table>" + _SECTIONS,
    )
    invalid = _response_schema(document["paths"]["/checks"]["get"])["properties"]["invalidFields"]
    assert invalid["type"] == "array"
    assert "properties" not in (invalid.get("items") or {})


_GENERATED = (
    "<h1>Methods</h1><table><thead><tr><th>Method</th><th>HTTP request</th><th>Description</th></tr></thead>"
    "<tbody><tr><td>verifyControl</td><td><strong>POST</strong> /control/{format}</td><td>Verify Control</td></tr>"
    "</tbody></table>"
    '<p><a name="verifyControl"></a></p><h1><strong>verifyControl</strong></h1><p>Verify Control</p>'
    "<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr>"
    "</thead><tbody>"
    "<tr><td><strong>format</strong></td><td><strong>String</strong></td><td>The response format.</td><td></td></tr>"
    "<tr><td><strong>Xero-Tenant-Id</strong></td><td><strong>String</strong></td><td>Tenant</td><td></td></tr>"
    "<tr><td><strong>x-request-timeout</strong></td><td><strong>Integer</strong></td><td>Timeout</td><td></td></tr>"
    "<tr><td><strong>request_id</strong></td><td><strong>String</strong></td><td>The request's id.</td><td></td></tr>"
    "</tbody></table><h3>HTTP request headers</h3>"
)


def test_a_name_shaped_as_headers_are_named_is_a_header(tmp_path: Path) -> None:
    # One table of every parameter, no place column: a name of capitalised words joined by hyphens, or with a
    # custom header's "x-" prefix, is a header; any other name no place states stays a query parameter.
    document = _crawl(tmp_path, _GENERATED + "<ul><li><strong>Accept</strong>: application/json</li></ul>")
    places = {p["name"]: p["in"] for p in document["paths"]["/control/{format}"]["post"]["parameters"]}
    assert places == {"format": "path", "Xero-Tenant-Id": "header", "x-request-timeout": "header", "request_id": "query"}


def test_the_parameters_of_an_operation_that_sends_a_form_are_its_fields(tmp_path: Path) -> None:
    # The operation's request headers say it sends a form: a parameter of no stated place, neither in the path nor
    # a header, is one of the form's fields.
    document = _crawl(
        tmp_path,
        _GENERATED + "<ul><li><strong>Content-Type</strong>: application/x-www-form-urlencoded</li>"
        "<li><strong>Accept</strong>: application/json</li></ul>",
    )
    operation = document["paths"]["/control/{format}"]["post"]
    places = {p["name"]: p["in"] for p in operation["parameters"]}
    assert places == {"format": "path", "Xero-Tenant-Id": "header", "x-request-timeout": "header"}
    body = next(iter(operation["requestBody"]["content"].values()))["schema"]
    assert set(body["properties"]) == {"request_id"}


def test_a_format_drawn_where_the_type_would_be_declares_a_field(tmp_path: Path) -> None:
    # A schema tree whose string fields show their format in the type's place ("url: uri┃null"); an example's
    # value after a name ("email: ops@example.com") stays no declaration.
    document = _crawl(
        tmp_path,
        "<h2>Fetch an end user</h2><div><span>get</span> <span>/v1/EndUsers/{Sid}</span></div>"
        "<div>RESPONSE</div><div><span>200</span><div><p>OK</p></div>"
        "<div>application/json</div><div><div>object</div><div><span>{</span></div>"
        "<div><span>sid:</span> <span>string┃null</span></div>"
        "<div><span>url:</span> <span>uri┃null</span></div><div><p>The URL of this resource.</p></div>"
        "<div>}</div></div></div>",
    )
    properties = _response_schema(document["paths"]["/v1/EndUsers/{Sid}"]["get"])["properties"]
    assert properties["url"]["type"] == "string"
    assert "sid" in properties
    assert declaration_runs(["{", "email: ops@example.com", "}"]) is None
