"""Crawling real rendered pages (committed benchmark pages) into valid OpenAPI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.crawl import crawl_pages
from openapi_rag.spec import load_service
from tests.crawl.conftest import PAGES

PETSTORE = PAGES / "widdershins" / "realworld-v3-0-petstore-expanded.html"


def test_petstore_page_gives_its_operations_parameters_and_schemas() -> None:
    result = crawl_pages([PETSTORE])
    doc = result.document
    assert result.findings == []
    assert doc["servers"] == [{"url": "https://petstore.swagger.io/v2"}]
    assert {(p, m) for p, item in doc["paths"].items() for m in item} == {
        ("/pets", "get"),
        ("/pets", "post"),
        ("/pets/{id}", "get"),
        ("/pets/{id}", "delete"),
    }
    listing = doc["paths"]["/pets"]["get"]
    params = {p["name"]: (p["in"], p["schema"]["type"], p.get("required")) for p in listing["parameters"]}
    assert params == {"tags": ("query", "array", False), "limit": ("query", "integer", False)}
    items = listing["responses"]["200"]["content"]["application/json"]["schema"]["items"]
    assert set(items["properties"]) == {"name", "tag", "id"}
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}
    path_param = doc["paths"]["/pets/{id}"]["delete"]["parameters"][0]
    assert (path_param["name"], path_param["in"], path_param["required"]) == ("id", "path", True)
    assert result.report.parameters["example"] > 0 and result.report.parameters["table"] > 0


def test_crawl_cli_writes_a_document_that_index_loads(tmp_path: Path) -> None:
    out = tmp_path / "openapi.yaml"
    page = PAGES / "widdershins" / "socbench-04-consumer-02-Hotel.html"
    run = CliRunner().invoke(cli, ["crawl", str(page), "-o", str(out)])
    assert run.exit_code == 0, run.output
    assert "operations from 1 pages" in run.stdout
    service = load_service(out)
    assert len(service.operations) == 10
    assert "POST /reservations" in {op.id for op in service.operations}


def test_crawl_cli_json_report_and_a_page_with_no_api(tmp_path: Path) -> None:
    page = tmp_path / "about.html"
    page.write_text("<html><body><h1>About us</h1><p>We sell pets.</p></body></html>", encoding="utf-8")
    run = CliRunner().invoke(cli, ["crawl", str(page), "--json"])
    assert run.exit_code == 0
    data = json.loads(run.stdout)
    assert data["report"]["operations"] == 0
    assert data["document"]["paths"] == {}
    assert "no API operations found" in data["report"]["warnings"][0]
    assert "No API operations found" in run.stderr


def test_a_folder_of_pages_merges_into_one_document(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text(
        "<h2>List users</h2><pre>curl https://api.example.com/v1/users?page=2 -H 'X-Tenant: acme'</pre>"
        '<p>Example response</p><pre>{"users": [{"id": 1, "email": "a@b.io"}]}</pre>',
        encoding="utf-8",
    )
    (tmp_path / "b.html").write_text(
        "<h2>Delete a user</h2><p><code>DELETE /v1/users/{user_id}</code></p>"
        "<table><tr><th>Parameter</th><th>Type</th><th>Description</th></tr>"
        "<tr><td>user_id</td><td>integer</td><td>The user</td></tr></table>",
        encoding="utf-8",
    )
    (tmp_path / "notes.txt").write_text("GET /ignored", encoding="utf-8")
    result = crawl_pages([tmp_path])
    doc = result.document
    assert result.findings == []
    assert sorted(doc["paths"]) == ["/v1/users", "/v1/users/{user_id}"]
    listing = doc["paths"]["/v1/users"]["get"]
    assert {(p["name"], p["in"]) for p in listing["parameters"]} == {
        ("page", "query"),
        ("X-Tenant", "header"),
    }
    schema = listing["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["users"]["items"]["properties"]["email"]["format"] == "email"
    (param,) = doc["paths"]["/v1/users/{user_id}"]["delete"]["parameters"]
    assert (param["in"], param["schema"]["type"], param["description"]) == ("path", "integer", "The user")
    assert yaml.safe_dump(doc)  # plain data all the way down


def test_hallucination_filter_drops_names_not_in_the_page() -> None:
    from openapi_rag.crawl.build import Report, build_document
    from openapi_rag.crawl.page import parse_html
    from openapi_rag.crawl.scrape import scrape
    from openapi_rag.crawl.tables import FieldRow

    page = parse_html("<h2>Get a pet</h2><p><code>GET /pets</code></p><p>Filter with the color query.</p>")
    scraped = scrape(page)
    scraped.operations[0].params += [
        ("param", FieldRow("color", location="query", source="prose")),
        ("param", FieldRow("owner_ssn", location="query", source="prose")),
    ]
    report = Report()
    doc = build_document([scraped], " ".join(b.text for b in page.blocks), report)
    assert [p["name"] for p in doc["paths"]["/pets"]["get"]["parameters"]] == ["color"]
    assert report.dropped == ["GET /pets: owner_ssn"]


def test_server_shown_beside_the_path_and_status_tabs() -> None:
    from openapi_rag.crawl.page import parse_html
    from openapi_rag.crawl.scrape import scrape

    page = parse_html(
        "<h2>List pets</h2><div><button><span>get</span> <span>/pets</span></button>"
        "<div><span>https://api.example.com/v2</span><span>/pets</span></div></div>"
        "<h3>Response samples</h3><ul><li>200</li><li>404</li></ul>"
        '<div>{</div><div>"id" : 1</div><div>}</div>'
    )
    scraped = scrape(page)
    assert scraped.servers == ["https://api.example.com/v2"]
    (evidence,) = scraped.operations
    assert (evidence.method, evidence.path) == ("GET", "/pets")
    assert evidence.response_examples == {"200": [{"id": 1}]}


def test_a_response_that_links_a_schema_section_gets_its_fields(tmp_path: Path) -> None:
    page = tmp_path / "comics.html"
    page.write_text(
        "<h1>API</h1><h2>Current comic</h2><p><code>GET /info.0.json</code></p><h3>Responses</h3>"
        "<table><tr><th>Status</th><th>Meaning</th><th>Description</th><th>Schema</th></tr>"
        "<tr><td>200</td><td>OK</td><td>OK</td><td><a href='#comic'>comic</a></td></tr></table>"
        "<h1>Schemas</h1><h2 id='comic'>comic</h2><table><tr><th>Name</th><th>Type</th><th>Required</th></tr>"
        "<tr><td>num</td><td>integer</td><td>true</td></tr><tr><td>title</td><td>string</td><td>false</td></tr></table>",
        encoding="utf-8",
    )
    response = crawl_pages([page]).document["paths"]["/info.0.json"]["get"]["responses"]["200"]
    schema = response["content"]["application/json"]["schema"]
    assert schema["properties"] == {"num": {"type": "integer"}, "title": {"type": "string"}}
    assert schema["required"] == ["num"]


def test_a_sphinx_page_gives_its_operations_fields_and_bodies() -> None:
    # Rendered by Sphinx + sphinxcontrib-openapi (the held-out renderer): no server URL on the page.
    result = crawl_pages([PAGES / "sphinx" / "realworld-v3-0-petstore-expanded.html"])
    doc = result.document
    assert result.findings == []
    assert {(p, m) for p, item in doc["paths"].items() for m in item} == {
        ("/pets", "get"),
        ("/pets", "post"),
        ("/pets/{id}", "get"),
        ("/pets/{id}", "delete"),
    }
    listing = doc["paths"]["/pets"]["get"]
    params = {p["name"]: (p["in"], p["schema"]["type"]) for p in listing["parameters"]}
    assert params == {"tags": ("query", "array"), "limit": ("query", "integer")}
    create = doc["paths"]["/pets"]["post"]
    body = create["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"] == {"name": {"type": "string"}, "tag": {"type": "string"}}
    assert body["required"] == ["name"]
    returned = create["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(returned["properties"]) == {"name", "tag", "id"}


def test_dotted_field_paths_nest() -> None:
    from openapi_rag.crawl.page import parse_html

    page = parse_html(
        "<h2>GET /movies/{id}</h2><h3>Response JSON Object:</h3><ul>"
        "<li>title (string) – the title</li><li>crew[] (object) – the crew</li>"
        "<li>crew[].name (string) – a name</li><li>crew[].job (string) – a job</li></ul>"
    )
    from openapi_rag.crawl.build import Report, build_document
    from openapi_rag.crawl.scrape import scrape

    text = " ".join(b.text or " ".join(" ".join(r) for r in b.rows) for b in page.blocks)
    doc = build_document([scrape(page)], text, Report())
    schema = doc["paths"]["/movies/{id}"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"title", "crew"}
    assert schema["properties"]["crew"]["type"] == "array"
    assert set(schema["properties"]["crew"]["items"]["properties"]) == {"name", "job"}


def test_an_openapi_to_md_page_gives_operations_and_declared_fields() -> None:
    # openapi-to-md (the second held-out renderer): "[GET]/pets" headings, fields as declarations.
    result = crawl_pages([PAGES / "openapi-to-md" / "realworld-v3-0-petstore-expanded.html"])
    doc = result.document
    assert result.findings == []
    assert {(p, m) for p, item in doc["paths"].items() for m in item} == {
        ("/pets", "get"),
        ("/pets", "post"),
        ("/pets/{id}", "get"),
        ("/pets/{id}", "delete"),
    }
    listing = doc["paths"]["/pets"]["get"]
    params = {p["name"]: (p["in"], p["schema"]["type"], p["required"]) for p in listing["parameters"]}
    assert params == {"tags": ("query", "array", False), "limit": ("query", "integer", False)}
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"} and body["required"] == ["name"]
    error = listing["responses"]["default"]["content"]["application/json"]["schema"]
    assert set(error["properties"]) == {"code", "message"}


def test_a_declared_reference_takes_the_fields_of_its_page_section(tmp_path: Path) -> None:
    page = tmp_path / "pets.html"
    page.write_text(
        "<h3>[POST]/pets</h3><h4>RequestBody</h4><pre><code>{\n  owner?: #/components/schemas/Owner\n"
        "  name: string\n}</code></pre><h2>References</h2><h3>#/components/schemas/Owner</h3>"
        "<pre><code>{\n  id: integer\n  email?: string\n}</code></pre>",
        encoding="utf-8",
    )
    doc = crawl_pages([page]).document
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"owner", "name"}
    owner = body["properties"]["owner"]
    assert owner["type"] == "object" and set(owner["properties"]) == {"id", "email"}
    assert owner["required"] == ["id"]


def test_operations_whose_label_headings_follow_their_line(tmp_path: Path) -> None:
    # Each operation is a method badge and a path with no heading of its own; "Parameters" and
    # "Responses" are headings under it, so a heading section must not end an operation's part.
    page = tmp_path / "api.html"
    op = (
        "<div><span>{method}</span><span>{path}</span></div><p>{summary}</p>"
        "<h4>Parameters</h4><table><thead><tr><th>Name</th><th>Description</th></tr></thead>"
        "<tr><td>{param}</td><td>a parameter</td></tr></table>"
        "<h4>Responses</h4><table><thead><tr><td>Code</td><td>Description</td></tr></thead>"
        "<tr><td>200</td><td>ok <pre>{example}</pre></td></tr><tr><td>404</td><td>missing</td></tr></table>"
    )
    page.write_text(
        "<h1>Pets</h1><h3>pets</h3>"
        + op.format(
            method="GET",
            path="/pets",
            summary="List pets",
            param="limit integer (query)",
            example='[{"name": "Rex"}]',
        )
        + op.format(
            method="GET",
            path="<span>/pets</span><span>/{id}</span>",
            summary="Get a pet",
            param="id * integer ($int64) (path)",
            example='{"name": "Rex", "age": 3}',
        ),
        encoding="utf-8",
    )
    doc = crawl_pages([page]).document
    listing, one = doc["paths"]["/pets"]["get"], doc["paths"]["/pets/{id}"]["get"]
    assert (listing["summary"], one["summary"]) == ("List pets", "Get a pet")
    assert [(p["name"], p["in"], p["schema"]["type"]) for p in listing["parameters"]] == [
        ("limit", "query", "integer")
    ]
    assert [(p["name"], p["in"], p["required"]) for p in one["parameters"]] == [("id", "path", True)]
    assert set(one["responses"]) == {"200", "404"}
    schema = one["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "age"}
    assert listing["responses"]["200"]["content"]["application/json"]["schema"]["type"] == "array"


def test_a_swagger_ui_page_gives_its_operations_parameters_and_examples() -> None:
    # Rendered by swagger-ui-dist in headless Chromium (docExpansion "full"): method badges and
    # paths drawn as segments, "Parameters"/"Responses" headings under each operation, examples
    # inside the response table's rows, the server in a "Servers" picker.
    result = crawl_pages([PAGES / "swagger-ui" / "realworld-v3-0-petstore-expanded.html"])
    doc = result.document
    assert result.findings == []
    assert doc["servers"] == [{"url": "https://petstore.swagger.io/v2"}]
    assert {(p, m) for p, item in doc["paths"].items() for m in item} == {
        ("/pets", "get"),
        ("/pets", "post"),
        ("/pets/{id}", "get"),
        ("/pets/{id}", "delete"),
    }
    listing = doc["paths"]["/pets"]["get"]
    params = {p["name"]: (p["in"], p["schema"]["type"]) for p in listing["parameters"]}
    assert params == {"tags": ("query", "array"), "limit": ("query", "integer")}
    items = listing["responses"]["200"]["content"]["application/json"]["schema"]["items"]
    assert set(items["properties"]) == {"name", "tag", "id"}
    error = listing["responses"]["default"]["content"]["application/json"]["schema"]
    assert set(error["properties"]) == {"code", "message"}
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}
    fetch = doc["paths"]["/pets/{id}"]["get"]
    assert [(p["name"], p["in"], p["schema"]["type"]) for p in fetch["parameters"]] == [
        ("id", "path", "integer")
    ]
    assert set(doc["paths"]["/pets/{id}"]["delete"]["responses"]) == {"204", "default"}


def test_sample_urls_fill_a_template_that_a_heading_shows(tmp_path: Path) -> None:
    # The path is a heading of its own; the cURL sample fills its parameter with an example value,
    # and the response tabs end in "default" (the first tab's sample is shown).
    page = tmp_path / "api.html"
    page.write_text(
        "<h3>/pets/{id}</h3><h4>Path Parameters</h4><table><tr><td>id</td><td>integer</td></tr>"
        "<tr><td>The</td><td>pet's id</td></tr></table>"
        "<pre>curl https://api.example.com/v2/pets/42</pre><button>200</button><button>default</button>"
        '<pre>{"name": "Rex"}</pre>',
        encoding="utf-8",
    )
    result = crawl_pages([page])
    doc = result.document
    assert doc["servers"] == [{"url": "https://api.example.com/v2"}]
    operation = doc["paths"]["/pets/{id}"]["get"]
    assert [p["name"] for p in operation["parameters"]] == ["id"]  # "The" is in no path: dropped
    assert set(operation["responses"]["200"]["content"]["application/json"]["schema"]["properties"]) == {
        "name"
    }
    assert result.findings == []


@pytest.mark.parametrize("renderer", ["rapidoc", "scalar"])
def test_rapidoc_and_scalar_pages_give_their_operations_and_bodies(renderer: str) -> None:
    # The held-out Chromium renderers (RapiDoc: shadow DOM inlined, two-row field records; Scalar:
    # cURL samples that fill the path with example values under a path-only heading).
    result = crawl_pages([PAGES / renderer / "realworld-v3-0-petstore-expanded.html"])
    doc = result.document
    assert result.findings == []
    assert doc["servers"] == [{"url": "https://petstore.swagger.io/v2"}]
    assert {(p, m) for p, item in doc["paths"].items() for m in item} == {
        ("/pets", "get"),
        ("/pets", "post"),
        ("/pets/{id}", "get"),
        ("/pets/{id}", "delete"),
    }
    body = doc["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}
    assert [p["name"] for p in doc["paths"]["/pets/{id}"]["delete"]["parameters"]] == ["id"]
    assert "204" in doc["paths"]["/pets/{id}"]["delete"]["responses"]


def test_a_type_the_page_states_outranks_an_example_literal() -> None:
    # Buffer's page shows `"picture_size_max": 0` in the 200 example; its schema section says number.
    # The status table names that section under a "Status" column with stray rows (error codes that
    # spill over lines), and Spotify's examples quote integers ("300") that ImageObject's section types.
    buffer = crawl_pages([PAGES / "widdershins" / "realworld-bufferapp-com-1-swagger.html"]).document
    config = buffer["paths"]["/info/configuration{mediaTypeExtension}"]["get"]["responses"]["200"]
    media = config["content"]["application/json"]["schema"]["properties"]["media"]["properties"]
    assert media["picture_size_max"]["type"] == "number"
    update = buffer["paths"]["/updates/{id}{mediaTypeExtension}"]["get"]["responses"]["200"]
    assert (
        update["content"]["application/json"]["schema"]["properties"]["statistics"]["properties"]["clicks"][
            "type"
        ]
        == "number"
    )
    spotify = crawl_pages([PAGES / "widdershins" / "restbench-spotify.html"]).document
    album = spotify["paths"]["/albums/{id}"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert album["properties"]["images"]["items"]["properties"]["height"]["type"] == "integer"


def test_a_bootprint_page_gives_base_path_columns_and_nested_field_terms() -> None:
    # bootprint: "Base URL: /v2, Version: 1.0.0" (the base path only), parameter tables under an
    # empty header row with the location and the type in cells of their own, responses as outline
    # lists ("200 OK" → "genres: object[]" → "id: integer"), schemas as "Error: object" sections.
    petstore = crawl_pages([PAGES / "bootprint" / "realworld-v3-0-petstore-expanded.html"])
    doc = petstore.document
    assert petstore.findings == [] and doc["servers"] == [{"url": "/v2"}]
    params = {p["name"]: (p["in"], p["schema"]["type"]) for p in doc["paths"]["/pets"]["get"]["parameters"]}
    assert params == {"tags": ("query", "array"), "limit": ("query", "integer")}
    assert doc["paths"]["/pets/{id}"]["get"]["parameters"][0]["schema"]["type"] == "integer"
    tmdb = crawl_pages([PAGES / "bootprint" / "restbench-tmdb.html"]).document
    genres = tmdb["paths"]["/genre/movie/list"]["get"]
    assert "parameters" not in genres  # the response's nested fields are no query parameters
    schema = genres["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["genres"]["type"] == "array"
    assert schema["properties"]["genres"]["items"]["properties"] == {
        "id": {"type": "integer"},
        "name": {"type": "string"},
    }


def test_a_method_and_path_named_in_a_text_run_is_a_template_that_sample_urls_fill() -> None:
    # Scalar with every tag open: TMDB's operations have no heading that is only a path; the run
    # "Request Example for get/collection/{collection_id}" names the template, and the cURL sample
    # (".../3/collection/1?api_key=...") fills it, so the rest of its URL is the server.
    doc = crawl_pages([PAGES / "scalar" / "restbench-tmdb.html"]).document
    assert doc["servers"] == [{"url": "https://api.themoviedb.org/3"}]
    assert {"/collection/{collection_id}", "/discover/movie", "/movie/{movie_id}/credits"} <= set(
        doc["paths"]
    )
    assert not any(path.startswith("/3/") for path in doc["paths"])


def test_scalar_status_tabs_and_literal_paths_over_templates() -> None:
    # "Status: 200 | Status: 401 | …" is a strip of tabs showing its first tab's example; a sample URL
    # ".../3/movie/top_rated" is the literal path the page names, not /movie/{movie_id} filled in.
    tmdb = crawl_pages([PAGES / "scalar" / "restbench-tmdb.html"]).document
    assert {"/movie/top_rated", "/movie/{movie_id}", "/person/popular"} <= set(tmdb["paths"])
    spotify = crawl_pages([PAGES / "scalar" / "restbench-spotify.html"]).document
    album = spotify["paths"]["/albums/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert {"album_type", "total_tracks", "tracks"} <= set(album["schema"]["properties"])


def test_a_code_block_that_is_only_a_path_is_a_template() -> None:
    # openapi-generator's html2 page shows each operation's path alone in a code block and its cURL
    # sample with the full URL: the rest of that URL is the server, base path included.
    doc = crawl_pages([PAGES / "openapi-generator" / "realworld-v3-0-petstore-expanded.html"]).document
    assert doc["servers"] == [{"url": "https://petstore.swagger.io/v2"}]
    assert set(doc["paths"]) == {"/pets", "/pets/{id}"}


def test_fields_drawn_as_runs_and_a_key_in_the_query_string() -> None:
    # Scalar draws parameters as runs ("page", "Type: integer", "Default", "1", a description) and
    # fills `?api_key=YOUR_SECRET_TOKEN` into every cURL sample: the key is a security scheme.
    doc = crawl_pages([PAGES / "scalar" / "restbench-tmdb.html"]).document
    popular = doc["paths"]["/tv/popular"]["get"]
    assert [(p["name"], p["in"], p["schema"]["type"]) for p in popular["parameters"]] == [
        ("page", "query", "integer")
    ]
    assert popular["security"] == [{"api_keyQuery": []}]
    assert doc["components"]["securitySchemes"]["api_keyQuery"] == {
        "type": "apiKey",
        "in": "query",
        "name": "api_key",
    }
    # Optional parameters the sample URL leaves out are read from their runs too.
    assert "region" in {p["name"] for p in doc["paths"]["/movie/now_playing"]["get"]["parameters"]}
    # Runs under a "Headers" label are header parameters.
    yelp = crawl_pages([PAGES / "scalar" / "realworld-yelp-com-v3-swagger.html"]).document
    search = {p["name"]: p for p in yelp["paths"]["/businesses/search"]["get"]["parameters"]}
    assert (search["Authorization"]["in"], search["Authorization"]["required"]) == ("header", True)
    assert search["latitude"]["schema"]["type"] == "number"


def test_a_request_line_in_a_code_block_with_its_label_headings_after_it() -> None:
    # openapi-generator's `html` page: each operation is `<pre><code>get /pets</code></pre>` under one
    # h1 for all, followed by its own h3 labels ("Query parameters", "Return type", "Responses"); the
    # request line sits under the previous operation's last label ("default"), and "Models" ends the last.
    result = crawl_pages([PAGES / "openapi-generator-html" / "realworld-v3-0-petstore-expanded.html"])
    doc = result.document
    assert result.findings == []
    assert doc["servers"] == [{"url": "/v2"}]  # "BasePath:/v2", Swagger 2's name for it, no host shown
    listing = doc["paths"]["/pets"]["get"]
    assert {(p["name"], p["in"]) for p in listing["parameters"]} == {("tags", "query"), ("limit", "query")}
    items = listing["responses"]["200"]["content"]["application/json"]["schema"]
    assert {"name", "tag", "id"} <= set(items.get("items", items).get("properties", {}))
    assert listing["description"].startswith("Returns all pets")  # not the previous operation's prose
    assert doc["paths"]["/pets"]["post"]["description"].startswith("Creates a new pet")
    # Two "Example data" blocks no label ties to a status follow the statuses in order (200, default).
    assert set(doc["paths"]["/pets/{id}"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"]["properties"]) == {"name", "tag", "id"}  # fmt: skip


def test_numbered_schema_sections_a_datatype_column_and_a_body_named_by_its_schema() -> None:
    # The asciidoc page (openapi-generator's `asciidoc` through Asciidoctor.js): models under numbered
    # headings ("2.3. Pet"), a responses table "Code | Message | Datatype", "X" in a Required column,
    # and the body as one "parameter" named after its schema ("NewPet").
    result = crawl_pages([PAGES / "asciidoc" / "realworld-v3-0-petstore-expanded.html"])
    pets = result.document["paths"]["/pets"]
    assert result.findings == []
    body = pets["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["properties"] == {"name": {"type": "string"}, "tag": {"type": "string"}}
    assert body["required"] == ["name"]
    created = pets["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert created["properties"]["id"] == {"type": "integer"} and set(created["properties"]) == {
        "name",
        "tag",
        "id",
    }


def test_a_lone_schema_name_before_the_responses_is_the_body() -> None:
    # bootprint: under POST /payments the media type, a description, then a link "PaymentRequest" to
    # a schema section drawn as an outline of "amount: number (double)" terms.
    doc = crawl_pages([PAGES / "bootprint" / "socbench-09-communication-01-Telecom.html"]).document
    body = doc["paths"]["/payments"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {name: field["type"] for name, field in body["properties"].items()} == {
        "amount": "number",
        "invoiceId": "string",
        "paymentMethod": "string",
    }


def test_a_schema_tree_drawn_as_runs_of_text_gives_fields_types_and_required() -> None:
    # RapiDoc with default-schema-tab="schema" draws a schema as one run per line: "{", "id * : integer"
    # (an asterisk marks required), "tags: [{" … "}]" for a list of objects, notes between the lines.
    # A strip of status tabs is followed by one such tree per tab, in the tabs' order.
    tmdb = crawl_pages([PAGES / "rapidoc" / "restbench-tmdb.html"]).document
    responses = tmdb["paths"]["/movie/{movie_id}"]["get"]["responses"]
    details = responses["200"]["content"]["application/json"]["schema"]["properties"]
    assert details["vote_average"]["type"] == "number"  # stated: the example showed an integer literal
    assert details["genres"]["type"] == "array"
    assert set(details["genres"]["items"]["properties"]) == {"id", "name"}
    assert "status_message" not in details  # the 401 tab's tree
    error = responses["401"]["content"]["application/json"]["schema"]["properties"]
    assert set(error) == {"status_message", "status_code"}
    # A tree after the body's example is the body's; a sentence that says "parameters" labels nothing.
    energy = crawl_pages([PAGES / "rapidoc" / "socbench-01-energy-01-Energy.html"]).document
    optimize = energy["paths"]["/optimize-usage"]["post"]
    assert "parameters" not in optimize
    body = optimize["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"usagePatterns", "parameters"}
    assert body["required"] == ["usagePatterns", "parameters"]
    reply = optimize["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    assert {"message", "optimizationId"} <= set(reply)


def test_a_schema_tree_of_runs_on_a_small_page(tmp_path: Path) -> None:
    page = (
        "<h2>Get pet</h2><p>get /pets/{id}</p><p>RESPONSE</p><p>200</p><p>404</p>"
        "<p>object</p><p>{</p><p>id * : integer</p><p>Pattern: ^[0-9]{1,9}$</p><p>tags: [{</p>"
        "<p>label: string┃null</p><p>}]</p><p>ONE OF</p><p>1 {</p><p>cat: boolean</p><p>}</p><p>}</p>"
        "<p>object</p><p>{</p><p>message * : string</p><p>}</p>"
    )
    (tmp_path / "pet.html").write_text(f"<html><body>{page}</body></html>", encoding="utf-8")
    doc = crawl_pages([tmp_path / "pet.html"]).document
    responses = doc["paths"]["/pets/{id}"]["get"]["responses"]
    pet = responses["200"]["content"]["application/json"]["schema"]
    assert pet["properties"]["id"]["type"] == "integer" and pet["required"] == ["id"]
    assert pet["properties"]["tags"]["items"]["properties"]["label"]["type"] == "string"
    assert set(pet["properties"]) == {"id", "tags", "cat"}
    assert set(responses["404"]["content"]["application/json"]["schema"]["properties"]) == {"message"}


def test_a_short_sentence_describes_and_a_caption_naming_the_request_does_not() -> None:
    # Scalar: "Search for collections." under the heading is the description; "Request Example for
    # get /search/collection" names the request, it says nothing about it.
    tmdb = crawl_pages([PAGES / "scalar" / "restbench-tmdb.html"]).document
    search = tmdb["paths"]["/search/collection"]["get"]
    assert search["description"].startswith("Search for collections.")
    assert "Request Example" not in search["description"]


def test_a_list_of_request_lines_names_operations_but_takes_no_part() -> None:
    # Scalar draws each tag's operations as a list of request lines ("get /albums/{id}", "delete
    # /me/albums", "put /me/albums") before the tag's sections; the last line of the list had taken
    # the next section ("Get Album") as its own part.
    spotify = crawl_pages([PAGES / "scalar" / "restbench-spotify.html"]).document
    assert spotify["paths"]["/me/albums"]["put"]["summary"].strip() == "Save Albums for Current User"
    assert spotify["paths"]["/albums/{id}"]["get"]["summary"].strip() == "Get Album"
    assert spotify["paths"]["/tracks/{id}"]["get"]["summary"].strip() == "Get Track"
