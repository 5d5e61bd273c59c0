"""Issue 17's fortieth round: rules written on the third development set (benchmarks/crawl/dev3), never on the
benchmark's 38 specs nor the held-out eleven, about a request's fields. A body that is a list of a schema (a Swagger 2
body parameter of `type: array`, Xero's "array of Employee") is drawn by generators as a row whose type cell links to
the schema ("Timesheet | [List](Models/Timesheet.md)"), as one run ("Timesheet array[Timesheet] (required)") or only as
an example under the request's "Headers"; an enum's model page draws a field table's header and no row; a field's
"Enum:" values drawn one run each belong to it; where no heading heads an operation, the previous operation's
"Responses" and "200" headings are not the next one's part; a lone required body parameter that says nothing else names
the body; a form body may be drawn as YAML lines; a row of one sentence continues the description above. Each on a
small fragment of the structure (each fails without its rule)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from openapi_rag.crawl import crawl_pages


def _crawl(tmp_path: Path, body: str) -> dict[str, Any]:
    page = tmp_path / "api.html"
    page.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return crawl_pages([page]).document


def _body(operation: dict[str, Any]) -> dict[str, Any]:
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    return schema.get("items", schema) if schema.get("type") == "array" else schema


_MODEL = (
    "<h1>Timesheet</h1><h2>Properties</h2>"
    "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead>"
    "<tbody><tr><td><strong>EmployeeID</strong></td><td><strong>UUID</strong></td><td>The employee</td>"
    "<td>[default to null]</td></tr>"
    "<tr><td><strong>Hours</strong></td><td><strong>Double</strong></td><td>Total hours</td>"
    "<td>[optional] [default to null]</td></tr></tbody></table>"
)


def test_a_parameter_row_linking_a_list_to_a_schema_is_a_body_of_that_schema(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>PayrollApi</h1>"
        "<table><thead><tr><th>Method</th><th>HTTP request</th><th>Description</th></tr></thead>"
        '<tbody><tr><td><a href="PayrollApi.md#createTimesheet"><strong>createTimesheet</strong></a></td>'
        "<td><strong>POST</strong> /Timesheets</td><td>Creates a timesheet</td></tr></tbody></table>"
        '<p><a name="createTimesheet"></a></p><h1><strong>createTimesheet</strong></h1>'
        "<blockquote><p>Timesheets createTimesheet(Xero-Tenant-Id, Timesheet)</p></blockquote>"
        "<h3>Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead>"
        "<tbody><tr><td><strong>Xero-Tenant-Id</strong></td><td><strong>String</strong></td><td>Tenant</td>"
        "<td>[default to null]</td></tr>"
        '<tr><td><strong>Timesheet</strong></td><td><a href="../Models/Timesheet.md"><strong>List</strong></a></td>'
        "<td></td><td></td></tr></tbody></table>" + _MODEL,
    )
    operation = document["paths"]["/Timesheets"]["post"]
    assert "Timesheet" not in {p["name"] for p in operation.get("parameters", [])}
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert schema["type"] == "array"
    assert {"EmployeeID", "Hours"} <= set(schema["items"]["properties"])


def test_a_body_run_naming_a_list_of_a_schema_is_that_schema(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>Timesheets</h1>"
        '<div><a></a> <div> <a href="#__Methods">Up</a> <pre><code><span>post</span> /Timesheets</code></pre></div>'
        "<div>Creates a timesheet (<span>createTimesheet</span>)</div>"
        '<h3>Request body</h3> <div> <div>Timesheet array[<a href="#Timesheet">Timesheet</a>] (required)</div>'
        "<div><span>Body Parameter</span> — </div> </div>"
        "<h3>Responses</h3> <h4>200</h4> A successful request </div> <hr>"
        "<h2><a>Models</a></h2>"
        '<div> <h3><a><code>Timesheet</code> - </a> <a href="#__Models">Up</a></h3> <div></div> <div>'
        '<div>EmployeeID </div><div><span><a href="#UUID">UUID</a></span> The employee format: uuid</div>'
        '<div>Hours (optional)</div><div><span><a href="#double">Double</a></span> Total hours</div> </div></div>',
    )
    operation = document["paths"]["/Timesheets"]["post"]
    assert {"EmployeeID", "Hours"} <= set(_body(operation)["properties"])
    assert "array[" not in operation.get("description", "")


def test_json_under_a_request_headers_heading_is_the_request_body(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>API</h1><h3>POST <code>/Timesheets</code></h3><h4>Summary</h4><p>Creates a timesheet</p>"
        "<h4>Request</h4><h5>Headers</h5><pre>Xero-Tenant-Id: Xero identifier for Tenant\n</pre>"
        '<pre>[{"EmployeeID": "somestring", "Hours": 1, "TimesheetLines": [{"EarningsRateID": "x"}]}]</pre>'
        '<h4>Responses</h4><h5>200</h5><p>A successful request</p><pre>{"Timesheets": [{"TimesheetID": "x"}]}</pre>',
    )
    operation = document["paths"]["/Timesheets"]["post"]
    assert {"EmployeeID", "Hours", "TimesheetLines"} <= set(_body(operation)["properties"])
    response = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert "oneOf" not in response and set(response["properties"]) == {"Timesheets"}



def test_a_field_linking_to_a_model_page_of_no_rows_is_a_string(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>API</h1><h2>POST /Timesheets</h2><h3>Request body</h3>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>EmployeeID</td><td>String</td><td>The id</td></tr>"
        '<tr><td>Status</td><td><a href="TimesheetStatus.md">TimesheetStatus</a></td><td></td></tr></tbody></table>'
        "<h3>Responses</h3><h4>200</h4><p>OK</p>"
        "<h1>TimesheetStatus</h1><h2>Properties</h2>"
        "<table><thead><tr><th>Name</th><th>Type</th><th>Description</th><th>Notes</th></tr></thead></table>"
        '<p><a href="../README.md">[Back to README]</a></p>',
    )
    assert _body(document["paths"]["/Timesheets"]["post"])["properties"]["Status"]["type"] == "string"


def test_the_previous_operations_response_headings_are_not_the_next_operations_part(tmp_path: Path) -> None:
    def operation(method: str, path: str, parts: str) -> str:
        return (
            f'<div><a></a> <div> <a href="#__Methods">Up</a> <pre><code><span>{method}</span> {path}</code></pre></div>'
            f"<div> (<span>op</span>)</div> <div>Does something with {path}.</div> {parts}"
            "<h3>Responses</h3> <h4>200</h4> Successful Response </div> <hr>"
        )

    query = (
        "<h3>Query parameters</h3> <div> <div>filter (optional)</div> <div><span>Query Parameter</span> — a filter "
        "default: null </div><div>startAt (optional)</div> <div><span>Query Parameter</span> — the index "
        "default: null format: int32</div> </div>"
    )
    document = _crawl(
        tmp_path,
        "<h1>JIRA</h1><h1><a>Dashboard</a></h1>"
        + operation("post", "/api/2/worklog/list", "")
        + operation("post", "/api/2/issueLink", "")
        + operation("get", "/api/2/dashboard", query),
    )
    names = {p["name"] for p in document["paths"]["/api/2/dashboard"]["get"].get("parameters", [])}
    assert {"filter", "startAt"} <= names


def test_an_untyped_field_named_exactly_as_a_schema_is_an_object(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>API</h1><h2>POST /Employees</h2><h3>Request Body</h3>"
        '<p><a href="#employee">Employee</a></p><h3>Responses</h3><h4>200</h4><p>OK</p>'
        "<h1>Components</h1><h2>Employee</h2>"
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>FirstName</td><td>string</td><td></td></tr>"
        "<tr><td>HomeAddress</td><td></td><td></td></tr></tbody></table>"
        "<h2>HomeAddress</h2>"
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td>City</td><td>string</td><td></td></tr></tbody></table>",
    )
    properties = _body(document["paths"]["/Employees"]["post"])["properties"]
    assert properties["HomeAddress"]["type"] == "object" and "City" not in properties


def test_a_lone_body_parameter_of_no_type_and_no_words_names_the_body_not_a_field(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>API</h1>"
        '<div id="api-projectsPost"><article><div><h1>projectsPost</h1><p>Create a new project</p></div>'
        "<pre><code><span>/projects</span></code></pre><h3>Usage and SDK Samples</h3>"
        '<pre><code>curl -X POST -H "Content-Type: application/json" "https://api.example.com/projects" -d \'\'</code></pre>'
        "<h2>Parameters</h2> <div>Body parameters</div> <table> <tr> <th>Name</th> <th>Description</th> </tr>"
        '<tr><td>projectsPostRequest <span>*</span></td> <td> <p></p> <div id="d2e199_projectsPostRequest"></div> '
        "</td> </tr> </table><h2>Responses</h2><h3>Status: 201 - Created</h3></article></div>",
    )
    operation = document["paths"]["/projects"]["post"]
    assert "requestBody" not in operation
    assert "projectsPostRequest" not in {p["name"] for p in operation.get("parameters", [])}


def test_a_fields_listed_values_do_not_end_the_fields_drawn_as_runs(tmp_path: Path) -> None:
    reasons = "".join(f"<li><code>{v}</code> Reason {v} - why an employment ends this way</li>" for v in "VIDRFCT")
    values = "".join(f"<div>{v}</div>" for v in "VIDRFCT")
    document = _crawl(
        tmp_path,
        "<h1>Employees</h1>"
        '<div><a></a> <div> <a href="#__Methods">Up</a> <pre><code><span>post</span> /Employees</code></pre></div>'
        "<div>Creates an employee (<span>createEmployee</span>)</div>"
        '<h3>Request body</h3> <div> <div>Employee <a href="#Employee">Employee</a> (required)</div>'
        "<div><span>Body Parameter</span> — </div> </div>"
        "<h3>Responses</h3> <h4>200</h4> A successful request </div> <hr><h2><a>Models</a></h2>"
        '<div> <h3><a><code>Employee</code> - </a> <a href="#__Models">Up</a></h3> <div></div> <div> '
        '<div>FirstName </div><div><span><a href="#string">String</a></span> First name </div> '
        f'<div>TerminationReason (optional)</div><div><span><a href="#string">String</a></span> <ul>{reasons}</ul></div>'
        f"<div>Enum:</div> {values} "
        '<div>IsSTP2Qualified (optional)</div><div><span><a href="#boolean">Boolean</a></span> Qualified </div> '
        '<div>UpdatedDateUTC (optional)</div><div><span><a href="#string">String</a></span> Last modified </div> '
        "</div></div>",
    )
    properties = _body(document["paths"]["/Employees"]["post"])["properties"]
    assert {"FirstName", "TerminationReason", "IsSTP2Qualified", "UpdatedDateUTC"} <= set(properties)


def test_a_form_body_drawn_as_yaml_lines_under_the_request_label_gives_its_fields(tmp_path: Path) -> None:
    from openapi_rag.crawl.yaml_bodies import parse_yaml_mapping

    assert parse_yaml_mapping("moCallBackUrl: https://example.com/in\ndrCallBackUrl: https://example.com/dr") == {
        "moCallBackUrl": "https://example.com/in",
        "drCallBackUrl": "https://example.com/dr",
    }
    assert parse_yaml_mapping("Content-Type: application/json\nAccept: text/plain") is None  # headers
    assert parse_yaml_mapping("GET /pets HTTP/1.1") is None and parse_yaml_mapping("Some words: here") is None
    document = _crawl(
        tmp_path,
        "<h1>Account API</h1><h2>Top Up Account Balance</h2><p>Code samples</p>"
        "<pre><code>POST /account/top-up</code></pre><p>You can top up your account.</p>"
        "<blockquote><p>Body parameter</p></blockquote>"
        '<pre><code class="language-yaml">trx: 8ef2447e69604f642ae59363aa5f781b\n\n</code></pre>'
        "<h3>Parameters</h3><table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Required</th>"
        "<th>Description</th></tr></thead><tbody><tr><td>api_key</td><td>query</td><td>string</td><td>true</td>"
        "<td>Your key</td></tr></tbody></table>",
    )
    assert "trx" in _body(document["paths"]["/account/top-up"]["post"])["properties"]


def test_a_row_of_one_sentence_with_empty_cells_continues_the_description_above(tmp_path: Path) -> None:
    document = _crawl(
        tmp_path,
        "<h1>Account API</h1><h2>GET /accounts/{api_key}/secrets</h2><p>Retrieve secrets</p><h3>Parameters</h3>"
        "<table><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Default</th><th>Nullable</th><th>Description</th>"
        "</tr></thead><tbody><tr><td>Authorization</td><td>header</td><td>string</td><td>N/A</td><td>No</td>"
        "<td>Provide an <code>Authorization</code> header.</td></tr>"
        "<tr><td>If your API key were aaa012 and your API secret were abc123456789 then your HTTP header would be: "
        "<code>Authorization: Basic YWFh</code></td><td></td><td></td><td></td><td></td><td></td></tr>"
        "<tr><td>api_key</td><td>path</td><td>string</td><td></td><td>No</td><td>Your key</td></tr></tbody></table>",
    )
    names = {p["name"] for p in document["paths"]["/accounts/{api_key}/secrets"]["get"]["parameters"]}
    assert "If" not in names and {"Authorization", "api_key"} <= names


def test_a_response_heading_under_no_heading_before_any_operation_ends(tmp_path: Path) -> None:
    # The rule above climbed from a response label to the heading over it; with none over it and no operation
    # before, it looked at the same block forever (a held-out page hung the crawl). Run apart, so a return of
    # the loop fails this test instead of hanging the suite.
    page = tmp_path / "p.html"
    page.write_text(
        "<html><body><h2>Responses</h2><p>x</p><p><code>GET /a</code></p><h2>Responses</h2><p>200 OK</p></body></html>",
        encoding="utf-8",
    )
    code = (
        "from pathlib import Path; from openapi_rag.crawl import crawl_pages; "
        f"print(sorted(crawl_pages([Path({str(page)!r})]).document['paths']))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "['/a']"


def test_a_yaml_body_whose_aliases_expand_or_contain_themselves_is_no_body() -> None:
    from openapi_rag.crawl.yaml_bodies import parse_yaml_mapping

    bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    assert parse_yaml_mapping("\n".join(bomb)) is None  # 510 bytes, a billion nodes once expanded
    assert parse_yaml_mapping("x: 1\na: &a [1, *a]") is None
    assert parse_yaml_mapping("x: 1\na: &a [1]\nb: *a") == {"x": 1, "a": [1], "b": [1]}
