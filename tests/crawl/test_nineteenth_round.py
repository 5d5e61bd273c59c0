"""Issue 17's nineteenth round: general rules after the first contact of flexdoc (Prauga FlexDoc's standalone
renderer in headless Chromium: one view per operation, each a header holding the method and the path in code,
the summary as an h1 and the description, then sections each opened and closed by its leading button
("Parameters", "Request Body", "Responses", "Try It", "Code Examples"); a parameter a run holding its name in code,
where it goes and "required", then its description and a run of its type and marks ("string required"); a body's
or a response's fields a run of the name, a run of the type and marks, the description; a console whose method
is a drop-down of every HTTP method beside a text box of the URL), each on a small fragment of the structure it
draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _console(url: str) -> str:
    methods = "".join(f"<option>{m}</option>" for m in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"))
    box = f'<input value="{url}">'
    return f"<section><button>Try It</button><div><div><select>{methods}</select>{box}</div></div></section>"


def _operation(method: str, path: str, title: str, sections: str) -> str:
    return (
        f"<div><article><header><div><span>{method}</span><code>{path}</code><button>Copy link</button></div>"
        f"<h1>{title}</h1><p>{title} as the service does it.</p></header>{sections}</article></div>"
    )


def test_a_method_picker_with_no_option_marked_states_no_method(tmp_path: Path) -> None:
    html = (
        "<html><body>"
        + _operation("POST", "/optimize-usage", "Optimize usage", _console("https://api.example.com/v1/optimize-usage"))
        + _operation("DELETE", "/alerts/{id}", "Delete an alert", _console("https://api.example.com/v1/alerts/{id}"))
        + "</body></html>"
    )
    paths = _crawl(tmp_path, html)["paths"]
    assert set(paths["/optimize-usage"]) == {"post"}  # not also the picker's first option, GET
    assert set(paths["/alerts/{id}"]) == {"delete"}


def _parameter(name: str, where: str, about: str, shown: str, required: bool = False) -> str:
    mark = "<span>required</span>" if required else ""
    return (
        f"<div><div><code>{name}</code><span>{where}</span>{mark}</div><p>{about}</p>"
        f"<div><div><span>{shown}</span>{mark}</div></div></div>"
    )


def test_a_run_of_a_name_and_where_it_goes_then_its_type_is_a_parameter(tmp_path: Path) -> None:
    sections = (
        "<section><button>Parameters</button><div>"
        + _parameter("deploymentId", "query", "Unique identifier for the deployment.", "string", required=True)
        + _parameter("limit", "query", "How many to return.", "integer")
        + _parameter("X-Trace", "header", "A trace id.", "string")
        + "</div></section>"
    )
    html = "<html><body>" + _operation("GET", "/logs", "Fetch deployment logs", sections) + "</body></html>"
    operation = _crawl(tmp_path, html)["paths"]["/logs"]["get"]
    found = {p["name"]: p for p in operation.get("parameters", [])}
    assert set(found) == {"deploymentId", "limit", "X-Trace"}
    assert found["deploymentId"]["in"] == "query" and found["deploymentId"]["required"] is True
    assert found["limit"]["schema"]["type"] == "integer" and not found["limit"].get("required")
    assert found["X-Trace"]["in"] == "header"


def _field(name: str, type_: str, about: str, required: bool = False) -> str:
    mark = "<span>required</span>" if required else ""
    return f"<div><div>{name}</div><div><div><span>{type_}</span>{mark}</div><p>{about}</p></div></div>"


def _body_and_response() -> str:
    return (
        "<section><button>Request Body</button><div><div><code>application/json</code><span>required</span></div>"
        "<div><div><span>object</span></div><div>"
        + _field("applicationId", "string", "The application to deploy.", required=True)
        + _field("version", "string", "The version to deploy.", required=True)
        + _field("replicas", "integer", "How many copies to run.")
        + "</div></div></div></section>"
        "<section><button>Responses</button><div><div><div><span>200</span><span>Deployment started.</span></div>"
        "<div><code>application/json</code><div><div><span>object</span></div><div>"
        + _field("deploymentId", "string", "The deployment's id.")
        + _field("status", "string", "Where the deployment stands.")
        + "</div></div></div></div></section>"
    )


def test_a_section_opened_by_its_leading_button_is_headed_by_it(tmp_path: Path) -> None:
    html = "<html><body>" + _operation("POST", "/deploy", "Deploy", _body_and_response()) + "</body></html>"
    operation = _crawl(tmp_path, html)["paths"]["/deploy"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert {"applicationId", "version", "replicas"} <= set(body)
    assert not {"deploymentId", "status"} & set(body)  # the response's, under its own section
    response = operation["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    assert {"deploymentId", "status"} <= set(response)


def test_a_type_run_whose_details_are_marks_alone_types_the_field(tmp_path: Path) -> None:
    html = "<html><body>" + _operation("POST", "/deploy", "Deploy", _body_and_response()) + "</body></html>"
    schema = _crawl(tmp_path, html)["paths"]["/deploy"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["applicationId"]["type"] == "string"  # "string required"
    assert schema["properties"]["replicas"]["type"] == "integer"
    assert {"applicationId", "version"} <= set(schema.get("required", []))
    assert "replicas" not in schema.get("required", [])


def test_the_flexdoc_pages_meet_the_request_target_on_a_socbench_page() -> None:
    page = BENCH / "pages" / "flexdoc" / "socbench-08-information-01-Software.html"
    paths = crawl_pages([page]).document["paths"]
    assert set(paths["/logs"]) == {"get"}
    assert {p["name"] for p in paths["/logs"]["get"]["parameters"]} == {"deploymentId"}
    body = paths["/trigger-hook"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert {"hookId", "payload"} <= set(body)
    assert set(paths["/update-config"]) == {"patch"}


def test_name_and_place_runs_with_no_type_between_them_are_parameters(tmp_path: Path) -> None:
    # A Swagger 2 parameter's `type`, which the page leaves out: the name and the place alone.
    sections = (
        "<section><button>Parameters</button><div>"
        "<div><div><code>phone</code><span>query</span><span>required</span></div></div>"
        "<div><div><code>Authorization</code><span>header</span><span>required</span></div></div>"
        "</div></section><section><button>Responses</button><div><div><span>200</span></div></div></section>"
    )
    html = "<html><body>" + _operation("GET", "/businesses/search/phone", "Search by phone", sections) + "</body></html>"
    operation = _crawl(tmp_path, html)["paths"]["/businesses/search/phone"]["get"]
    found = {p["name"]: p for p in operation.get("parameters", [])}
    assert set(found) == {"phone", "Authorization"}
    assert found["phone"]["in"] == "query" and found["Authorization"]["in"] == "header"


def test_items_under_an_array_labels_the_items_and_is_no_field() -> None:
    page = BENCH / "pages" / "flexdoc" / "socbench-06-health-01-Telemedicine.html"
    operation = crawl_pages([page]).document["paths"]["/patients/{id}/history"]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    names = set(schema.get("properties", {})) | set(schema.get("items", {}).get("properties", {}))
    assert "Items" not in names  # "array", then "Items" over "object" and the items' fields
    assert {"record_id", "description"} <= names
