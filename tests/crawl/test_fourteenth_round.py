"""Issue 17's fourteenth round: general rules after Fumadocs' first contact (a Next.js docs site statically
exported: each operation an h2 title, then a form whose button shows the server ("Server URL", "loading..."
until a script runs), the method as a run and the path drawn segment by segment, each slash in an element
of its own ("/ pets / {id}"), then the description; "Path Parameters", "Query Parameters", "Request Body"
and "Response Body" h3s; each field its name, a mark ("*" required, "?" optional) and its type as spans of
one run ("tags ? array<string>", the item type a button that opens it), then its description and
attributes ("Range 0 <= value <= 50"); response statuses as collapsed accordions; then code samples and the
first status's example), each on a small fragment of the structure it draws (each fails without its rule),
and the real pages."""

from __future__ import annotations

import re
from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.samples import is_path
from openapi_rag.crawl.signatures import find_signatures
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _path(path: str) -> str:
    """A path drawn segment by segment, each slash in an element of its own."""
    pieces = "".join(f"<span>/</span><code>{segment}</code>" for segment in path.strip("/").split("/"))
    return f"<div><code></code>{pieces}</div>"


def _field(name: str, mark: str, type_: str, description: str = "", attribute: str = "") -> str:
    about = f"<p>{description}</p>" if description else ""
    label, _, value = attribute.partition(" ")
    shown = f"<div><div><span>{label}</span><code>{value}</code></div></div>" if attribute else ""
    return (
        f"<div><div><span><span>{name}</span><span>{mark}</span></span><span>{type_}</span><div></div>"
        f"<button></button></div><div>{about}{shown}</div></div>"
    )


def _operation(method: str, path: str, title: str, description: str, parameters: str = "", example: str = "") -> str:
    query = f"<h3>Query Parameters</h3><div>{parameters}</div>" if parameters else ""
    filled = re.sub(r"{\w+}", "0", path)  # the sample fills the template with an example value
    sample = f'<pre><code><span>curl -X {method} "https://example.com{filled}"</span></code></pre>'
    shown = f"<div><button>200</button></div><div><pre><code>{example}</code></pre></div>" if example else ""
    return (
        f"<div><div><h2>{title}</h2></div><form><button><span>Server URL</span><code>loading...</code></button>"
        f"<div><span>{method}</span>{_path(path)}<button>Send</button></div></form><p>{description}</p>{query}"
        f"<h3>Response Body</h3><div><div><h3><button>200</button></h3><p><code>application/json</code></p></div></div>"
        f"<div><div><button>cURL</button><button>Python</button></div><div><figure><div>{sample}</div></figure></div>"
        f"{shown}</div></div>"
    )


def _page(*operations: str, after: str = "") -> str:
    return (
        f"<html><body><main><article><h1>Pet store</h1><p>Pets.</p>{''.join(operations)}{after}</article></main>"
        "</body></html>"
    )


def test_a_path_whose_slashes_are_drawn_apart_from_its_segments_is_one_path() -> None:
    assert is_path("/ pets / {id}") == "/pets/{id}"
    assert is_path("/ v1 / Exports / {ResourceType} / Days") == "/v1/Exports/{ResourceType}/Days"
    assert is_path("/ is the root") is None  # a sentence after a slash: only a piece after a slash joins
    blocks = parse_html(f"<html><body><div><span>GET</span>{_path('/pets/{id}')}</div></body></html>").blocks
    assert [(s.method, s.url) for s in find_signatures(blocks)] == [("GET", "/pets/{id}")]


def test_an_operations_path_drawn_segment_by_segment_names_it_not_its_sample(tmp_path: Path) -> None:
    document = _crawl(tmp_path, _page(_operation("GET", "/pets/{id}", "Find pet by id", "Returns a pet.")))
    assert list(document["paths"]) == ["/pets/{id}"]  # not the sample's "/pets/0"


def test_a_mark_between_a_fields_name_and_its_type_says_whether_it_is_required() -> None:
    html = (
        "<html><body><h3>Query Parameters</h3><div>"
        f"{_field('url', '*', 'string', 'The link.')}{_field('tags', '?', 'array&lt;<span>string</span>&gt;', 'Tags.')}"
        f"{_field('format', '*', '&quot;.json&quot;', 'Its format.')}{_field('market', '*', 'Market', 'A country.')}"
        "</div></body></html>"
    )
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[:4] for row in table.rows[1:]] == [
        ["url", "", "string", "true"], ["tags", "", "array", "false"], ["format", "", "string", "true"],
        ["market", "", "", "true"],
    ]  # fmt: skip


def test_a_button_inside_a_run_after_its_text_is_a_word_of_that_run() -> None:
    # "array<", a button "object" that opens the item's fields, then ">": one type, not three runs.
    html = (
        "<html><body><div><span>tracks</span><span>*</span>"
        "<span>array&lt;<button>object</button>&gt;</span></div></body></html>"
    )
    assert [b.text for b in parse_html(html).blocks] == ["tracks * array< object >"]
    # Buttons side by side (a tab strip) stay runs of their own.
    strip = "<html><body><div><button>cURL</button><button>Python</button></div></body></html>"
    assert [b.text for b in parse_html(strip).blocks] == ["cURL", "Python"]


def test_a_buttons_label_is_no_description(tmp_path: Path) -> None:
    # "Server URL loading...": the server picker's label until a script fills it, not words about the operation.
    document = _crawl(tmp_path, _page(_operation("GET", "/pets", "List pets", "Returns every pet in the store.")))
    operation = document["paths"]["/pets"]["get"]
    assert "loading" not in operation.get("description", "")
    assert "Returns every pet in the store." in operation.get("description", "")


def test_a_bound_on_the_value_types_a_field_that_states_none() -> None:
    # A schema's title where the type would be ("Limit"), then "Range 0 <= value <= 50": a number.
    html = (
        "<html><body><div>"
        f"{_field('limit', '?', 'Limit', 'How many.', 'Range 0 &lt;= value &lt;= 50')}"
        f"{_field('name', '?', 'Name', 'Who.', 'Length 1 &lt;= length &lt;= 5')}</div></body></html>"
    )
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[:3] for row in table.rows[1:]] == [["limit", "", "integer"], ["name", "", ""]]


def test_fumadocs_pages_give_every_operation_with_its_fields() -> None:
    page = BENCH / "pages" / "fumadocs" / "realworld-v3-0-petstore-expanded.html"
    document = crawl_pages([page]).document
    assert {(m, p) for p, item in document["paths"].items() for m in item} == {
        ("get", "/pets"), ("post", "/pets"), ("get", "/pets/{id}"), ("delete", "/pets/{id}"),
    }  # fmt: skip
    listed = document["paths"]["/pets"]["get"]
    assert {p["name"]: (p["in"], p.get("required", False)) for p in listed["parameters"]} == {
        "tags": ("query", False), "limit": ("query", False),
    }  # fmt: skip
    body = document["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"} and body.get("required") == ["name"]
    assert "loading" not in listed.get("description", "")


def test_a_name_marked_optional_then_a_type_run_is_an_optional_field() -> None:
    # "properties ?", then "object" in a run of its own (a button that opens its fields).
    html = (
        "<html><body><h3>Request Body</h3><div>"
        f"{_field('name', '*', 'string', 'Its name.')}"
        "<div><div><span><span>properties</span><span>?</span></span><span><button>object</button></span></div>"
        "<div><p>Its general properties.</p></div></div></div></body></html>"
    )
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[:4] for row in table.rows[1:]] == [["name", "", "string", "true"], ["properties", "", "object", "false"]]


def test_a_link_card_to_another_page_is_no_description(tmp_path: Path) -> None:
    # A pager after the last operation: the next page's title and description inside one link.
    pager = '<div><a href="/users"><div><p>Users</p></div><p>Everything about the shop\'s customers</p></a></div>'
    document = _crawl(
        tmp_path, _page(_operation("DELETE", "/pets/{id}", "Delete Pet", "Deletes a single pet."), after=pager)
    )
    description = document["paths"]["/pets/{id}"]["delete"].get("description", "")
    assert "Deletes a single pet." in description and "customers" not in description
    # A description that starts with a link (no paragraphs inside it) is the operation's all the same.
    linked = _operation("GET", "/pets", "List pets", '<a href="/docs/pets">Pets</a> in the store, every one of them.')
    assert "in the store" in _crawl(tmp_path, _page(linked))["paths"]["/pets"]["get"].get("description", "")


def test_a_run_that_only_states_a_media_type_is_no_description(tmp_path: Path) -> None:
    # Under "Request Body": "application/x-www-form-urlencoded", how the body is sent (over 30 characters).
    operation = _operation("POST", "/token", "Issue a token", "Issues a new access token.").replace(
        "<h3>Response Body</h3>",
        "<div><h3>Request Body</h3><p><code>application/x-www-form-urlencoded</code></p></div><h3>Response Body</h3>",
    )
    description = _crawl(tmp_path, _page(operation))["paths"]["/token"]["post"].get("description", "")
    assert "Issues a new access token." in description and "urlencoded" not in description
