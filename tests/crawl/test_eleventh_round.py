"""Issue 17's eleventh round: general rules after raml2html's first contact (RAML 1.0 pages: each field a
list item "name: required (type)" with its own fields in a list inside it; each operation a dialog
whose title, an h4 "post /pets", stands over h3 "Body" and h2 "HTTP status code 201"; the base URI a
bare URL under the title), each on a small fragment of the structure it draws (each fails without its
rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, type_: str, description: str = "", *, required: bool = False, inner: str = "") -> str:
    """One field as raml2html draws it: the name in bold, a colon, the marks and type in italics."""
    mark = "<span>required</span>" if required else ""
    about = f"<p>{description}</p>" if description else ""
    return f"<li><strong>{name}</strong>: <em>{mark}({type_})</em>{about}{inner}</li>"


def _body(*fields: str) -> str:
    return (
        "<h3>Body</h3><p><strong>Media type</strong>: application/json</p>"
        f"<p><strong>Type</strong>: object</p><strong>Properties</strong><ul>{''.join(fields)}</ul>"
    )


def _operation(method: str, path: str, request: str, response: str) -> str:
    """A resource's operation: its summary panel, then its dialog (title h4, request h3s, response h2)."""
    return (
        f"<div><h4><a href='#p'>{path}</a> <span><a href='#op'>{method}</a></span></h4>"
        f"<div><span>{method}</span><p>Does {method} on {path}.</p></div>"
        f"<div><div><button>x</button><h4>{method} {path}</h4></div>"
        f"<div><p>Does {method} on {path}.</p><ul><li><a href='#rq'>Request</a></li>"
        f"<li><a href='#rs'>Response</a></li></ul>"
        f"<div>{request}</div><div><h2>HTTP status code <a href='http://httpstatus.es/201'>201</a></h2>"
        f"<p>Created.</p>{response}</div></div></div></div>"
    )


def _page(*resources: tuple[str, str]) -> str:
    body = "".join(f"<div><h3>{path}</h3>{operations}</div>" for path, operations in resources)
    return (
        "<html><body><div><h1>Pet store <small>version 1.0</small></h1><p>https://api.example.com/v1</p>"
        f"<p>Sells pets.</p></div>{body}</body></html>"
    )


def test_a_list_of_name_colon_type_items_is_a_field_table_with_nested_fields() -> None:
    listing = (
        "<html><body><h3>Body</h3><ul>"
        + _field("name", "string", "The pet's name.", required=True)
        + _field(
            "owners",
            "array of object",
            "Its owners.",
            inner="<p><strong>Items</strong>: items</p><div><ul>"
            + _field("email", "string", "Where to write.", required=True)
            + "</ul></div>",
        )
        + _field("kind", "one of cat, dog - default: cat")
        + _field("legs", "integer - default: 4")
        + "</ul></body></html>"
    )
    tables = [b for b in parse_html(listing).blocks if b.kind == "table"]
    assert len(tables) == 1
    assert tables[0].rows == [
        ["name", "type", "required", "description"],
        ["name", "string", "required", "The pet's name."],
        ["owners", "array of object", "", "Its owners. Items : items"],
        ["» email", "string", "required", "Where to write."],
        ["kind", "string", "", ""],
        ["legs", "integer - default: 4", "", ""],
    ]


def test_an_operation_title_over_shallower_label_headings_keeps_its_request_and_response(
    tmp_path: Path,
) -> None:
    html = _page(
        (
            "/pets",
            _operation(
                "post",
                "/pets",
                _body(_field("name", "string", required=True), _field("tag", "string")),
                _body(_field("id", "integer", required=True)),
            ),
        ),
        (
            "/stores",
            _operation("put", "/stores", _body(_field("city", "string")), _body(_field("opened", "boolean"))),
        ),
    )
    paths = _crawl(tmp_path, html)["paths"]
    post, put = paths["/pets"]["post"], paths["/stores"]["put"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"} and body["required"] == ["name"]
    # "HTTP status code 201" (h2) is the post's response, not the put's, and its "Body" is no request body
    assert set(post["responses"]["201"]["content"]["application/json"]["schema"]["properties"]) == {"id"}
    assert set(put["requestBody"]["content"]["application/json"]["schema"]["properties"]) == {"city"}
    assert set(put["responses"]["201"]["content"]["application/json"]["schema"]["properties"]) == {"opened"}
    assert "parameters" not in post  # the "Body" heading over "Media type" and "Type: object" is no field


def test_a_bare_url_under_the_pages_title_is_its_server(tmp_path: Path) -> None:
    html = _page(("/pets", _operation("post", "/pets", _body(_field("name", "string")), "")))
    assert _crawl(tmp_path, html)["servers"] == [{"url": "https://api.example.com/v1"}]


def test_an_example_labelled_with_a_spaced_colon_under_a_response_is_the_responses(tmp_path: Path) -> None:
    response = (
        "<h3>Body</h3><p><strong>Media type</strong>: application/json</p>"
        "<p><strong>Type</strong>: object</p><p><strong>Example</strong>:</p>"
        '<div><pre><code>{"id": 1, "name": "Rex"}</code></pre></div>'
    )
    html = _page(("/pets", _operation("get", "/pets", "", response)))
    get = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert "requestBody" not in get and "parameters" not in get
    assert set(get["responses"]["201"]["content"]["application/json"]["schema"]["properties"]) == {
        "id",
        "name",
    }


def test_query_parameters_under_a_secured_by_heading_are_the_credentials(tmp_path: Path) -> None:
    request = "<h3>Query Parameters</h3><ul>" + _field("limit", "integer") + "</ul>"
    secured = (
        "<h1>Secured by api-key</h1><h3>Query Parameters</h3><ul>" + _field("api-key", "string") + "</ul>"
    )
    html = _page(("/pets", _operation("get", "/pets", request, _body(_field("id", "integer")) + secured)))
    get = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert [(p["name"], p["in"]) for p in get["parameters"]] == [("limit", "query")]


def test_the_real_raml2html_pages_give_fields_servers_and_responses() -> None:
    page = BENCH / "pages" / "raml2html" / "socbench-01-energy-01-Energy.html"
    doc = crawl_pages([page]).document
    assert doc["servers"][0]["url"] == "https://api.energyinsights.com/v1"
    post = doc["paths"]["/alert-settings"]["post"]
    assert set(post["requestBody"]["content"]["application/json"]["schema"]["properties"]) == {
        "notificationType", "sector", "threshold",
    }  # fmt: skip
    assert set(post["responses"]["201"]["content"]["application/json"]["schema"]["properties"]) == {
        "alertId", "message",
    }  # fmt: skip
    forecast = doc["paths"]["/cost-analysis"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert forecast["properties"]["breakdown"]["items"]["properties"].keys() == {"category", "cost"}


def test_code_under_an_annotations_heading_is_no_example(tmp_path: Path) -> None:
    request = (
        '<h3>Annotations</h3><ul><li><strong>oas-tags</strong><pre><code>["Pets"]</code></pre></li></ul>'
    )
    html = _page(("/pets", _operation("get", "/pets", request, _body(_field("id", "integer")))))
    responses = _crawl(tmp_path, html)["paths"]["/pets"]["get"]["responses"]
    assert list(responses) == ["201"]  # no "200" made of the tag list '["Pets"]'


def test_a_name_alone_among_typed_items_is_a_field_and_an_empty_item_is_passed_over() -> None:
    listing = (
        "<html><body><ul>"
        + _field("id", "string", required=True)
        + "<li><strong>properties</strong></li>"
        + _field("tags", "object", inner="<ul><li><strong></strong></li></ul>")
        + "</ul><ul><li><strong>nullable</strong></li></ul></body></html>"
    )
    tables = [b for b in parse_html(listing).blocks if b.kind == "table"]
    assert [row[:2] for row in tables[0].rows[1:]] == [
        ["id", "string"],
        ["properties", ""],
        ["tags", "object"],
    ]
    assert len(tables) == 1  # a list of names alone ("nullable") is a list of marks, not of fields


def test_an_array_whose_items_type_is_left_out_and_a_lone_value_still_type_their_fields() -> None:
    listing = (
        "<html><body><ul>"
        + _field("results", "array of ", required=True)
        + _field("format", ".json", "Omitting it returns HTML.", required=True)
        + _field("id", "integer")
        + "</ul></body></html>"
    )
    tables = [b for b in parse_html(listing).blocks if b.kind == "table"]
    assert [row[:3] for row in tables[0].rows[1:]] == [
        ["results", "array of", "required"],
        ["format", ".json", "required"],
        ["id", "integer", ""],
    ]


def test_an_operation_titles_part_ends_at_the_next_operations_summary_panel(tmp_path: Path) -> None:
    operations = _operation("post", "/pets", _body(_field("name", "string")), "") + _operation(
        "get", "/pets/{id}", "", _body(_field("id", "integer"))
    )
    post = _crawl(tmp_path, _page(("/pets", operations)))["paths"]["/pets"]["post"]
    words = post.get("summary", "") + post.get("description", "")
    assert "Does post on /pets." in words and "/pets/{id}" not in words  # not the next one's description
