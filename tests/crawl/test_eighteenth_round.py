"""Issue 17's eighteenth round: general rules after the first contact of scalar-markdown (Scalar's
openapi-to-markdown, built by Eleventy with markdown-it: a Markdown page whose operations are each an h3 (the
summary, else "GET /pets"), then a list of labelled facts ("Method: GET", "Path: /pets", "Operation ID: …",
"Tags: …"), the description, "Effective servers", "Authentication" (each scheme's name over a code block of its
JSON definition), "Parameters" (each an h5 holding the name in code, perhaps "required", then a list "In: query",
the description and a run leading with the type), "Request Body" and "Responses" ("Status: 200 OK" as an h5, the
media type an h6, then nested lists of fields, "Headers:" over a response's headers, and an example), the schemas
last), each on a small fragment of the structure it draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _facts(method: str, path: str) -> str:
    return (
        f"<ul><li><strong>Method:</strong> <code>{method}</code></li>"
        f"<li><strong>Path:</strong> <code>{path}</code></li>"
        "<li><strong>Operation ID:</strong> <code>op</code></li></ul>"
    )


def test_a_method_and_a_path_stated_as_labelled_facts_are_a_request_line(tmp_path: Path) -> None:
    html = (
        "<html><body><h1>Energy API</h1><h2>Operations</h2>"
        f"<h3>Retrieve energy patterns</h3>{_facts('GET', '/energy-patterns')}<p>Fetch patterns by sector.</p>"
        f"<h3>Submit parameters</h3>{_facts('POST', '/optimize-usage')}<p>Send parameters for analysis.</p>"
        "</body></html>"
    )
    paths = _crawl(tmp_path, html)["paths"]
    assert set(paths) == {"/energy-patterns", "/optimize-usage"}
    assert set(paths["/energy-patterns"]) == {"get"} and set(paths["/optimize-usage"]) == {"post"}
    assert paths["/energy-patterns"]["get"]["summary"] == "Retrieve energy patterns"


def _parameter(name: str, where: str, about: str, shown: str, required: str = "") -> str:
    return (
        f"<h5><code>{name}</code>{required}</h5><ul><li><strong>In:</strong> <code>{where}</code></li></ul>"
        f"<p>{about}</p><p>{shown}</p>"
    )


def test_a_parameter_heading_followed_by_where_it_goes_is_a_parameter(tmp_path: Path) -> None:
    html = (
        f"<html><body><h3>List days</h3>{_facts('GET', '/v1/Exports/{ResourceType}/Days')}"
        "<h4>Parameters</h4>"
        + _parameter("ResourceType", "path", "The type of communication", "<code>string</code>", " required")
        + _parameter("PageSize", "query", "How many to return.", "<code>integer</code>, format: <code>int64</code>")
        + _parameter("X-Trace", "header", "A trace id.", "<code>string</code> — sent back as is")
        + "<h4>Responses</h4><h5>Status: 200 OK</h5></body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/v1/Exports/{ResourceType}/Days"]["get"]
    found = {p["name"]: p for p in operation["parameters"]}
    assert set(found) == {"ResourceType", "PageSize", "X-Trace"}
    assert found["PageSize"]["in"] == "query" and found["PageSize"]["schema"]["type"] == "integer"
    assert found["X-Trace"]["in"] == "header"
    assert found["ResourceType"]["in"] == "path" and found["ResourceType"]["required"] is True


def test_json_under_an_authentication_heading_is_no_response(tmp_path: Path) -> None:
    html = (
        f"<html><body><h3>Get album</h3>{_facts('GET', '/albums/{id}')}"
        "<h4>Authentication</h4><ul><li><strong>oauth_2_0</strong><pre><code>"
        '{"type": "oauth2", "flows": {"authorizationCode": {"scopes": {"user-read": "Read"}}}}'
        "</code></pre></li></ul>"
        "<h4>Responses</h4><h5>Status: 200 An album</h5><p><strong>Example:</strong></p>"
        '<pre><code>{"name": "Abbey Road", "id": "1"}</code></pre></body></html>'
    )
    responses = _crawl(tmp_path, html)["paths"]["/albums/{id}"]["get"]["responses"]
    fields = set()
    for response in responses.values():
        for content in response.get("content", {}).values():
            fields |= set(content.get("schema", {}).get("properties", {}))
    assert fields == {"name", "id"}


def test_the_real_pages_find_every_operation() -> None:
    pages = sorted((BENCH / "pages" / "scalar-markdown").glob("*.html"))
    assert len(pages) == 38
    document = crawl_pages([BENCH / "pages" / "scalar-markdown" / "socbench-01-energy-01-Energy.html"]).document
    assert "/energy-patterns" in document["paths"]

