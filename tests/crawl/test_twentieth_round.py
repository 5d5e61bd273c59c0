"""Issue 17's twentieth round: general rules after the first contact of nadoc (Nadoc's static pages: each operation
an `article` whose header holds the method badge, the title as a heading and the path in code, in that order; its
parameters, body and responses as trees of runs, each field one run of its name, its marks, its type and its schema's
title ("id required integer", "owner object User", "tags any"), the tree's root the schema's own name and type, an
allOf's parts as runs "allOf branch 1 object NewPet" over their fields; a strip of status tabs over one panel per
status, each its caption, media type and tree, a response's headers a `<section>` of their own inside the panel; the
response examples one code block per tab), each on a small fragment of the structure it draws (each fails without
its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, type_: str, *, required: bool = False, title: str = "", inner: str = "") -> str:
    mark = "<strong>required</strong>" if required else ""
    shown = f"<span>{title}</span>" if title else ""
    below = f"<div><ul>{inner}</ul></div>" if inner else "<div></div>"
    return f"<li><span><code>{name}</code>{mark}<span>{type_}</span>{shown}</span><p>The {name}.</p>{below}</li>"


def _tree(root: str, type_: str, fields: str) -> str:
    return (
        f"<div><span>application/json</span><div><details><summary><span><code>{root}</code><span>{type_}</span>"
        f"</span></summary><div><ul>{fields}</ul></div></details></div></div>"
    )


def _operation(method: str, path: str, title: str, parts: str, sample: str = "") -> str:
    slug = title.lower().replace(" ", "-")
    samples = f"<aside><section><h4>Code examples</h4><div><pre><code>{sample}</code></pre></div></section></aside>"
    return (
        f'<article id="operation-{slug}"><header><span>{method}</span><div><h3>{title}</h3>'
        f'<a href="#operation-{slug}"></a></div> <code>{path}</code> <button><span>Show details for {title}</span>'
        f"</button></header><div><div><div><p>{title}, as the service does it.</p></div>{parts}</div>"
        f"{samples if sample else ''}</div></article>"
    )


def _parameters(heading: str, fields: str) -> str:
    return f"<section><div><h4>{heading}</h4><div>{fields}</div></div></section>"


def _parameter(name: str, type_: str, *, required: bool = False) -> str:
    mark = "<strong>required</strong>" if required else ""
    return (
        f"<article><header><div><span><code>{name}</code>{mark}</span><span>{type_}</span></div>"
        f"<p>The {name} to use.</p></header><div></div></article>"
    )


def _page(*operations: str) -> str:
    return (
        '<html><body><main><section id="tag-pets"><header><h2>Pets</h2></header>'
        + "".join(operations)
        + "</section></main></body></html>"
    )


def test_a_method_and_a_path_around_a_title_heading_are_its_request_line(tmp_path: Path) -> None:
    # "GET", the h3 "find pet by id", "/pets/{id}": the line drawn around the title; the cURL sample fills the
    # template with an example ("/pets/0"), which alone would name another path.
    parts = _parameters("Path Parameters", _parameter("id", "integer", required=True))
    sample = "curl --request GET --url 'https://api.example.com/v1/pets/0'"
    html = _page(_operation("GET", "/pets/{id}", "find pet by id", parts, sample))
    document = _crawl(tmp_path, html)
    assert set(document["paths"]) == {"/pets/{id}"}
    assert document["servers"][0]["url"] == "https://api.example.com/v1"
    parameters = document["paths"]["/pets/{id}"]["get"]["parameters"]
    assert [(p["name"], p["in"]) for p in parameters] == [("id", "path")]


def test_a_run_with_its_marks_before_its_type_is_a_field(tmp_path: Path) -> None:
    # "limit required integer": the name in code, a "required" badge, then the type.
    parts = _parameters(
        "Query Parameters", _parameter("limit", "integer", required=True) + _parameter("cursor", "string")
    )
    html = _page(_operation("GET", "/pets", "list pets", parts))
    found = {p["name"]: p for p in _crawl(tmp_path, html)["paths"]["/pets"]["get"]["parameters"]}
    assert set(found) == {"limit", "cursor"}
    assert found["limit"]["required"] is True and found["limit"]["schema"]["type"] == "integer"
    assert not found["cursor"].get("required")


def _responses(*panels: tuple[str, str, str]) -> str:
    tabs = "".join(f"<button>{status}</button>" for status, _, _ in panels)
    shown = "".join(f"<div><p>{caption}</p>{tree}</div>" for _, caption, tree in panels)
    return f"<section><h4>Response schema</h4><div><div>{tabs}</div>{shown}</div></section>"


def _pet_tree() -> str:
    owner = _field("email", "string")
    return _tree(
        "Pet",
        "object",
        _field("id", "integer", required=True)
        + _field("name", "string", required=True)
        + _field("owner", "object", title="User", inner=owner),
    )


def _error_tree() -> str:
    return _tree("Error", "object", _field("code", "integer", required=True) + _field("message", "string"))


def test_a_tree_under_a_media_type_is_headed_by_its_schema_and_ends_at_the_next_media_type(tmp_path: Path) -> None:
    # "Pet object" over the fields is the schema's root, no field; the next panel's "application/json" starts
    # the error's tree, so the 404's fields are not the 200's.
    parts = _responses(("200", "pet response", _pet_tree()), ("404", "not found", _error_tree()))
    html = _page(_operation("GET", "/pets/{id}", "find pet by id", parts))
    responses = _crawl(tmp_path, html)["paths"]["/pets/{id}"]["get"]["responses"]
    pet = responses["200"]["content"]["application/json"]["schema"]
    assert set(pet["properties"]) == {"id", "name", "owner"}
    assert set(pet["properties"]["owner"]["properties"]) == {"email"}
    assert {"id", "name"} <= set(pet.get("required", []))
    error = responses["404"]["content"]["application/json"]["schema"]
    assert set(error["properties"]) == {"code", "message"}


def test_a_field_of_no_stated_type_over_fields_holds_them(tmp_path: Path) -> None:
    # "owner any" (an allOf of parts), then "allOf branch 1 object User" over the part's fields.
    branch = (
        "<li><details><summary><span><code>allOf branch 1</code><span>object</span><span>User</span></span>"
        f"</summary><div><ul>{_field('email', 'string')}{_field('phone', 'string')}</ul></div></details></li>"
    )
    fields = _field("id", "integer", required=True) + _field("owner", "any", inner=branch)
    parts = _responses(("200", "pet response", _tree("Pet", "object", fields)))
    html = _page(_operation("GET", "/pets/{id}", "find pet by id", parts))
    pet = _crawl(tmp_path, html)["paths"]["/pets/{id}"]["get"]["responses"]["200"]["content"]["application/json"]
    properties = pet["schema"]["properties"]
    assert set(properties) == {"id", "owner"}  # the part's fields nest under owner, not beside it
    assert properties["owner"]["type"] == "object" and set(properties["owner"]["properties"]) == {"email", "phone"}


def test_one_example_per_status_tab_is_that_status_example(tmp_path: Path) -> None:
    # "200", "404", then two code blocks: every panel drawn, each its own tab's example.
    examples = (
        "<aside><section><h4>Response example</h4><div><div><div><button>200</button><button>404</button></div></div>"
        '<div><div><pre><code>{"id": 1, "name": "Rex"}</code></pre></div>'
        '<div><pre><code>{"code": 404, "message": "string"}</code></pre></div></div></div></section></aside>'
    )
    parts = "<section><h4>Response schema</h4><div><div><button>200</button><button>404</button></div></div></section>"
    html = _page(_operation("GET", "/pets/{id}", "find pet by id", parts + examples))
    responses = _crawl(tmp_path, html)["paths"]["/pets/{id}"]["get"]["responses"]
    assert set(responses["200"]["content"]["application/json"]["schema"]["properties"]) == {"id", "name"}
    assert set(responses["404"]["content"]["application/json"]["schema"]["properties"]) == {"code", "message"}


def test_a_headers_section_inside_a_response_ends_with_its_section(tmp_path: Path) -> None:
    # A response's headers, a `<section>` led by its own h4 inside the h4 "Response schema"'s section, then
    # the body's tree after it: the headers are no request header parameters, the tree is the response's.
    headers = (
        "<section><h4>Headers</h4><div><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>"
        "<tbody><tr><td><code>X-Rate-Limit</code></td><td><code>integer</code></td><td>Calls left</td></tr>"
        "</tbody></table></div></section>"
    )
    token = _tree("Token", "object", _field("access_token", "string") + _field("expires_in", "integer"))
    parts = (
        "<section><div><h4>Request body</h4>"
        + _tree("Request", "object", _field("grant_type", "string", required=True))
        + "</div></section><section><h4>Response schema</h4><div><div><button>201</button></div>"
        f"<div><p>Created</p>{headers}{token}</div></div></section>"
    )
    html = _page(_operation("POST", "/token", "issue a token", parts))
    operation = _crawl(tmp_path, html)["paths"]["/token"]["post"]
    assert not operation.get("parameters")  # X-Rate-Limit is the response's header
    body = operation["requestBody"]["content"]["application/json"]["schema"]["properties"]
    assert set(body) == {"grant_type"}
    (response,) = [r for r in operation["responses"].values() if "content" in r]
    assert set(response["content"]["application/json"]["schema"]["properties"]) == {"access_token", "expires_in"}


def test_a_tree_under_any_media_type_is_headed_by_its_schema(tmp_path: Path) -> None:
    # "*/*": the media type a Swagger 2 spec that names none is drawn with; "ArticlesList object" is the root.
    tree = _tree("ArticlesList", "object", _field("total", "integer") + _field("next", "string"))
    parts = _responses(("200", "OK", tree.replace("application/json", "*/*")))
    html = _page(_operation("GET", "/articles", "list articles", parts))
    response = _crawl(tmp_path, html)["paths"]["/articles"]["get"]["responses"]["200"]
    (content,) = response["content"].values()
    assert set(content["schema"]["properties"]) == {"total", "next"}


def test_items_alone_under_a_list_wraps_its_items_even_when_they_are_lists(tmp_path: Path) -> None:
    # "categories array", then "items required array" alone under it, then its own "items required string".
    inner = _field("items", "string", required=True)
    fields = _field("categories", "array", inner=_field("items", "array", required=True, inner=inner))
    parts = _responses(("200", "OK", _tree("Article", "object", _field("id", "string") + fields)))
    html = _page(_operation("GET", "/articles", "list articles", parts))
    response = _crawl(tmp_path, html)["paths"]["/articles"]["get"]["responses"]["200"]
    schema = response["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"id", "categories"}
    categories = schema["properties"]["categories"]
    assert categories["type"] == "array" and "items" not in categories["items"].get("properties", {})


def test_the_nadoc_pages_meet_the_targets_on_petstore_and_twilio() -> None:
    petstore = crawl_pages([BENCH / "pages" / "nadoc" / "realworld-v3-0-petstore-expanded.html"]).document
    assert set(petstore["paths"]) == {"/pets", "/pets/{id}"}
    assert set(petstore["paths"]["/pets/{id}"]) == {"get", "delete"}
    twilio = crawl_pages([BENCH / "pages" / "nadoc" / "realworld-twilio_oauth_v1.html"]).document
    token = twilio["paths"]["/v1/token"]["post"]
    assert not token.get("parameters")
    (body,) = token["requestBody"]["content"].values()
    assert {"GrantType", "ClientId"} <= set(body["schema"]["properties"])
