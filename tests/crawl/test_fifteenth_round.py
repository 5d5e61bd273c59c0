"""Issue 17's fifteenth round: general rules after Kong's spec renderer's first contact (its web component,
Vue: each operation an h2 title, the description, the method as a run and one run holding the server's base
URL and the path, each in a span of its own ("https://api.example.com/v1 /pets"; the path alone where the
spec has no server); "Query Parameters", "Body" and "Response" h3s inside collapsible sections, each field
one run of its name, its type ("array [string]", "string | null", "integer | null (int64)") and "required";
then a console: the request line again ("post /deploy"), a "Try It!" button, "Path Parameters", "Query
Parameters", "Headers" and "Body" h3s, a switch captioned "Show only required parameters" and the request's
example twice (highlighted, then as one line of plain text); then a cURL sample and the first status's
example), each on a small fragment of the structure it draws (each fails without its rule), and the real
pages."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.inline_fields import inline_field
from openapi_rag.crawl.labels import label_before, label_kind, part_label
from openapi_rag.crawl.page import Block, parse_html
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, type_: str, *, required: bool = False, description: str = "") -> str:
    mark = "<span>required</span>" if required else ""
    about = f"<div><div><p>{description}</p></div></div>" if description else ""
    return f"<div><div><span><span>{name}</span></span><span><span>{type_}</span>{mark}</span></div>{about}</div>"


def _operation(
    method: str,
    path: str,
    title: str,
    *,
    server: str = "https://api.example.com/v1",
    body: str = "",
    response: str = "",
    example: dict | None = None,
    answer: dict | None = None,
    caption: str = "<label> Show only required parameters </label><div><input></div>",
) -> str:
    """One operation as the page draws it: its documentation, then its console and samples."""
    line = f"<div><span>{method}</span><div><span>{server}</span><span>{path}</span></div></div>"
    documented = (
        f"<section><details><summary><h3>Body</h3><span>application/json</span></summary><div>{body}</div></details>"
        if body
        else ""
    )
    documented += (
        "<details><summary><div><h3>Response</h3><div><button><span></span> 200</button></div>"
        f"<span>application/json</span></div></summary><div><p>Done.</p>{response}</div></details></section>"
    )
    shown = json.dumps(example or {}, indent=2)
    console = (
        f"<div><div><span>{method}</span><span>{path}</span></div><div><button> Try It! </button></div></div>"
        "<div><h3>Path Parameters</h3></div><div><h3>Query Parameters</h3></div><div><h3>Headers</h3></div>"
        f"<div><h3>Body</h3></div><div>{caption}<pre><code>{shown}</code></pre>"
        f"<div>{json.dumps(example or {}).replace('{', '{ ').replace('}', ' }')}</div></div>"
        if example
        else ""
    )
    sample = (
        f"<div><button> Shell</button></div><pre><code>curl --request {method.upper()} \\\n"
        f"  --url {server}{path}</code></pre>"
    )
    answered = (
        f"<div><button><span></span> 200</button><span> application/json</span></div>"
        f"<pre><code>{json.dumps(answer, indent=2)}</code></pre>"
        if answer
        else ""
    )
    return (
        f"<div><div><h2>{title}</h2><div><p>What {title.lower()} does, in a sentence.</p></div>{line}"
        f"{documented}</div><div>{console}{sample}{answered}</div></div>"
    )


def _page(*operations: str) -> str:
    return f"<html><body><main>{''.join(operations)}</main></body></html>"


_DEPLOY = {"applicationId": "applicationId", "version": "version"}


def _deploy(**kwargs: object) -> str:
    return _operation(
        "post",
        "/deploy",
        "Initiate deployment",
        body=_field("applicationId", "string", required=True) + _field("version", "string", required=True),
        response=_field("deploymentId", "string") + _field("status", "string"),
        example=_DEPLOY,
        answer={"deploymentId": "deploymentId", "status": "status"},
        **kwargs,  # type: ignore[arg-type]
    )


def _response_names(document: dict, path: str, method: str) -> set[str]:
    responses = document["paths"][path][method]["responses"]
    names: set[str] = set()
    for response in responses.values():
        schema = ((response.get("content") or {}).get("application/json") or {}).get("schema") or {}
        names |= set(schema.get("properties") or {})
    return names


def test_a_form_controls_caption_labels_the_control_not_what_follows() -> None:
    # "Show only required parameters" captions a switch: the JSON after it is under "Body", not a parameter.
    html = _page(_deploy())
    blocks = parse_html(html).blocks
    shown = next(i for i, b in enumerate(blocks) if b.kind == "code" and "applicationId" in b.text)
    assert blocks[shown - 1].caption and blocks[shown - 1].text == "Show only required parameters"
    assert label_before(blocks, shown) == "body"


def test_a_consoles_body_after_the_responses_is_the_requests(tmp_path: Path) -> None:
    # The console repeats the request line ("post /deploy") after the responses ("200"), then "Body" and
    # the request's example: the request's, not the response's (with or without a caption over it).
    for caption in ("", "<label> Show only required parameters </label><div><input></div>"):
        document = _crawl(tmp_path, _page(_deploy(caption=caption)))
        assert _response_names(document, "/deploy", "post") == {"deploymentId", "status"}
        body = document["paths"]["/deploy"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert set(body["properties"]) == {"applicationId", "version"}


def test_the_same_value_drawn_again_right_after_its_code_is_one_example(tmp_path: Path) -> None:
    # The console draws the body highlighted, then the same JSON as one line of plain text: one example.
    # (Without a label between, the second copy would stand for an unlabelled response.)
    html = _page(_deploy()).replace("<div><h3>Body</h3></div>", "<div><h3>Request body</h3></div>")
    document = _crawl(tmp_path, html)
    assert _response_names(document, "/deploy", "post") == {"deploymentId", "status"}


def test_a_piece_label_never_reaches_back_past_its_operations_title() -> None:
    # An operation drawn twice (under two tags) is one region of two parts: the second part's "Body" (under
    # its h2 title) is its request's, not the first part's last response ("200").
    blocks = [
        Block("heading", "Remove albums", level=2),
        Block("text", "Album(s) removed."),
        Block("text", "200"),
        Block("heading", "Remove albums", level=2),
        Block("text", "delete"),
        Block("heading", "Body", level=3),
        Block("text", "application/json"),
        Block("table", rows=[["ids", "array"]]),
    ]
    label = part_label(blocks, 7, label_before(blocks, 7))
    assert label_kind(label) == "request"


def test_a_path_is_no_label(tmp_path: Path) -> None:
    # No server: the request line is "post" and "/incident-response", whose last word names no response.
    assert label_kind("/incident-response") == "" and label_kind("/v1/responses/{id}") == ""
    operation = _operation(
        "post",
        "/incident-response",
        "Report incidents",
        server="",
        body=_field("incident_type", "string", required=True) + _field("zone_id", "string", required=True),
    )
    document = _crawl(tmp_path, _page(operation))
    body = document["paths"]["/incident-response"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"incident_type", "zone_id"}
    assert _response_names(document, "/incident-response", "post") == set()


def test_a_list_with_its_items_type_and_a_nullable_type_type_a_field_run() -> None:
    assert inline_field("tags array [string]") == ("tags", "array", [])
    assert inline_field("pets array[Pet] required") == ("pets", "array", ["required"])
    assert inline_field("access_token string | null") == ("access_token", "string", [])
    assert inline_field("expires_in integer | null (int64)") == ("expires_in", "integer", [])
    assert inline_field("Returns string | null values") is None  # prose, not a field


def test_kong_pages_give_every_operation_with_its_fields() -> None:
    page = BENCH / "pages" / "kong" / "realworld-v3-0-petstore-expanded.html"
    document = crawl_pages([page]).document
    assert document["servers"][0]["url"] == "https://petstore.swagger.io/v2"
    assert {(path, method) for path, item in document["paths"].items() for method in item} == {
        ("/pets", "get"), ("/pets", "post"), ("/pets/{id}", "get"), ("/pets/{id}", "delete"),
    }  # fmt: skip
    listed = document["paths"]["/pets"]["get"]
    assert {p["name"]: (p["in"], p["schema"].get("type")) for p in listed["parameters"]} == {
        "tags": ("query", "array"), "limit": ("query", "integer"),
    }  # fmt: skip
    added = document["paths"]["/pets"]["post"]
    body = added["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}
    assert _response_names(document, "/pets", "post") == {"name", "tag", "id"}


def test_the_last_operations_part_starts_at_its_title(tmp_path: Path) -> None:
    # The last operation's h2 section ends at the schemas' first h2 ("Pet"), which heads no request, so its
    # part ran on past it and started at its line, leaving its title and description out.
    schemas = "<div><h2>Pet</h2>" + _field("name", "string", required=True) + "</div>"
    html = _page(
        _operation("get", "/pets", "List pets", response=_field("name", "string")),
        _operation("delete", "/pets/{id}", "Delete a pet"),
    ).replace("</main>", schemas + "</main>")
    document = _crawl(tmp_path, html)
    deleted = document["paths"]["/pets/{id}"]["delete"]
    assert deleted.get("summary") == "Delete a pet"
    assert "What delete a pet does" in deleted.get("description", "")


def test_a_status_run_under_the_responses_heading_gives_the_fields_their_status(tmp_path: Path) -> None:
    # "Response", then "302 application/json" (one status: a run, not a tab), then the schema's title and
    # its fields: the 302's fields, not a success's.
    operation = _operation("get", "/authorize", "Authorize", response="").replace(
        "<div><button><span></span> 200</button></div><span>application/json</span>",
        "<span>302</span><span> application/json</span>",
    ).replace("<p>Done.</p>", "<p>Found</p><h4>oauth.v1.authorize</h4>" + _field("redirect_to", "string"))
    responses = _crawl(tmp_path, _page(operation))["paths"]["/authorize"]["get"]["responses"]
    assert "302" in responses and "200" not in responses
    schema = responses["302"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"redirect_to"}


def test_a_schemas_title_over_a_field_named_type_is_no_field(tmp_path: Path) -> None:
    # "NewRecord" (the body's schema, an h4), then "type string" (a field named "type") and more fields:
    # the heading is the schema's title, not a field whose type the run states.
    fields = _field("type", "string") + _field("details", "string") + _field("date", "string")
    operation = _operation("post", "/records", "Add a record", body=f"<h4>NewRecord</h4>{fields}")
    document = _crawl(tmp_path, _page(operation))
    body = document["paths"]["/records"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"type", "details", "date"}
