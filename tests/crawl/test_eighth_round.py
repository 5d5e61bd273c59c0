"""Issue 17's eighth round: general rules after Starlight's first contact (Astro's docs theme with the
starlight-openapi plugin: schema trees of name, marks, description and type runs), each on a small
fragment of the structure it draws (each fails without its rule), and the real Starlight page."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.servers import stated_servers
from tests.crawl.conftest import PAGES


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _property(name: str, description: str, type_: str, *, required: bool = False) -> str:
    """One property of a schema tree as Starlight draws it: name, marks, description, then type."""
    mark = "<div>required</div>" if required else ""
    return (
        f"<div><div><strong>{name}</strong>{mark}</div><div><div><p>{description}</p></div>"
        f"<div><span>{type_}</span></div></div></div>"
    )


def _operation(method: str, path: str, body: str) -> str:
    return (
        f"<h1>Call {path}</h1><details><summary><div><div>{method}</div><div>{path}</div></div>"
        f"</summary></details>{body}"
    )


def test_a_type_run_after_a_fields_marks_and_description_ends_that_field(tmp_path: Path) -> None:
    body = (
        "<h2>Request Body required</h2><details><summary><span>object</span></summary>"
        + _property("usagePatterns", "Historical energy usage patterns.", "Array&lt;number&gt;", required=True)
        + _property("region", "Where the usage was measured.", "string")
        + "</details><h2>Responses</h2><h3>201</h3><div><p>Created</p></div>"
        "<div><label>Select media type <select><option>application/json</option></select></label></div>"
        "<details><summary><span>object</span></summary>"
        + _property("optimizationId", "Unique identifier for the optimization request.", "string")
        + "</details>"
    )
    doc = _crawl(tmp_path, _operation("POST", "/optimize-usage", body))
    operation = doc["paths"]["/optimize-usage"]["post"]
    schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"usagePatterns", "region"}
    assert schema["properties"]["usagePatterns"]["type"] == "array"
    assert schema["required"] == ["usagePatterns"]
    # "Created" under the status heading, then prose and the schema's type, is the status's caption.
    response = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert set(response["properties"]) == {"optimizationId"}


def test_a_run_that_repeats_a_fields_name_is_its_title_not_a_field() -> None:
    # Spotify's parameters through Starlight: "limit", "required", "Limit" (the schema's title),
    # paragraphs, then "integer".
    html = (
        "<h3>Query Parameters</h3><div><strong>market</strong><div>required</div></div><div>Market</div>"
        "<p>An ISO 3166-1 alpha-2 country code.</p><p>If a user token is given, the user's country.</p>"
        "<div>string</div><h5>Example</h5><pre>ES</pre><div><strong>limit</strong><div>required</div></div>"
        "<div>Limit</div><p>The maximum number of items to return.</p><div>integer</div>"
    )
    tables = [b for b in field_runs(parse_html(html).blocks) if b.kind == "table"]
    names = [row[0] for table in tables for row in table.rows[1:]]
    assert names == ["market", "limit"]
    assert tables[0].rows[1][2:4] == ["string", "true"]


def test_a_fields_own_example_between_fields_keeps_the_fields_one_table(tmp_path: Path) -> None:
    # Twilio's query parameters: an "Examples" heading, a picker and a code block after each field.
    def parameter(name: str, value: str) -> str:
        return (
            f"<div><strong>{name}</strong></div><div><span>string</span></div><p>The {name} to use</p>"
            f"<h5>Examples</h5><label>Select example fetch</label><pre><code>{value}</code></pre>"
        )

    html = _operation(
        "GET",
        "/v1/authorize",
        "<h2>Parameters</h2><h3>Query Parameters</h3>"
        + parameter("ClientId", "OQ7c")
        + parameter("RedirectUri", "www.example.com")
        + parameter("State", "xvz")
        + "<h2>Responses</h2><h3>302</h3><p>Found</p>",
    )
    blocks = field_runs(parse_html(html).blocks)
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1 and [row[0] for row in tables[0].rows[1:]] == ["ClientId", "RedirectUri", "State"]
    assert [b.text for b in blocks if b.kind == "code"] == ["OQ7c", "www.example.com", "xvz"]  # kept, after it
    parameters = _crawl(tmp_path, html)["paths"]["/v1/authorize"]["get"]["parameters"]
    assert {(p["name"], p["in"]) for p in parameters} == {
        ("ClientId", "query"),
        ("RedirectUri", "query"),
        ("State", "query"),
    }


def test_headers_under_a_status_heading_are_the_responses_not_request_parameters(tmp_path: Path) -> None:
    html = _operation(
        "GET",
        "/v1/authorize",
        "<h2>Parameters</h2><h3>Header Parameters</h3><div><strong>X-Request-Id</strong></div>"
        "<div><span>string</span></div><p>Traces the call</p>"
        "<h2>Responses</h2><h3>302</h3><p>Found</p><h4>Headers</h4>"
        "<div><strong>Access-Control-Allow-Origin</strong></div><div><span>string</span></div>"
        "<p>Specify the origin(s) allowed to access the resource</p>",
    )
    parameters = _crawl(tmp_path, html)["paths"]["/v1/authorize"]["get"]["parameters"]
    assert [(p["name"], p["in"]) for p in parameters] == [("X-Request-Id", "header")]


def test_a_link_after_a_heading_to_its_own_id_is_its_permalink() -> None:
    html = (
        '<div><h2 id="responses">Responses</h2><a href="#responses"><span></span>'
        "<span>Section titled “Responses”</span></a></div><p>After.</p>"
        '<div><h2 id="other">Other</h2><a href="#elsewhere">See elsewhere</a></div>'
    )
    texts = [b.text for b in parse_html(html).blocks]
    assert texts == ["Responses", "After.", "Other", "See elsewhere"]


def test_a_text_box_shows_its_value_and_a_request_url_in_it_names_the_server(tmp_path: Path) -> None:
    html = (
        "<label> Production server <input value='https://api.example.com/v1/pets/{id}'></label>"
        "<input type='hidden' value='secret-token'>"
    )
    html += "<p>Returns a pet.</p>"
    texts = [b.text for b in parse_html(html).blocks]
    assert texts == ["Production server https://api.example.com/v1/pets/{id}", "Returns a pet."]
    assert stated_servers(parse_html(html).blocks, {"/pets/{id}", "/pets"}) == ["https://api.example.com/v1"]
    doc = _crawl(
        tmp_path,
        _operation("GET", "/pets/{id}", html)
        + _operation("GET", "/pets", "<label>Production server <input value='https://api.example.com/v1/pets'></label>"),
    )
    assert doc["servers"] == [{"url": "https://api.example.com/v1"}]
    assert set(doc["paths"]) == {"/pets/{id}", "/pets"}


def test_starlight_page_gives_operations_parameters_bodies_and_responses() -> None:
    page = PAGES / "starlight" / "realworld-v3-0-petstore-expanded.html"
    doc = crawl_pages([page]).document
    assert doc["servers"][0]["url"] == "https://petstore.swagger.io/v2"  # from the request URL box
    assert {(m.upper(), p) for p, item in doc["paths"].items() for m in item} == {
        ("GET", "/pets"),
        ("POST", "/pets"),
        ("GET", "/pets/{id}"),
        ("DELETE", "/pets/{id}"),
    }
    find = doc["paths"]["/pets"]["get"]
    assert {(p["name"], p["in"]) for p in find["parameters"]} == {("tags", "query"), ("limit", "query")}
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"} and body["required"] == ["name"]
    pet = doc["paths"]["/pets/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(pet["properties"]) == {"name", "tag", "id"}


def test_fields_under_a_heading_that_is_only_default_are_that_responses(tmp_path: Path) -> None:
    html = _operation(
        "GET",
        "/pets",
        "<h2>Responses</h2><h3>200</h3><p>Pet response</p><details><summary>object</summary>"
        + _property("name", "The pet's name.", "string")
        + "</details><h3>default</h3><p>Unexpected error</p><details><summary>object</summary>"
        + _property("code", "The error's code.", "integer")
        + _property("message", "What went wrong.", "string")
        + "</details>",
    )
    responses = _crawl(tmp_path, html)["paths"]["/pets"]["get"]["responses"]
    assert set(responses["200"]["content"]["application/json"]["schema"]["properties"]) == {"name"}
    assert set(responses["default"]["content"]["application/json"]["schema"]["properties"]) == {"code", "message"}


def test_a_request_url_shown_without_its_scheme_names_the_server() -> None:
    # Starlight over a Swagger 2 spec: host, base path and path, no scheme ("{scheme}://" for a
    # server variable); the page's "Schemes" line says which, else https.
    def servers(url: str, *before: str) -> list[str]:
        runs = "".join(f"<p>{text}</p>" for text in before)
        html = f"{runs}<label>Production server <input value='{url}'></label><p>Returns a pet.</p>"
        return stated_servers(parse_html(html).blocks, {"/businesses/{id}", "/info/configuration{ext}"})

    assert servers("api.yelp.com/v3/businesses/{id}") == ["https://api.yelp.com/v3"]
    assert servers("api.bufferapp.com/1//info/configuration{ext}", "Schemes: http") == ["http://api.bufferapp.com/1"]
    assert servers("{scheme}://developer.example.gov/ds-api/businesses/{id}") == [
        "https://developer.example.gov/ds-api"
    ]
    assert servers("see docs.example.com/guide") == []  # no documented path at its end


def test_a_caption_of_five_words_or_more_labels_nothing(tmp_path: Path) -> None:
    # "An array of pull request objects" describes the 200 response; its "request" is no label.
    html = _operation(
        "GET",
        "/pullrequests",
        "<h2>Responses</h2><h3>200</h3><p>An array of pull request objects</p>"
        "<div><label>Select media type <select><option>application/json</option></select></label></div>"
        "<div>Array&lt;object&gt;</div><div>object</div><div><strong>id</strong></div><div>integer</div>"
        "<div><strong>title</strong></div><div>string</div>",
    )
    operation = _crawl(tmp_path, html)["paths"]["/pullrequests"]["get"]
    assert "parameters" not in operation and "requestBody" not in operation
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema.get("items", schema)["properties"]) == {"id", "title"}


def test_a_reason_phrase_under_a_status_heading_is_no_field(tmp_path: Path) -> None:
    # healthcare.gov through Starlight: "200", "OK", then the body's type "object" and its fields.
    html = _operation(
        "GET",
        "/api/states",
        "<h2>Responses</h2><h3>200</h3><p>OK</p><div>object</div>"
        "<div><strong>states</strong></div><div>Array&lt;string&gt;</div><h3>404</h3><p>Resource not found.</p>",
    )
    schema = _crawl(tmp_path, html)["paths"]["/api/states"]["get"]["responses"]["200"]["content"][
        "application/json"
    ]["schema"]
    assert set(schema["properties"]) == {"states"}


def test_a_status_heading_labels_what_its_caption_introduces(tmp_path: Path) -> None:
    # "A pull request object" under "200": its "request" labels nothing, the status does.
    html = _operation(
        "GET",
        "/pullrequests/{pid}",
        "<h2>Responses</h2><h3>200</h3><p>A pull request object</p><div>object</div>"
        "<div><strong>id</strong></div><div>integer</div><div><strong>title</strong></div><div>string</div>",
    )
    operation = _crawl(tmp_path, html)["paths"]["/pullrequests/{pid}"]["get"]
    assert [p["name"] for p in operation["parameters"]] == ["pid"]  # from the template, nothing else
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"id", "title"}


def test_a_run_that_shows_a_url_is_no_description(tmp_path: Path) -> None:
    html = _operation(
        "GET",
        "/cost-analysis",
        "<label>Production server <input value='https://api.example.com/v1/cost-analysis'></label>"
        "<p>Retrieve cost evaluations based on current energy consumption trends.</p>",
    )
    operation = _crawl(tmp_path, html)["paths"]["/cost-analysis"]["get"]
    assert operation["description"] == "Retrieve cost evaluations based on current energy consumption trends."


def test_a_schemas_name_atop_a_body_is_no_field_and_its_example_is_the_bodys(tmp_path: Path) -> None:
    # Twilio through Starlight: the body schema's name, then "object", then its properties; the body's
    # example under an "Examples" heading and a picker ("Select example create").
    body = (
        "<h2>Request Body</h2><label>Select media type <select><option>application/x-www-form-urlencoded"
        "</option></select></label><div>CreateTokenRequest</div><details><summary>object</summary>"
        + _property("GrantType", "Grant type is a credential.", "string", required=True)
        + _property("ClientId", "A 34 character string.", "string", required=True)
        + "</details><h5>Examples</h5><label>Select example create</label>"
        '<pre>{"GrantType": "client_credentials", "ClientId": "OQ7c"}</pre>'
        "<h2>Responses</h2><h3>201</h3><p>Created</p><details><summary>object</summary>"
        + _property("access_token", "Token which carries the information.", "string")
        + '</details><h5>Examples</h5><label>Select example create</label><pre>{"access_token": "eyJh"}</pre>'
    )
    operation = _crawl(tmp_path, _operation("POST", "/v1/token", body))["paths"]["/v1/token"]["post"]
    request = operation["requestBody"]["content"]
    assert {name for media in request.values() for name in media["schema"]["properties"]} == {"GrantType", "ClientId"}
    response = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert set(response["properties"]) == {"access_token"}
