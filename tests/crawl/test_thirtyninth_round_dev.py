"""Issue 17's thirty-ninth round: rules written on the first development set (benchmarks/crawl/dev), never on the
benchmark's 38 specs nor the held-out eleven. A schema the page documents as one type, no fields (a heading
"SocialSecurityNumber: string"; a heading "Gender" over the run "Type: string | null"; an "Enum Values" table alone),
types the fields whose type cell names it (`scalar_sections`); a bracketed link on a page that writes lists as
"List of [X]" is one object (`bracket_links`); a default value types a field of a table with no type column
(`default_types`); a type cell listing keys is an object (`property_lists`); an "X-" parameter is a header
(`custom_headers`); a request sent as a form takes its placeless parameters in its body (`build`, the dev2 round's
form rule, which this one duplicated and was merged into); "Type: Birth
Date" is a field's type run (`runs`). Each on a small fragment of the structure (each fails without its rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.scalar_sections import stated_type


def _crawl(tmp_path: Path, body: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(f"<html><body><h1>Employees API</h1>{body}</body></html>", encoding="utf-8")
    return crawl_pages([page]).document


def _body_properties(document: dict, path: str, method: str = "post") -> dict:
    content = document["paths"][path][method]["requestBody"]["content"]
    return next(iter(content.values()))["schema"]["properties"]


def test_a_type_word_is_stated_and_a_schema_name_is_not() -> None:
    assert stated_type("string | null") == "string"
    assert stated_type("Array<string>") == "array"
    assert stated_type("integer (int64)") == "integer"
    assert stated_type("object[]") == "array"
    assert stated_type("string , x ∈ { male , female }") == "string"
    assert stated_type("array of string") == "array" and stated_type("Address[]") == "array"
    assert stated_type("object") is None and stated_type("Pet") is None
    assert stated_type("Date of birth") is None and stated_type("String values are trimmed") is None


_OPERATION = (
    "<h2>Create an employee</h2><pre><code>POST /employees</code></pre><p>Request body</p>"
    "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>first_name</td><td>string</td><td>First name.</td></tr>"
    '<tr><td>social_security_number</td><td><a href="#socialsecuritynumber">SocialSecurityNumber</a></td><td></td></tr>'
    '<tr><td>tags</td><td><a href="#tags">Tags</a></td><td></td></tr>'
    '<tr><td>address</td><td><a href="#address">Address</a></td><td></td></tr>'
    "</tbody></table>"
)
_ADDRESS = (
    '<h3 id="address">Address</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>'
    "<tbody><tr><td>city</td><td>string</td><td>City.</td></tr></tbody></table>"
)


def test_a_field_typed_by_a_schema_stated_under_its_heading_as_one_type_is_of_that_type(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        _OPERATION
        + "<h2>Schemas</h2>"
        + _ADDRESS
        + '<h3 id="socialsecuritynumber">SocialSecurityNumber</h3><p>Type: string | null</p>'
        + '<h3 id="tags">Tags</h3><p>Type: Array&lt;string&gt;</p>',
    )
    properties = _body_properties(document, "/employees")
    assert properties["social_security_number"]["type"] == "string"
    assert properties["tags"]["type"] == "array"
    assert properties["address"]["type"] == "object"  # a schema of fields stays an object


def test_a_schema_heading_that_states_its_type_types_the_fields_naming_it(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        _OPERATION
        + "<h2>Definitions</h2>"
        + _ADDRESS
        + '<h3 id="socialsecuritynumber">SocialSecurityNumber: string</h3><p>A unique identifier.</p>'
        + '<h3 id="tags">Tags: object</h3><p>Free-form tags.</p>',
    )
    properties = _body_properties(document, "/employees")
    assert properties["social_security_number"]["type"] == "string"
    assert properties["tags"]["type"] == "object"  # a heading stating an object changes nothing


def test_an_enum_table_alone_under_a_schema_heading_states_its_type(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        _OPERATION.replace("SocialSecurityNumber</a>", "Status</a>").replace("#socialsecuritynumber", "#Status")
        + "<h2>Models</h2>"
        + _ADDRESS
        + '<h3 id="Status">3.12. <em>Status</em> Employment status</h3><p>The employment status.</p>'
        + "<table><thead><tr><th>Enum Values</th></tr></thead><tbody>"
        + "<tr><td>active</td></tr><tr><td>inactive</td></tr></tbody></table>",
    )
    assert _body_properties(document, "/employees")["social_security_number"]["type"] == "string"


def test_a_long_enum_in_a_schema_heading_still_states_its_type(tmp_path: Path) -> None:
    values = " , ".join(f"C{i:03d}" for i in range(120))  # a heading longer than 200 characters
    document = _crawl(
        tmp_path,
        _OPERATION.replace("#socialsecuritynumber", "#/definitions/Currency")
        + "<h2>Definitions</h2>"
        + _ADDRESS
        + f'<h3 id="/definitions/Currency">Currency: string , x ∈ {{ {values} }}</h3><p>A currency.</p>',
    )
    assert _body_properties(document, "/employees")["social_security_number"]["type"] == "string"



_BRACKETED = (
    "<h2>Get an IP</h2><pre><code>GET /ips/{ip}</code></pre><h3>Return Type</h3>"
    '<p><a href="#IpInfo">IpInfo</a></p>'
    "<h2>Models</h2>"
    '<h3 id="IpInfo">IpInfo</h3><table><thead><tr><th>Field Name</th><th>Required</th><th>Type</th>'
    "<th>Description</th></tr></thead><tbody>"
    "<tr><td>ip</td><td></td><td>String</td><td></td></tr>"
    '<tr><td>warmup</td><td></td><td><a href="#ip_info_warmup">[ip_info_warmup]</a></td><td></td></tr>'
    '<tr><td>tags</td><td></td><td>List of <a href="#string">[string]</a></td><td></td></tr>'
    "</tbody></table>"
)


def test_a_bracketed_link_on_a_page_of_list_of_words_is_one_object(tmp_path: Path) -> None:
    document = _crawl(tmp_path, _BRACKETED)
    schema = document["paths"]["/ips/{ip}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["warmup"]["type"] == "object"
    assert schema["properties"]["tags"]["type"] == "array"
    # a page that never writes "List of [X]": brackets alone still say a list
    document = _crawl(tmp_path, _BRACKETED.replace("List of ", ""))
    schema = document["paths"]["/ips/{ip}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["warmup"]["type"] == "array"


def _parameters(document: dict, path: str, method: str) -> dict:
    return {p["name"]: p for p in document["paths"][path][method].get("parameters", [])}


def test_a_default_value_types_a_field_of_a_table_with_no_type_column(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h2>List companies</h2><pre><code>GET /companies</code></pre><h3>Query Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>Description</th><th>Required</th><th>Default</th></tr></thead><tbody>"
        "<tr><td>raw</td><td>Include raw response</td><td>-</td><td>false</td></tr>"
        "<tr><td>limit</td><td>Number of results to return</td><td>-</td><td>20</td></tr>"
        "<tr><td>cursor</td><td>Cursor to start from</td><td>-</td><td>null</td></tr>"
        "</tbody></table>",
    )
    parameters = _parameters(document, "/companies", "get")
    assert parameters["raw"]["schema"]["type"] == "boolean"
    assert parameters["limit"]["schema"]["type"] == "integer"
    assert parameters["cursor"]["schema"]["type"] == "string"  # "null" shows no type: the default one


def test_a_type_cell_listing_properties_is_an_object(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h2>List employees</h2><pre><code>GET /employees</code></pre><h3>Response 200 OK</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>cursors</td><td>_Properties: _<code>previous, current, next</code></td><td>Cursors.</td></tr>"
        "<tr><td>items_on_page</td><td>integer</td><td>Items returned.</td></tr></tbody></table>",
    )
    schema = document["paths"]["/employees"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["cursors"]["type"] == "object"


def test_a_parameter_named_with_the_custom_header_prefix_is_a_header(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h2>GET /companies</h2><h3>Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>raw</td><td>boolean</td><td></td><td>Include raw response</td></tr>"
        "<tr><td>x-apideck-consumer-id</td><td>string</td><td>True</td><td>ID of the consumer</td></tr>"
        "</tbody></table>",
    )
    parameters = _parameters(document, "/companies", "get")
    assert parameters["x-apideck-consumer-id"]["in"] == "header"
    assert parameters["raw"]["in"] == "query"


def test_parameters_of_a_request_sent_as_a_form_are_its_body(tmp_path: Path) -> None:
    page = (
        "<h1><strong>updateKey</strong></h1><blockquote><p>Key updateKey(Sid, FriendlyName)</p></blockquote>"
        "<pre><code>POST /v1/Keys/{Sid}</code></pre><h3>Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead><tbody>"
        "<tr><td><strong>Sid</strong></td><td><strong>String</strong></td><td>The key's id.</td><td></td></tr>"
        "<tr><td><strong>FriendlyName</strong></td><td><strong>String</strong></td><td>A name.</td>"
        "<td>[optional]</td></tr><tr><td><strong>Body</strong></td><td><strong>String</strong></td><td>The text.</td>"
        "<td>[optional]</td></tr></tbody></table>"
        "<h3>HTTP request headers</h3><ul><li><strong>Content-Type</strong>: application/x-www-form-urlencoded</li>"
        "<li><strong>Accept</strong>: application/json</li></ul>"
    )
    operation = _crawl(tmp_path, page)["paths"]["/v1/Keys/{Sid}"]["post"]
    assert "FriendlyName" in _body_properties({"paths": {"/k": {"post": operation}}}, "/k")
    # a field named as the body's own wrapper ("Body", a message's text) keeps its name, as a parameter
    assert set(_parameters({"paths": {"/k": {"post": operation}}}, "/k", "post")) == {"Sid", "Body"}
    # sent as JSON: a parameter of no stated place stays in the query
    operation = _crawl(tmp_path, page.replace("application/x-www-form-urlencoded", "application/json"))
    assert _parameters(operation, "/v1/Keys/{Sid}", "post")["FriendlyName"]["in"] == "query"


def test_a_type_said_as_a_schemas_title_is_a_fields_type_run(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h3>Create Employee</h3><pre><code>POST /employees</code></pre><h4>Body</h4>"
        "<div><div><span>application/json</span></div>"
        "<div><div>first_name</div><div><span>Type: </span><span>string</span></div>"
        "<div><p>The first name.</p></div></div>"
        "<div><div>birthday</div><div><span>Type: </span><span>Birth Date</span></div><div>Format: date</div>"
        "<div><p>The date of birth of the person.</p></div></div>"
        "<div><div>company_id</div><div><span>Type: </span><span>Company ID</span></div>"
        "<div><p>The unique identifier of the company.</p></div></div></div>",
    )
    properties = _body_properties(document, "/employees")
    assert {"first_name", "birthday", "company_id"} <= set(properties)
    assert properties["birthday"]["type"] == "string"  # its format's
