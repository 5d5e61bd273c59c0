"""Request samples: cURL, raw HTTP, METHOD /path lines and JSON blocks."""

from __future__ import annotations

from openapi_rag.crawl.samples import is_path, parse_curl, parse_http, parse_json, parse_signature, split_url


def test_curl_with_continuations_headers_and_json_body() -> None:
    sample = parse_curl(
        "# You can also use wget\ncurl -X POST https://api.example.com/v1/pets?dry_run=true \\\n"
        "  -H 'Content-Type: application/json' \\\n  -H 'Authorization: Bearer {token}' \\\n"
        '  -d \'{"name": "Rex", "tags": ["a"]}\''
    )
    assert sample is not None
    assert (sample.method, sample.url) == ("POST", "https://api.example.com/v1/pets?dry_run=true")
    assert sample.headers["Authorization"] == "Bearer {token}"
    assert sample.body == {"name": "Rex", "tags": ["a"]}


def test_curl_defaults_and_form_fields() -> None:
    assert parse_curl("curl https://x.io/a").method == "GET"
    sample = parse_curl("curl https://x.io/upload -F file=@a.png -u me:secret")
    assert (sample.method, sample.form, sample.user) == ("POST", ["file"], True)
    assert parse_curl("echo curl is a tool") is None


def test_raw_http_request() -> None:
    sample = parse_http('POST /v2/pets HTTP/1.1\nHost: petstore.io\nX-Trace: 1\n\n{"name": "Rex"}')
    assert (sample.method, sample.url) == ("POST", "https://petstore.io/v2/pets")
    assert sample.headers == {"Host": "petstore.io", "X-Trace": "1"}
    assert sample.body == {"name": "Rex"}


def test_signature_lines_only_when_they_stand_alone() -> None:
    assert parse_signature("GET /pets/{id}") == ("GET", "/pets/{id}")
    assert parse_signature("delete https://api.io/v1/x") == ("DELETE", "https://api.io/v1/x")
    assert parse_signature("Use GET /pets to list them") is None


def test_split_url_templates_and_query() -> None:
    assert split_url("https://api.io/v1/users/:id/items/<item>?page=2&q=") == (
        "https://api.io",
        "/v1/users/{id}/items/{item}",
        ["page", "q"],
    )
    assert split_url("{scheme}://host.io/api/")[0] == "https://host.io"


def test_json_blocks_lenient_but_only_objects_and_arrays() -> None:
    assert parse_json('{"a": 1,\n  ...\n}') == {"a": 1}
    assert parse_json('[{"a": 1},]') == [{"a": 1}]
    assert parse_json("0") is None
    assert parse_json("{not json") is None


def test_a_raw_http_response_is_a_response_example() -> None:
    from openapi_rag.crawl.samples import parse_http_response

    shown = 'HTTP/1.1 201 Created\nContent-Type: application/json\n\n{"id": 7, "name": "Rex"}'
    assert parse_http_response(shown) == ("201", {"id": 7, "name": "Rex"})
    assert parse_http_response("HTTP/1.1 204 No Content\n\n") is None
    assert parse_http_response('{"id": 7}') is None


def test_signatures_with_the_method_in_brackets_or_with_a_colon() -> None:
    assert parse_signature("[GET]/pets/{id}") == ("GET", "/pets/{id}")
    assert parse_signature("(delete) /pets/{id}") == ("DELETE", "/pets/{id}")
    assert parse_signature("POST: /pets") == ("POST", "/pets")
    assert parse_signature("GETTING /pets") is None and parse_signature("GET/pets") is None


def test_type_declarations_are_a_field_table() -> None:
    from openapi_rag.crawl.declarations import declaration_rows

    rows = declaration_rows(
        "{\n  // The pet's name\n  name: string\n  tag?: string\n  owner: {\n    id: integer\n  }\n"
        "  photos?: {\n    url: string\n  }[]\n}"
    )
    assert rows == [
        ["name", "type", "required", "description"],
        ["name", "string", "required", "The pet's name"],
        ["tag", "string", "optional", ""],
        ["owner", "object", "required", ""],
        ["» id", "integer", "required", ""],
        ["photos", "array", "optional", ""],
        ["» url", "string", "required", ""],
    ]
    assert declaration_rows("import requests\nrequests.get(url)") is None
    assert declaration_rows("{\n  name: string\n") is None  # an unclosed brace: not a declaration


def test_a_path_drawn_as_separate_segments_is_one_path() -> None:
    assert is_path("/pets /{id} /photos") == "/pets/{id}/photos"
    assert is_path("/pets") == "/pets"
    assert is_path("/pets and more") is None
    assert parse_signature("GET /pets /{id}") == ("GET", "/pets/{id}")
