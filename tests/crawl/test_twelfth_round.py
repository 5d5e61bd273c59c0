"""Issue 17's twelfth round: general rules after Zudoku's first contact (React pages prerendered to
static HTML: each operation a method badge, the server's base URL and the path drawn as three runs;
each field its name in one run and "​ string · required" in the next, a zero-width space first; a
strip of status tabs over the first tab's panel only; then a sample box: the request line again, a
drop-down of languages, a cURL command and an example response), each on a small fragment of the
structure it draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.labels import label_before, label_kind
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.signatures import find_signatures
from tests.crawl.conftest import BENCH

ZWSP = "\u200b"


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _field(name: str, details: str, description: str = "") -> str:
    """One field as Zudoku draws it: the name in code, a zero-width space, then type and marks."""
    about = f"<div><p>{description}</p></div>" if description else ""
    return f"<div><div><div><code>{name}</code></div>{ZWSP}<span><span>{details}</span></span></div>{about}</div>"


def _sample_box(method: str, path: str, example: str) -> str:
    """The operation's sample box: its request line, a language picker, cURL, an example response."""
    return (
        f"<aside><div><span><span>{method}</span>{path}</span><select><option>cURL</option>"
        "<option>JavaScript</option><option>Python</option></select></div>"
        f"<div><code>curl --request {method} \\ --url https://api.example.com/v2{path} \\ "
        "--header 'Accept: application/json'</code></div>"
        "<div><div>Example Responses</div><select><option>200</option><option>404</option></select>"
        f"<div><code>{example}</code></div><span>json</span></div></aside>"
    )


def _operation(
    method: str, path: str, title: str, parameters: str, response: str, example: str, *, box: bool = True
) -> str:
    return (
        f"<div><h2>{title}</h2><div><span>{method}</span><span><div>https://api.example.com/v2</div>"
        f"<div>{path}</div></span></div><div><p>Does {title.lower()}.</p></div>"
        f"<h3>query Parameters</h3><div>{parameters}</div>"
        "<h3>Responses</h3><div><button>200</button><button>404</button></div>"
        f"<div><p>The result.</p></div><div>{response}</div>"
        f"{_sample_box(method, path, example) if box else ''}<hr></div>"
    )


def _page(*operations: str) -> str:
    return (
        "<html><body><main><h1>Pet store</h1><p>Sells pets.</p><span>Servers</span>"
        f"<div><code>https://api.example.com/v2</code></div></main><main><h1>Other endpoints</h1>{''.join(operations)}"
        "</main></body></html>"
    )


_PETS = _operation(
    "GET",
    "/pets",
    "List pets",
    _field("limit", "integer · int32", "How many to return.") + _field("tag", "string"),
    _field("id", "integer · int64 · required") + _field("owner", "object"),
    '{ "id": 1, "owner": { "name": "Ann" } }',
)


def test_a_method_badge_then_the_base_url_and_the_path_apart_is_one_request_line(tmp_path: Path) -> None:
    document = _crawl(tmp_path, _page(_PETS))
    assert list(document["paths"]) == ["/pets"]  # not "/v2 /pets", nor the base URL as a path
    assert document["servers"][0]["url"] == "https://api.example.com/v2"  # the base path kept


def test_the_path_drawn_apart_from_the_base_url_is_the_template_where_nothing_else_shows_it(
    tmp_path: Path,
) -> None:
    alone = _operation("GET", "/lists.{format}", "Lists", _field("format", "string"), "", "{}", box=False)
    document = _crawl(tmp_path, _page(alone))
    assert list(document["paths"]) == ["/lists.{format}"]  # not "/v2/lists.{format}" under the bare host
    assert document["servers"][0]["url"] == "https://api.example.com/v2"


def test_a_base_url_whose_scheme_is_a_server_variable_still_joins_its_path() -> None:
    html = "<html><body><span>GET</span><div>{scheme}://api.example.com/v2</div><div>/pets</div></body></html>"
    signatures = find_signatures(parse_html(html).blocks)
    assert [(s.method, s.url, s.template) for s in signatures] == [
        ("GET", "{scheme}://api.example.com/v2/pets", "/pets")
    ]


def test_a_template_variable_drawn_in_an_element_of_its_own_stays_in_the_path(tmp_path: Path) -> None:
    # Inline elements leave a space between them: "GET /lists. {format}" is one request line.
    html = (
        "<html><body><h1>Books</h1><h2>Lists</h2><p><span>GET</span> /lists.<span>{format}</span></p>"
        "<h3>Parameters</h3><table><tr><th>name</th><th>in</th><th>type</th></tr>"
        "<tr><td>format</td><td>path</td><td>string</td></tr></table>"
        "<h2>Reviews</h2><p><span>GET</span> /reviews.<span>{format}</span></p></body></html>"
    )
    assert set(_crawl(tmp_path, html)["paths"]) == {"/lists.{format}", "/reviews.{format}"}


def test_a_drop_down_shows_its_chosen_option_alone() -> None:
    picker = "<select><option>cURL</option><option>Python</option><option>Go</option></select>"
    chosen = '<select><option>v1</option><option selected="">v2</option></select>'
    blocks = parse_html(f"<html><body><label>Language {picker}</label><div>{chosen}</div></body></html>").blocks
    assert [b.text for b in blocks] == ["Language cURL", "v2"]  # not "cURL Python Go": choices, no prose


def test_zero_width_spaces_are_dropped_so_a_type_run_after_a_name_types_the_field() -> None:
    blocks = parse_html(f"<html><body>{_field('limit', 'integer · int32', 'How many.')}</body></html>").blocks
    assert all(ZWSP not in b.text for b in blocks)
    table = [b for b in field_runs(blocks) if b.kind == "table"]
    assert table and table[0].rows[1][:3] == ["limit", "", "integer"]


def test_required_among_a_type_runs_details_marks_the_field() -> None:
    html = f"<html><body>{_field('id', 'integer · int64 · required')}{_field('tag', 'string')}</body></html>"
    table = [b for b in field_runs(parse_html(html).blocks) if b.kind == "table"][0]
    assert [row[3] for row in table.rows[1:]] == ["true", ""]


def test_a_request_line_or_curl_command_ends_the_last_fields_description() -> None:
    html = (
        f"<html><body>{_field('tag', 'string')}<div>GET /pets</div>"
        "<div>curl --request GET \\ --url https://api.example.com/v2/pets</div></body></html>"
    )
    table = [b for b in field_runs(parse_html(html).blocks) if b.kind == "table"][0]
    assert table.rows[1][4] == ""  # not "GET /pets curl --request …"


def test_the_sample_boxs_example_is_not_the_next_tab_of_the_strip_before_it(tmp_path: Path) -> None:
    document = _crawl(tmp_path, _page(_PETS))
    responses = document["paths"]["/pets"]["get"]["responses"]
    owner = responses["200"]["content"]["application/json"]["schema"]["properties"]["owner"]
    assert "name" in owner.get("properties", {})  # the example's nested field joins the 200's fields
    assert "content" not in responses.get("404", {})  # the example is not the second tab's (404) panel


def test_a_breadcrumb_headings_last_crumb_labels_what_follows() -> None:
    # "Create Playlist › Request Body" in five words reads as a caption, which labels nothing.
    html = (
        "<html><body><h3>Create Playlist › path Parameters</h3><table><tr><td>user_id</td><td>string</td></tr>"
        "</table><h3>Create Playlist › Request Body</h3><table><tr><td>name</td><td>string</td></tr></table>"
        "</body></html>"
    )
    blocks = parse_html(html).blocks
    tables = [index for index, block in enumerate(blocks) if block.kind == "table"]
    labels = [label_before(blocks, index) for index in tables]
    assert labels == ["path parameters", "request body"]
    assert [label_kind(label) for label in labels] == ["param", "request"]


def test_a_name_then_only_a_link_to_a_schema_section_is_a_field_of_that_schema(tmp_path: Path) -> None:
    # The anchor is the section's name slugged, on the site's schemas page ("/api/~schemas#…").
    days = "<a href='/api/~schemas#bulkexports-v1-export-day'>bulkexports.v1.export.day[]</a>"
    operation = _operation(
        "GET", "/days", "List days", _field("page", "integer"),
        _field("days", days) + _field("meta", "object"), "{}", box=False,
    )  # fmt: skip
    schemas = (
        "<main><h1>Schemas</h1><h2>bulkexports.v1.export.day</h2>"
        f"{_field('day', 'string')}{_field('size', 'integer')}</main>"
    )
    document = _crawl(tmp_path, _page(operation).replace("</body>", f"{schemas}</body>"))
    schema = document["paths"]["/days"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["days"]["type"] == "array"
    assert set(schema["properties"]["days"]["items"]["properties"]) == {"day", "size"}


def test_a_status_or_a_label_then_a_link_to_a_schema_is_no_field() -> None:
    # A response's status and its schema ("default", then "Error"), a label and its value ("Type", "Pet").
    html = (
        "<html><body><div>default</div><div><a href='#error'>Error</a></div>"
        "<div>Type</div><div><a href='#pet'>Pet</a></div><div>owner</div><div><a href='#user'>User</a></div>"
        "</body></html>"
    )
    tables = [b for b in field_runs(parse_html(html).blocks) if b.kind == "table"]
    assert [row[0] for table in tables for row in table.rows[1:]] == ["owner"]


def test_a_name_shown_that_heads_a_section_outranks_a_link_anchor_matching_another_slugged(
    tmp_path: Path,
) -> None:
    # A tag's section "OauthV1Token" (its operation's body fields) slug-matches the anchor "oauth-v1-token";
    # the name shown, "oauth.v1.token", heads the response schema's own section.
    operation = (
        "<main><h1>OauthV1Token</h1><h2>Issue a token</h2><div><span>POST</span><span>"
        "<div>https://api.example.com</div><div>/v1/token</div></span></div><h3>Request Body</h3>"
        f"<div>{_field('ClientId', 'string · required')}</div><h3>Responses</h3><div><button>201</button></div>"
        "<div><p>Created</p></div><div><a href='/api/~schemas#oauth-v1-token'>oauth.v1.token</a></div></main>"
    )
    schemas = f"<main><h1>Schemas</h1><h2>oauth.v1.token</h2>{_field('access_token', 'string')}</main>"
    document = _crawl(tmp_path, f"<html><body>{operation}{schemas}</body></html>")
    created = document["paths"]["/v1/token"]["post"]["responses"]["201"]
    assert set(created["content"]["application/json"]["schema"]["properties"]) == {"access_token"}


def test_a_curl_command_drawn_as_a_run_is_no_description(tmp_path: Path) -> None:
    get = _crawl(tmp_path, _page(_PETS))["paths"]["/pets"]["get"]
    assert "curl" not in get.get("description", "") and "Does list pets." in get["description"]


def test_a_repeated_request_lines_next_run_does_not_name_the_operation(tmp_path: Path) -> None:
    # An operation with no title: its sample box repeats "GET /pets", then the picker shows "cURL".
    long = "Returns all pets from the system that the user has access to, a page at a time, the newest first, then the rest."
    untitled = _PETS.replace("<h2>List pets</h2>", "<h2></h2>").replace("Does list pets.", long)
    other = _operation("GET", "/owners", "List owners", _field("page", "integer"), _field("id", "integer"), "{}")
    get = _crawl(tmp_path, _page(untitled, other))["paths"]["/pets"]["get"]
    assert get.get("summary") != "cURL"


def test_zudoku_pages_give_every_operation_with_its_fields() -> None:
    page = BENCH / "pages" / "zudoku" / "realworld-v3-0-petstore-expanded.html"
    document = crawl_pages([page]).document
    assert document["servers"][0]["url"] == "https://petstore.swagger.io/v2"
    assert {(m, p) for p, item in document["paths"].items() for m in item} == {
        ("get", "/pets"), ("post", "/pets"), ("get", "/pets/{id}"), ("delete", "/pets/{id}"),
    }  # fmt: skip
    listed = document["paths"]["/pets"]["get"]
    assert {p["name"]: p["in"] for p in listed["parameters"]} == {"tags": "query", "limit": "query"}
    body = document["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"} and body.get("required") == ["name"]
