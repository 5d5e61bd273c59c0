"""Issue 17's thirteenth round: general rules after Stoplight Elements' first contact (a React web
component: each operation an h1 title, when it has a summary, then a method badge and one run holding the
server's base URL and the path, each in an element of its own; "Request" and "Responses" h2 labels after
the line, never over it; each field its name, its type ("string or null", "integer<int32>") and marks as
runs; a strip of status tabs over the first tab's panel; then a console: a form, a text area holding the
request body, "Request Sample: Shell / cURL" and "Response Example", each code block drawn one element a
line with a gutter of line numbers), each on a small fragment of the structure it draws (each fails
without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.samples import parse_json
from openapi_rag.crawl.signatures import find_signatures
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _code(text: str) -> str:
    """Code drawn one element a line, each line after its number in an element of its own."""
    lines = "".join(
        f"<div><div>{number}</div><div><span>{line}</span></div></div>"
        for number, line in enumerate(text.split("\n"), start=1)
    )
    return f"<pre><div>{lines}</div></pre>"


def _field(name: str, type_: str, description: str = "", *, required: bool = False) -> str:
    mark = "<span>required</span>" if required else ""
    about = f"<div><p>{description}</p></div>" if description else ""
    return f"<div><div><div><div>{name}</div><span>{type_}</span></div>{mark}</div>{about}</div>"


def _line(method: str, path: str, server: str = "https://api.example.com/v1") -> str:
    return f"<div><div>{method}</div><div><div><span>{server}</span><span>{path}</span></div></div></div>"


def _operation(
    method: str, path: str, parameters: str, response: str, example: str, *, title: str = "", status: str = "200"
) -> str:
    """One operation's page as the content pane draws it: title (if any), request line, labels, console."""
    heading = f"<h1>{title}</h1>" if title else ""
    query = f"<h3>Query Parameters</h3><div>{parameters}</div>" if parameters else ""
    curl = (
        f"curl --request {method} \\\n  --url https://api.example.com/v1{path} \\\n"
        "  --header 'Accept: application/json'"
    )
    return (
        f"<div>{heading}{_line(method, path)}<h2>Request</h2>{query}<h2>Responses</h2>"
        f"<div><div>{status}</div></div><div><p>The result.</p></div><h3>Body</h3>"
        f"<div><div>application/json</div></div><div>{response}</div>"
        "<div><button>Send API Request</button></div><div><button>Request Sample: Shell / cURL</button></div>"
        f"{_code(curl)}<div><span>Response Example</span></div>{_code(example)}</div>"
    )


def _page(*parts: str) -> str:
    return (
        "<html><body><div><div><h1>Pet store</h1><div>API Base URL</div>"
        "<div><span>Live Server:</span><span>https://api.example.com/v1</span></div></div>"
        f"{''.join(parts)}</div></body></html>"
    )


_PETS = _operation(
    "get", "/pets", _field("limit", "integer<int32>", "How many to return."),
    _field("id", "integer<int64>", required=True) + _field("name", "string"),
    '{\n  "id": 1,\n  "name": "Rex"\n}', title="List pets",
)  # fmt: skip


def test_a_method_badge_then_the_base_url_and_the_path_in_one_run_is_one_request_line(tmp_path: Path) -> None:
    # The two elements leave a space between them: "https://api.example.com/v1 /pets", one run.
    signatures = find_signatures(parse_html(f"<html><body>{_line('get', '/pets/{id}')}</body></html>").blocks)
    assert [(s.method, s.url, s.template) for s in signatures] == [
        ("GET", "https://api.example.com/v1/pets/{id}", "/pets/{id}")
    ]
    document = _crawl(tmp_path, _page(_PETS))
    assert list(document["paths"]) == ["/pets"]  # not "/v1/pets" under the bare host
    assert document["servers"][0]["url"] == "https://api.example.com/v1"


def test_code_drawn_an_element_a_line_keeps_its_lines_less_its_gutter_of_numbers() -> None:
    code = _code('{\n  "id": 1,\n  "tags": []\n}')
    blocks = parse_html(f"<html><body>{code}</body></html>").blocks
    assert [b.kind for b in blocks] == ["code"]
    assert blocks[0].text == '{\n  "id": 1,\n  "tags": []\n}'  # not '1{2  "id": 1,3 …'
    assert parse_json(blocks[0].text) == {"id": 1, "tags": []}


def test_elements_inside_code_that_has_its_own_line_breaks_are_its_content() -> None:
    # An example whose string holds HTML drawn as paragraphs: no line break is added inside the string.
    html = '<html><body><pre>{\n  "about": "<p>One</p><p>Two</p>"\n}</pre></body></html>'
    code = parse_html(html).blocks[0].text
    assert code == '{\n  "about": "OneTwo"\n}'


def test_a_text_area_holds_a_request_body_wherever_it_stands(tmp_path: Path) -> None:
    # The console's body box comes after the responses: what a reader writes there is the request.
    body = '{\n  "name": "Rex",\n  "tag": "dog"\n}'
    create = (
        f"<div><h1>Create a pet</h1>{_line('post', '/pets')}<h2>Request</h2><h3>Body</h3>"
        "<div><div>application/json</div></div><h2>Responses</h2><div><div>201</div></div>"
        f"<div><p>Created.</p></div><div><div>Body</div><div><textarea>{body}</textarea>{_code(body)}</div></div>"
        "<div><button>Send API Request</button></div></div>"
    )
    post = _crawl(tmp_path, _page(create))["paths"]["/pets"]["post"]
    schema = post["requestBody"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"name", "tag"}
    assert all("content" not in response for response in post["responses"].values())  # not the 201's fields


def test_a_caption_naming_an_example_right_over_code_ends_the_last_fields_description() -> None:
    example = _code('{\n  "id": 1\n}')
    html = (
        f"<html><body>{_field('id', 'integer', 'The pet, unique in the store.')}<div><button>Send API Request</button></div>"
        f"<div><span>Response Example</span></div>{example}</body></html>"
    )
    blocks = field_runs(parse_html(html).blocks)
    table = next(b for b in blocks if b.kind == "table")
    assert table.rows[1][4] == "The pet, unique in the store."
    assert [b.text for b in blocks[-2:]] == ["Response Example", '{\n  "id": 1\n}']  # the code's caption stays


def test_json_under_a_body_heading_under_a_response_is_the_responses(tmp_path: Path) -> None:
    # "Responses", the tab "200", then a "Body" heading, the media type and the schema's title: the JSON
    # is no request body.
    operation = (
        f"<div><h1>Get a pet</h1>{_line('get', '/pets/{id}')}<h2>Responses</h2><div><div>200</div></div>"
        "<div><p>The pet.</p></div><h3>Body</h3><div><div>application/json</div></div><div>Pet</div>"
        '<pre>{\n  "id": 1,\n  "name": "Rex"\n}</pre></div>'
    )
    get = _crawl(tmp_path, _page(operation))["paths"]["/pets/{id}"]["get"]
    assert "requestBody" not in get
    assert set(get["responses"]["200"]["content"]["application/json"]["schema"]["properties"]) == {"id", "name"}


def test_a_part_whose_labels_follow_its_untitled_line_starts_at_that_line(tmp_path: Path) -> None:
    # No title heads either operation: the second one's line comes right after the first one's console.
    owners = _operation("get", "/owners", "", _field("owner_id", "integer"), '{\n  "owner_id": 7\n}')
    pets = _operation("get", "/pets", "", _field("pet_id", "integer"), '{\n  "pet_id": 1\n}')
    paths = _crawl(tmp_path, _page(owners, pets))["paths"]
    shown = paths["/pets"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"]
    assert set(shown) == {"pet_id"}  # not the first operation's example ("owner_id")


def test_a_part_whose_labels_follow_its_line_ends_at_a_shallower_heading_that_labels_nothing(
    tmp_path: Path,
) -> None:
    # The page's schema sections come after the last operation, each an h1 as deep as the titles.
    owners = _operation("get", "/owners", "", _field("owner_id", "integer"), '{\n  "owner_id": 7\n}')
    pets = _operation("get", "/pets", "", _field("id", "integer"), '{\n  "id": 1\n}')
    schema = f"<div><h1>Owner</h1>{_field('owner_name', 'string')}{_field('address', 'string')}</div>"
    get = _crawl(tmp_path, _page(owners, pets, schema))["paths"]["/pets"]["get"]
    assert "requestBody" not in get and not get.get("parameters")  # the schema's fields are not its


def test_a_sample_command_right_before_the_next_request_line_makes_no_list(tmp_path: Path) -> None:
    # The first operation's console ends with its cURL command, the next operation's line right after.
    def untitled(path: str, name: str) -> str:
        curl = f"curl --request GET \\\n  --url https://api.example.com/v1{path}"
        return (
            f"<div>{_line('get', path)}<h2>Request</h2><h3>Query Parameters</h3>"
            f"<div>{_field(name, 'string', required=True)}</div><h2>Responses</h2><div><div>200</div></div>"
            f"<div><p>OK</p></div><div><button>Request Sample: Shell / cURL</button></div>{_code(curl)}</div>"
        )

    paths = _crawl(tmp_path, _page(untitled("/pets", "tag"), untitled("/owners", "city")))["paths"]
    assert [p["name"] for p in paths["/owners"]["get"]["parameters"]] == ["city"]
    assert [p["name"] for p in paths["/pets"]["get"]["parameters"]] == ["tag"]


def test_headers_under_a_responses_heading_are_the_responses_not_parameters(tmp_path: Path) -> None:
    # The status is a tab ("302"), not a heading: the "Headers" heading sits under "Responses" alone.
    redirect = (
        f"<div><h1>Authorize</h1>{_line('get', '/authorize')}<h2>Request</h2><h3>Query Parameters</h3>"
        f"<div>{_field('state', 'string')}</div><h2>Responses</h2><div><div>302</div></div>"
        f"<div><p>Found</p></div><h3>Headers</h3><div>{_field('Location', 'string', 'Where to go.')}</div></div>"
    )
    get = _crawl(tmp_path, _page(redirect))["paths"]["/authorize"]["get"]
    assert [p["name"] for p in get["parameters"]] == ["state"]


def test_a_nullable_type_run_types_the_field() -> None:
    html = (
        f"<html><body>{_field('email', 'string or null', 'Where to write.')}"
        f"{_field('details', 'array or null', 'What happened.')}{_field('page', 'integer')}</body></html>"
    )
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[:3] for row in table.rows[1:]] == [
        ["email", "", "string"], ["details", "", "array"], ["page", "", "integer"],
    ]  # fmt: skip


def test_elements_pages_give_every_operation_with_its_fields() -> None:
    page = BENCH / "pages" / "elements" / "realworld-v3-0-petstore-expanded.html"
    document = crawl_pages([page]).document
    assert document["servers"][0]["url"] == "https://petstore.swagger.io/v2"
    assert {(m, p) for p, item in document["paths"].items() for m in item} == {
        ("get", "/pets"), ("post", "/pets"), ("get", "/pets/{id}"), ("delete", "/pets/{id}"),
    }  # fmt: skip
    listed = document["paths"]["/pets"]["get"]
    assert {p["name"]: p["in"] for p in listed["parameters"]} == {"tags": "query", "limit": "query"}
    body = document["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"}


def test_a_field_drawn_inside_an_object_fields_elements_is_nested_under_it() -> None:
    # A schema tree that nests by enclosing elements: "metrics", object, then its fields one element deeper.
    nested = "".join(_field(name, "number") for name in ("spend", "clicks"))
    html = (
        f"<html><body><div>{_field('campaign', 'string')}{_field('metrics', 'object')}<div>{nested}</div>"
        f"{_field('roi', 'number')}</div></body></html>"
    )
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[0] for row in table.rows[1:]] == ["campaign", "metrics", "» spend", "» clicks", "roi"]


def test_a_field_drawn_deeper_after_a_scalar_is_no_child_of_it() -> None:
    html = f"<html><body><div>{_field('name', 'string')}<div>{_field('tag', 'string')}</div></div></body></html>"
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[0] for row in table.rows[1:]] == ["name", "tag"]


def test_a_maps_numbered_entries_in_a_generated_example_are_no_fields(tmp_path: Path) -> None:
    # An example generator writes a map's entries as "property1", "property2" (additionalProperties).
    report = _operation(
        "get", "/reports", "", _field("totals", "object"),
        '{\n  "totals": {\n    "property1": 0,\n    "property2": 0\n  }\n}', title="Reports",
    )  # fmt: skip
    get = _crawl(tmp_path, _page(report))["paths"]["/reports"]["get"]
    totals = get["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["totals"]
    assert not totals.get("properties")


def test_a_type_run_marked_a_list_types_an_array() -> None:
    # "object[]": the word, then "[]" (which the word's boundary parts from it): a list, not an object.
    html = f"<html><body>{_field('items', 'object[]')}{_field('tags', 'string[]')}{_field('id', 'integer')}</body></html>"
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[2] for row in table.rows[1:]] == ["array", "array", "integer"]


def test_a_bodys_only_field_named_items_that_is_a_list_is_a_property(tmp_path: Path) -> None:
    # "items: object[]" with its fields nested under it: a property named items, no array's item wrapper.
    nested = _field("item_id", "string") + _field("quantity", "integer")
    order = (
        f"<div><h1>Create an order</h1>{_line('post', '/orders')}<h2>Request</h2><h3>Body</h3>"
        f"<div><div>application/json</div></div><div>{_field('items', 'object[]', required=True)}"
        f"<div>{nested}</div></div><h2>Responses</h2><div><div>201</div></div><div><p>Created.</p></div></div>"
    )
    post = _crawl(tmp_path, _page(order))["paths"]["/orders"]["post"]
    schema = post["requestBody"]["content"]["application/json"]["schema"]
    assert list(schema["properties"]) == ["items"] and schema["properties"]["items"]["type"] == "array"
    assert set(schema["properties"]["items"]["items"]["properties"]) == {"item_id", "quantity"}


def test_a_unions_first_option_types_the_field() -> None:
    # "one of: object" (a union drawn with its first option open): the field is that option's type.
    html = f"<html><body>{_field('item', 'one of: object')}{_field('limit', 'any of: integer')}</body></html>"
    table = next(b for b in field_runs(parse_html(html).blocks) if b.kind == "table")
    assert [row[:3] for row in table.rows[1:]] == [["item", "", "object"], ["limit", "", "integer"]]
