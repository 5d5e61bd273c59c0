"""Issue 17's thirty-third round: general rules after the thirty-second round's postman-to-markdown (a Postman
collection's requests as Markdown): a method stated after a label ("Method: GET") over a code block of the URL
alone; a URL whose server is an API client's variable ("{{baseUrl}}/pets/:id"); type names between angle brackets
as placeholder values ("<integer>", in a body's example and in the URL's query string); a response label whose status
is a missing value's word ("Response: undefined"); separators, "[object Object]" and an "End-point:" label are no
words about the operation. Each on a small fragment of the structure (each fails without its rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.example_schema import placeholder_type, schema_from_example
from openapi_rag.crawl.labels import label_status
from openapi_rag.crawl.samples import is_path, split_url

_SEPARATOR = "<p>⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃ ⁃</p>"


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _endpoint(title: str, method: str, url: str, rest: str = "") -> str:
    return (
        f"<h2>End-point: {title}</h2><p>[object Object]</p><h3>Method: {method}</h3>"
        f"<blockquote><pre><code>{url}\n</code></pre></blockquote>{rest}{_SEPARATOR}"
    )


def _response(status: str, json: str) -> str:
    return (
        f"<h3>Response: {status}</h3><details open><summary>Response example:</summary>"
        f'<pre><code class="language-json">{json}</code></pre></details>'
    )


def test_a_labelled_method_over_a_url_box_is_the_request_line(tmp_path: Path) -> None:
    # "Method: GET" (a heading) over a code block of the URL alone: one request line, as a bare "GET" badge's
    page = _endpoint("find pet by id", "GET", "{{baseUrl}}/pets/:id") + _endpoint(
        "list pets", "GET", "{{baseUrl}}/pets?limit=&lt;integer&gt;&amp;tag=&lt;string&gt;"
    )
    document = _crawl(tmp_path, f"<html><body><h1>Pets</h1>{page}</body></html>")
    assert set(document["paths"]) == {"/pets/{id}", "/pets"}
    listed = document["paths"]["/pets"]["get"]["parameters"]
    # the URL's query string names the query parameters, each placeholder its type
    assert {p["name"]: (p["in"], p["schema"]["type"]) for p in listed} == {
        "limit": ("query", "integer"),
        "tag": ("query", "string"),
    }


def test_a_client_variable_for_the_server_leaves_the_path() -> None:
    assert split_url("{{baseUrl}}/movie/:movie_id/reviews?page=1") == ("", "/movie/{movie_id}/reviews", ["page"])
    assert split_url("${BASE_URL}/pets") == ("", "/pets", [])
    # a double-braced variable inside a segment is a template variable
    assert split_url("{{baseUrl}}/info/configuration{{mediaTypeExtension}}")[1] == "/info/configuration{mediaTypeExtension}"
    assert is_path("{{baseUrl}}/pets/:id") == "/pets/:id"
    assert is_path("{{baseUrl}}") is None  # a variable alone shows no path


def test_angle_bracket_type_names_are_placeholders_of_that_type() -> None:
    assert placeholder_type("<long>") == "integer" and placeholder_type("<dateTime>") == "string"
    assert placeholder_type("<double>") == "number" and placeholder_type("<boolean>") == "boolean"
    assert placeholder_type("<b>") is None and placeholder_type("integer") is None
    # beside real values (an example the generator filled where the schema had one): each placeholder alone
    schema = schema_from_example({"id": "<long>", "imdb_id": "tt5731388", "adult": "<boolean>"}, {})
    types = {name: child["type"] for name, child in schema["properties"].items()}
    assert types == {"id": "integer", "imdb_id": "string", "adult": "boolean"}


def test_a_response_of_a_missing_status_is_no_success(tmp_path: Path) -> None:
    assert label_status("response example: | response: undefined") == "default"
    assert label_status("response example: | response: 200") == "200"
    rest = _response("200", '{"id": "&lt;long&gt;", "name": "&lt;string&gt;"}') + _response(
        "undefined", '{"code": "&lt;integer&gt;", "message": "&lt;string&gt;"}'
    )
    page = _endpoint("get pet", "GET", "{{baseUrl}}/pets/:id", rest)
    document = _crawl(tmp_path, f"<html><body><h1>Pets</h1>{page}</body></html>")
    responses = document["paths"]["/pets/{id}"]["get"]["responses"]
    success = responses["200"]["content"]["application/json"]["schema"]
    assert set(success["properties"]) == {"id", "name"} and success["properties"]["id"]["type"] == "integer"
    assert set(responses["default"]["content"]["application/json"]["schema"]["properties"]) == {"code", "message"}


def test_separators_printed_objects_and_an_endpoint_label_say_nothing_of_the_operation(tmp_path: Path) -> None:
    page = _endpoint("Find pets by tag", "GET", "{{baseUrl}}/pets") + _endpoint("Add a pet", "POST", "{{baseUrl}}/pets")
    document = _crawl(tmp_path, f"<html><body><h1>Pets</h1>{page}</body></html>")
    operation = document["paths"]["/pets"]["get"]
    assert operation["summary"] == "Find pets by tag"
    assert "description" not in operation  # neither "[object Object]" nor the row of "⁃"
    assert "⁃" not in document["info"].get("description", "")


def test_a_url_with_a_long_query_string_is_still_a_url() -> None:
    # a request line that shows a value for each of many query parameters runs past 500 characters
    query = "&".join(f"param_{n}=&lt;string&gt;".replace("&lt;", "<").replace("&gt;", ">") for n in range(60))
    url = "{{baseUrl}}/discover/movie?" + query
    assert len(url) > 500
    assert is_path(url) == "/discover/movie?" + query
    assert is_path("/a/" + "b" * 600) is None  # a path that long is none
    assert is_path("word " * 120 + "/pets?x=1") is None  # nor text that long with spaces
