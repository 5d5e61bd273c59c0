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


def _response_fields(operation: dict, status: str) -> set[str]:
    content = operation["responses"][status].get("content", {})
    return {name for media in content.values() for name in media.get("schema", {}).get("properties", {})}


def _field(name: str, shown: str, example: str = "") -> str:
    after = f"<p><strong>Example: default</strong></p><pre><code>{example}</code></pre>" if example else ""
    return f"<li><p><strong><code>{name}</code></strong></p><p>{shown}</p>{after}</li>"


def test_an_example_under_a_status_heading_past_its_media_type_is_that_statuss(tmp_path: Path) -> None:
    html = (
        f"<html><body><h3>Get keywords</h3>{_facts('GET', '/movie/{id}/keywords')}<h4>Responses</h4>"
        "<h5>Status: 200</h5><h6>Content-Type: application/json</h6>"
        f"<ul>{_field('id', '<code>integer</code>')}{_field('keywords', '<code>array</code>')}</ul>"
        "<p><strong>Example: response</strong></p>"
        '<pre><code>{"id": 550, "keywords": []}</code></pre>'
        "<h5>Status: 401</h5><h6>Content-Type: application/json</h6>"
        f"<ul>{_field('status_code', '<code>integer</code>')}{_field('status_message', '<code>string</code>')}</ul>"
        "<p><strong>Example:</strong></p>"
        '<pre><code>{"status_message": "", "status_code": 1}</code></pre></body></html>'
    )
    operation = _crawl(tmp_path, html)["paths"]["/movie/{id}/keywords"]["get"]
    assert _response_fields(operation, "200") == {"id", "keywords"}


def test_a_responses_headers_after_a_headers_run_are_no_body_fields(tmp_path: Path) -> None:
    header = (
        "<li><p><strong><code>{0}</code></strong></p><p>Specify the origin</p><p><code>string</code></p>"
        "<p><strong>Example: default</strong></p><pre><code>\"*\"</code></pre></li>"
    )
    html = (
        f"<html><body><h3>Fetch a day</h3>{_facts('GET', '/days/{day}')}<h4>Responses</h4>"
        "<h5>Status: 200 OK</h5><p><strong>Headers:</strong></p><ul>"
        + header.format("Access-Control-Allow-Origin")
        + header.format("Access-Control-Allow-Methods")
        + "</ul><h6>Content-Type: application/json</h6><ul>"
        + _field("redirect_to", "<code>string</code> — Where the file is")
        + "</ul></body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/days/{day}"]["get"]
    assert _response_fields(operation, "200") == {"redirect_to"}


def test_an_example_under_a_request_body_heading_is_the_requests(tmp_path: Path) -> None:
    html = (
        f"<html><body><h3>Create a token</h3>{_facts('POST', '/v1/token')}<h4>Request Body</h4>"
        "<h5>Content-Type: application/x-www-form-urlencoded</h5><p><strong>Example: create</strong></p>"
        '<pre><code>{"ClientId": "OQ7", "GrantType": "client_credentials"}</code></pre>'
        "<h4>Responses</h4><h5>Status: 201 Created</h5><h6>Content-Type: application/json</h6>"
        '<p><strong>Example:</strong></p><pre><code>{"access_token": "x", "expires_in": 3600}</code></pre>'
        "</body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/v1/token"]["post"]
    assert set(operation["responses"]) == {"201"}
    assert _response_fields(operation, "201") == {"access_token", "expires_in"}


def test_a_run_that_leads_with_a_type_then_a_dash_states_the_fields_type(tmp_path: Path) -> None:
    html = (
        f"<html><body><h3>Get patterns</h3>{_facts('GET', '/patterns')}<h4>Responses</h4><h5>Status: 200 OK</h5>"
        "<h6>Content-Type: application/json</h6><ul>"
        + _field("sector", "<code>string</code> — The sector's name")
        + _field("usage", "<code>integer</code>, format: <code>int64</code> — Energy used, in kWh")
        + "</ul></body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/patterns"]["get"]
    properties = operation["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    assert {name: field["type"] for name, field in properties.items()} == {"sector": "string", "usage": "integer"}


def _error(status: str, caption: str) -> str:
    return (
        f"<h5>Status: {status} {caption}</h5><h6>Content-Type: application/json</h6>"
        "<ul><li><p><strong><code>error</code> (required)</strong></p><p><code>object</code>, schema: "
        "<code>ErrorObject</code></p><p><em>Schema <code>ErrorObject</code> is shown above.</em></p></li></ul>"
        '<p><strong>Example:</strong></p><pre><code>{"error": {"message": "", "status": 0}}</code></pre>'
    )


def test_a_status_heading_whose_caption_is_sentences_still_names_its_response(tmp_path: Path) -> None:
    html = (
        f"<html><body><h3>Get album</h3>{_facts('GET', '/albums/{id}')}<h4>Responses</h4>"
        "<h5>Status: 200 An album</h5><h6>Content-Type: application/json</h6>"
        f"<ul>{_field('name', '<code>string</code> — The name')}</ul>"
        + _error("401", "Bad or expired token. You should re-authenticate the user.")
        + "</body></html>"
    )
    operation = _crawl(tmp_path, html)["paths"]["/albums/{id}"]["get"]
    assert _response_fields(operation, "200") == {"name"}
    assert _response_fields(operation, "401") == {"error"}


def test_an_example_under_a_long_status_heading_is_that_statuss(tmp_path: Path) -> None:
    caption = (
        "Bad OAuth request (wrong consumer key, bad nonce, expired timestamp...). Unfortunately, "
        "re-authenticating the user won't help here."
    )
    html = (
        f"<html><body><h3>Save albums</h3>{_facts('PUT', '/me/albums')}<h4>Responses</h4>"
        f"<h5>Status: 200 The album is saved</h5>{_error('403', caption)}</body></html>"
    )
    responses = _crawl(tmp_path, html)["paths"]["/me/albums"]["put"]["responses"]
    assert not any(responses[status].get("content") for status in responses if status.startswith("2"))
    assert "403" in responses
