"""Rules from issue 17's third round, each on a small real HTML fragment (shaped as the pages of
openapi-generator's markdown generator and of MkDocs' neoteroi OpenAPI plugin draw it), and on the
committed pages of those two renderers."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.tables import normalize_type
from tests.crawl.conftest import PAGES

# A table of operations (a request line only there) and each operation's own section under its name.
_OPERATION_TABLE = """
<h1>PetApi</h1><p>All URIs are relative to <em>https://petstore.example/v2</em></p>
<table><thead><tr><th>Class</th><th>Method</th><th>HTTP request</th><th>Description</th></tr></thead>
<tbody><tr><td>PetApi</td><td><a href="#addPet">addPet</a></td><td><strong>POST</strong> /pets</td>
<td>Add a pet</td></tr>
<tr><td>PetApi</td><td><a href="#findPets">findPets</a></td><td><strong>GET</strong> /pets</td><td></td></tr>
</tbody></table>
<h1>addPet</h1><blockquote><p>Pet addPet(NewPet)</p></blockquote>
<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>dryRun</td><td>Boolean</td><td>validate only</td></tr></tbody></table>
<h3>Return type</h3><p><a href="#Pet"><strong>Pet</strong></a></p>
<h1>findPets</h1><blockquote><p>List findPets(tags, limit)</p></blockquote>
<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>tags</td><td><a href="#String">List</a></td><td>tags to filter by</td></tr>
<tr><td>limit</td><td>Integer</td><td>at most</td></tr></tbody></table>
<h1>Pet</h1><h2>Properties</h2><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr>
</thead><tbody><tr><td>id</td><td>Long</td><td></td></tr><tr><td>weight</td><td>BigDecimal</td><td></td>
</tr></tbody></table>
"""


def _crawl(tmp_path: Path, body: str) -> dict:
    (tmp_path / "page.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return crawl_pages([tmp_path / "page.html"]).document


def test_a_table_of_operations_names_the_heading_of_each_operations_section(tmp_path: Path) -> None:
    doc = _crawl(tmp_path, _OPERATION_TABLE)
    # The request lines stand only in the table; each operation's part is the section its name heads
    # (not the "PetApi" heading: that name is every row's, a group's).
    assert set(doc["paths"]["/pets"]) == {"get", "post"}
    find = doc["paths"]["/pets"]["get"]
    assert {p["name"] for p in find["parameters"]} == {"tags", "limit"}
    assert {p["name"] for p in doc["paths"]["/pets"]["post"]["parameters"]} == {"dryRun"}


def test_a_return_type_label_names_the_successful_response(tmp_path: Path) -> None:
    doc = _crawl(tmp_path, _OPERATION_TABLE)
    ok = doc["paths"]["/pets"]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["properties"]["id"]["type"] == "integer"
    assert ok["properties"]["weight"]["type"] == "number"


def test_collection_and_decimal_types_as_code_generators_print_them() -> None:
    assert normalize_type("List") == "array"
    assert normalize_type("Set<String>") == "array"
    assert normalize_type("BigDecimal") == "number"
    assert normalize_type("List of pets to add") == "array"  # the words, as before
    assert normalize_type("List findPets") is None  # a signature, no type


def test_a_json_schema_in_a_code_block_is_a_field_table(tmp_path: Path) -> None:
    # MkDocs' neoteroi plugin shows an example and then the schema itself as JSON; the schema's
    # keywords ("type", "properties") are no fields, its properties are, with their stated types.
    body = """
<h3>POST /feedback</h3><p><strong>Request body</strong></p>
<pre><code>{"product_id": "string", "rating": 215}</code></pre>
<p><strong>Schema of the request body</strong></p>
<pre><code>{"type": "object", "required": ["product_id"], "properties": {
  "product_id": {"type": "string", "description": "The product reviewed."},
  "rating": {"type": "integer", "format": "int32"},
  "tags": {"type": "array", "items": {"type": "object", "properties": {"label": {"type": "string"}}}}}}
</code></pre>
<h3>Response 201 Created</h3>
<pre><code>{"feedback_id": "string"}</code></pre>
<p><strong>Schema of the response body</strong></p>
<pre><code>{"type": "object", "properties": {"feedback_id": {"type": "string"}}}</code></pre>
"""
    operation = _crawl(tmp_path, body)["paths"]["/feedback"]["post"]
    body_schema = operation["requestBody"]["content"]["application/json"]["schema"]
    assert set(body_schema["properties"]) == {"product_id", "rating", "tags"}
    assert body_schema["properties"]["rating"]["type"] == "integer"
    assert body_schema["properties"]["tags"]["items"]["properties"]["label"]["type"] == "string"
    assert body_schema.get("required") == ["product_id"]
    response = operation["responses"]["201"]["content"]["application/json"]["schema"]
    assert set(response["properties"]) == {"feedback_id"}


def test_the_committed_pages_of_the_third_round_renderers_give_their_operations() -> None:
    markdown = crawl_pages([PAGES / "openapi-generator-markdown" / "realworld-v3-0-petstore-expanded.html"])
    assert {(m, p) for p, item in markdown.document["paths"].items() for m in item} >= {
        ("get", "/pets"),
        ("post", "/pets"),
        ("delete", "/pets/{id}"),
    }
    mkdocs = crawl_pages([PAGES / "mkdocs" / "socbench-05-consumer-02-Consumer.html"]).document
    schemas = [
        op["requestBody"]["content"]["application/json"]["schema"]
        for item in mkdocs["paths"].values()
        for op in item.values()
        if "requestBody" in op
    ]
    assert schemas and not any("properties" in s["properties"] for s in schemas)


def test_a_name_listed_among_the_security_schemes_is_a_credential_not_a_parameter(tmp_path: Path) -> None:
    body = """
<h3>GET /movie/{movie_id}</h3><p><strong>Input parameters</strong></p>
<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>
<tr><td>api_key</td><td>query</td><td>string</td><td>API key</td></tr>
<tr><td>movie_id</td><td>path</td><td>integer</td><td></td></tr>
<tr><td>language</td><td>query</td><td>string</td><td></td></tr></tbody></table>
<h2>Security schemes</h2>
<table><thead><tr><th>Name</th><th>Type</th><th>Scheme</th><th>Description</th></tr></thead>
<tbody><tr><td>api_key</td><td>apiKey</td><td></td><td></td></tr></tbody></table>
"""
    operation = _crawl(tmp_path, body)["paths"]["/movie/{movie_id}"]["get"]
    assert {p["name"] for p in operation["parameters"]} == {"movie_id", "language"}


def test_a_response_run_that_ends_by_naming_a_schema_section_takes_its_fields(tmp_path: Path) -> None:
    body = """
<h2>Endpoints</h2><h3>GET /albums/{id}</h3><p>Get Album</p>
<h3>Response 200 OK</h3>
<p>Refer to the common response description: <a href="#onealbum">OneAlbum</a></p>
<h2>Common responses</h2><h3>OneAlbum</h3><p><strong>application/json</strong></p>
<pre><code>{"type": "object", "properties": {"name": {"type": "string"}, "total_tracks": {"type": "integer"}}}
</code></pre>
"""
    ok = _crawl(tmp_path, body)["paths"]["/albums/{id}"]["get"]["responses"]["200"]
    assert set(ok["content"]["application/json"]["schema"]["properties"]) == {"name", "total_tracks"}


def test_a_parameter_row_named_after_a_page_schema_is_the_body_and_a_long_return_name_counts(
    tmp_path: Path,
) -> None:
    # openapi-generator names an inline body and response after the operation
    # ("_inventory_optimize_post_request"): a name over 30 characters, alone in its run.
    body = """
<table><thead><tr><th>Method</th><th>HTTP request</th><th>Description</th></tr></thead>
<tbody><tr><td>inventoryOptimizePost</td><td>POST /inventory/optimize</td><td></td></tr></tbody></table>
<h1>inventoryOptimizePost</h1>
<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>_inventory_optimize_post_request</td><td>_inventory_optimize_post_request</td>
<td>Inventory data.</td></tr></tbody></table>
<h3>Return type</h3><p>_inventory_optimize_post_200_response</p>
<h1>_inventory_optimize_post_200_response</h1><h2>Properties</h2>
<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>recommendations</td><td>List</td><td></td></tr></tbody></table>
<h1>_inventory_optimize_post_request</h1><h2>Properties</h2>
<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>warehouseId</td><td>String</td><td></td></tr></tbody></table>
"""
    operation = _crawl(tmp_path, body)["paths"]["/inventory/optimize"]["post"]
    assert not operation.get("parameters")
    assert set(operation["requestBody"]["content"]["application/json"]["schema"]["properties"]) == {
        "warehouseId"
    }
    ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok["properties"]["recommendations"]["type"] == "array"


def test_a_servers_table_and_paths_relative_to_a_url_state_the_server(tmp_path: Path) -> None:
    table = """
<h2>Servers</h2><table><thead><tr><th>Description</th><th>URL</th></tr></thead>
<tbody><tr><td></td><td>https://api.example.com/3</td></tr></tbody></table>
<h3>GET /movie/{movie_id}</h3><p>Get a movie.</p>
"""
    assert _crawl(tmp_path, table)["servers"] == [{"url": "https://api.example.com/3"}]
    relative = "<p>All URIs are relative to <em>https://petstore.example/v2</em></p>" + _OPERATION_TABLE
    assert _crawl(tmp_path, relative)["servers"][0] == {"url": "https://petstore.example/v2"}
