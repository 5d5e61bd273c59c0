"""Issue 17's sixteenth round: general rules after Diplodoc's first contact (its OpenAPI includer, React: a page
per operation, joined; each opens with a table of contents, a list of links to the page's own headings; then
the operation's id as an h1, its description, an h2 "Request" (each heading holding a permalink to its own id,
a screen reader's label that repeats its words), the method as a paragraph over a code block that holds the
request's full URL alone; h3 "Path parameters", "Query parameters", "Body" over tables whose first row is
"Name", "Description" in bold plain cells and whose description cells state the type ("Type: string", "Type:
Critic[]", the schema's name a link to its own h3 further down, over its table); h2 "Responses", an h2 per
status ("200 OK"), its "Body" with a collapsed example; a `<dfn>` popup explaining a "Deprecated" badge last),
each on a small fragment of the structure it draws (each fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.signatures import find_signatures, operation_keys
from openapi_rag.crawl.tables import field_rows
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _heading(level: int, words: str, page: str = "api/op.html") -> str:
    """A heading as the includer draws it: a permalink to its own id (a label repeating its words), then them."""
    anchor = words.lower().replace(" ", "-")
    return f'<h{level} id="{anchor}"><a href="{page}#{anchor}"><span>{words}</span></a>{words}</h{level}>'


def _table(*rows: tuple[str, str]) -> str:
    """A table whose first row names the columns in bold plain cells, each field's type stated in its description."""
    head = "<tr><td><p><strong>Name</strong></p></td><td><p><strong>Description</strong></p></td></tr>"
    body = "".join(f"<tr><td><p>{name}</p></td><td><p><strong>Type:</strong> {about}</p></td></tr>" for name, about in rows)
    return f"<table><tbody>{head}{body}</tbody></table>"


def _example(shown: str) -> str:
    """A response's example, collapsed under its media type."""
    return f"<details><summary>application/json</summary><div><div><pre><code>{shown}</code></pre></div></div></details>"


def _contents(*words: str) -> str:
    items = "".join(f'<li><a href="api/op.html#{w.lower().replace(" ", "-")}">{w}</a></li>' for w in words)
    return f"<div><ul>{items}</ul></div>"


def _operation(
    method: str, url: str, *, params: str = "", responses: str = "", title: str = "op-get", about: bool = True
) -> str:
    """One operation's page as the includer draws it."""
    described = f"<p>Fetch what {title} names.</p>" if about else ""
    return (
        f"<main>{_contents('Request', 'Responses', '200 OK')}<div><h1>{title}</h1>{described}"
        f"{_heading(2, 'Request')}<div><div><p>{method}</p><div><pre>{url}</pre><button> </button></div></div></div>"
        f"{params}{_heading(2, 'Responses')}<div>{responses}</div></div>"
        '<dfn id=":Deprecated_element"><p>No longer supported, please use an alternative and newer version.</p></dfn>'
        "</main>"
    )


_PARAMS = f"{_heading(3, 'Query parameters')}{_table(('limit', 'integer'))}"


def _page(*operations: str) -> str:
    return f"<html><body>{''.join(operations)}</body></html>"


def test_a_contents_list_is_navigation() -> None:
    # A list of links to anchors and nothing else names headings ("200 OK"), not a response of an operation.
    page = parse_html(_page(_contents("Request", "Responses", "200 OK") + "<ul><li><a href='#a'>a</a> and b</li></ul>"))
    shown = {b.text: b.control for b in page.blocks if b.kind == "text"}
    assert shown["200 OK"] is True and shown["Request"] is True
    assert shown.get("a and b") is not True  # a list with words besides its links is no table of contents


def test_a_term_definition_is_no_prose_about_the_operation() -> None:
    page = parse_html(_page(_operation("GET", "https://api.example.com/v1/pets")))
    popup = next(b for b in page.blocks if b.text.startswith("No longer supported"))
    assert popup.control is True


def test_a_permalink_to_its_own_heading_is_not_read_as_its_words() -> None:
    page = parse_html(_page(_heading(2, "Request") + _heading(3, "Query parameters")))
    assert [b.text for b in page.blocks if b.kind == "heading"] == ["Request", "Query parameters"]


def test_a_bold_first_row_over_plain_rows_is_a_header() -> None:
    page = parse_html(_page(_table(("limit", "integer"), ("offset", "integer"))))
    table = next(b for b in page.blocks if b.kind == "table")
    assert table.header is True
    assert [row[0] for row in table.rows] == ["Name", "limit", "offset"]


def test_a_description_cell_that_states_the_type_types_the_field() -> None:
    rows = field_rows([["Name", "Description"], ["limit", "Type: integer<int32> How many to return."]], True)
    assert [(r.name, r.type, r.description) for r in rows] == [("limit", "integer", "How many to return.")]


def test_a_method_over_a_code_block_holding_the_url_is_a_request_line() -> None:
    page = parse_html(_page(_operation("GET", "https://api.example.com/v1/pets")))
    found = find_signatures(page.blocks)
    assert [(s.method, s.url) for s in found] == [("GET", "https://api.example.com/v1/pets")]


def test_full_urls_that_no_template_splits_share_their_version_segment_as_base() -> None:
    page = parse_html(
        _page(
            _operation("GET", "https://api.example.com/v1/pets"),
            _operation("GET", "https://api.example.com/v1/pets/{id}"),
        )
    )
    servers, keyed = operation_keys(find_signatures(page.blocks), set())
    assert servers == ["https://api.example.com/v1"]
    assert [key for _, key in keyed] == [("GET", "/pets"), ("GET", "/pets/{id}")]


def test_the_base_url_runs_to_the_last_shared_version_segment() -> None:
    page = parse_html(
        _page(
            _operation("GET", "https://api.example.com/svc/books/v3/lists.json"),
            _operation("GET", "https://api.example.com/svc/books/v3/reviews/{id}.json"),
        )
    )
    servers, keyed = operation_keys(find_signatures(page.blocks), set())
    assert servers == ["https://api.example.com/svc/books/v3"]
    assert [key for _, key in keyed] == [("GET", "/lists.json"), ("GET", "/reviews/{id}.json")]


def test_urls_that_share_no_version_segment_keep_their_paths() -> None:
    page = parse_html(
        _page(_operation("GET", "https://api.example.com/ds-api/"), _operation("GET", "https://api.example.com/ds-api/x/fields"))
    )
    servers, keyed = operation_keys(find_signatures(page.blocks), set())
    assert servers == ["https://api.example.com"]
    assert [key for _, key in keyed] == [("GET", "/ds-api/"), ("GET", "/ds-api/x/fields")]


def test_a_section_a_fields_type_links_to_gives_that_fields_fields(tmp_path: Path) -> None:
    critic = '<a href="api/op.html#critic">Critic</a>[]'
    responses = (
        f"{_heading(2, '200 OK')}<p>An array of critics</p><div>{_heading(3, 'Body')}"
        + _example('{"num_results": 1, "results": []}')
        + f"{_table(('num_results', 'integer'), ('results', critic))}</div>"
        f"<div>{_heading(3, 'Critic')}{_table(('bio', 'string'), ('display_name', 'string'))}</div>"
    )
    html = _page(
        _operation("GET", "https://api.example.com/v2/critics.json", params=_PARAMS, responses=responses),
        _operation("GET", "https://api.example.com/v2/reviews.json", title="reviews-get"),
    )
    document = _crawl(tmp_path, html)
    schema = document["paths"]["/critics.json"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"num_results", "results"}
    assert set(schema["properties"]["results"]["items"]["properties"]) == {"bio", "display_name"}


def test_a_body_under_a_status_after_its_example_is_the_responses(tmp_path: Path) -> None:
    # "200 OK", then "Body", its collapsed example and the table: the response's fields, not the request's.
    example = _example('{"id": 1}')
    responses = f"{_heading(2, '200 OK')}<div>{_heading(3, 'Body')}{example}{_table(('id', 'integer'))}</div>"
    html = _page(
        _operation("GET", "https://api.example.com/v1/pets", params=_PARAMS, responses=responses),
        _operation("GET", "https://api.example.com/v1/pets/{id}", title="pet-get"),
    )
    listed = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert "requestBody" not in listed
    schema = listed["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"id"}


def test_a_word_over_a_url_starts_a_part_of_its_own_not_a_label(tmp_path: Path) -> None:
    # Each path's shared parameters drawn as a page of their own ("lists-parameters", then "PARAMETERS" over
    # the URL) between two operations, each under its title alone (no description): the operation's part
    # is its title's whole section, up to that page, and its responses with it.
    fields = _table(("copyright", "string"), ("results", "object[]"))
    responses = f"{_heading(2, '200 OK')}<div>{_heading(3, 'Body')}{fields}</div>"
    html = _page(
        _operation("PARAMETERS", "https://api.example.com/v3/lists.json", title="lists-parameters"),
        _operation(
            "GET", "https://api.example.com/v3/lists.json", params=_PARAMS, responses=responses, title="Lists", about=False
        ),
        _operation("PARAMETERS", "https://api.example.com/v3/names.json", title="names-parameters"),
        _operation("GET", "https://api.example.com/v3/names.json", responses=responses, title="Names", about=False),
    )
    listed = _crawl(tmp_path, html)["paths"]["/lists.json"]["get"]
    assert listed.get("summary") == "Lists"
    schema = listed["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"copyright", "results"}


def test_a_shallower_label_after_the_lines_labels_stays_in_its_part_and_its_title_heads_it(tmp_path: Path) -> None:
    # A tag's page between two operations (an h1 that heads no request): the first operation's part runs
    # past its h3 "Query parameters" and on through the h2 "Responses" and "201 Created" to it, and starts
    # at its h1 title, above the h2 "Request" the line sits in.
    fields = _table(("access_token", "string"), ("expires_in", "integer"))
    responses = f"{_heading(2, '201 Created')}<p>Created</p><div>{_heading(3, 'Body')}{fields}</div>"
    tag = "<main><div><h1>Tokens</h1><p>Everything about tokens.</p></div></main>"
    html = _page(
        _operation("POST", "https://api.example.com/v1/token", params=_PARAMS, responses=responses, title="Issue a token"),
        tag,
        _operation("GET", "https://api.example.com/v1/authorize", title="Authorize"),
    )
    issued = _crawl(tmp_path, html)["paths"]["/token"]["post"]
    assert issued.get("summary") == "Issue a token"
    schema = issued["responses"]["201"]["content"]["application/json"]["schema"]
    assert set(schema["properties"]) == {"access_token", "expires_in"}


def test_a_body_headings_example_under_a_later_status_is_that_statuss(tmp_path: Path) -> None:
    # "204 No Content" (no body), then "default", its "Body", the example and the table: the error's, not the 204's.
    fields = _table(("code", "integer"), ("message", "string"))
    example = _example('{"code": 0, "message": "string"}')
    responses = (
        f"{_heading(2, '204 No Content')}<p>pet deleted</p>"
        f"{_heading(2, 'default')}<p>unexpected error</p><div>{_heading(3, 'Body')}{example}{fields}</div>"
    )
    html = _page(
        _operation("GET", "https://api.example.com/v1/pets", title="findPets"),
        _operation("DELETE", "https://api.example.com/v1/pets/{id}", responses=responses, title="deletePet"),
    )
    responses = _crawl(tmp_path, html)["paths"]["/pets/{id}"]["delete"]["responses"]
    assert "content" not in responses["204"]
    assert set(responses["default"]["content"]["application/json"]["schema"]["properties"]) == {"code", "message"}


def test_a_contents_item_names_no_schema_of_the_operation_before(tmp_path: Path) -> None:
    # The next operation's table of contents ("Request", "Responses", "200 OK", "Critic") ends the previous
    # operation's part, under its last status: its item "Critic" names no schema of that response.
    first = _operation("GET", "https://api.example.com/v2/reviews.json", title="reviews-get").replace(
        "<div></div></div><dfn", f"<div>{_heading(2, '200 OK')}<p>Reviews</p></div></div><dfn"
    )
    critic = '<a href="api/op.html#critic">Critic</a>[]'
    responses = (
        f"{_heading(2, '200 OK')}<div>{_heading(3, 'Body')}{_table(('results', critic))}</div>"
        f"<div>{_heading(3, 'Critic')}{_table(('bio', 'string'), ('display_name', 'string'))}</div>"
    )
    second = _operation("GET", "https://api.example.com/v2/critics.json", responses=responses)
    listed = _contents("Request", "Responses", "200 OK", "Critic")
    second = second.replace(_contents("Request", "Responses", "200 OK"), listed)
    document = _crawl(tmp_path, _page(first, second))
    reviews = document["paths"]["/reviews.json"]["get"]["responses"]["200"]
    assert "content" not in reviews, reviews


def test_diplodoc_pages_give_every_operation_with_its_fields() -> None:
    page = BENCH / "pages" / "diplodoc" / "realworld-v3-0-petstore-expanded.html"
    document = crawl_pages([page]).document
    assert {(path, method) for path, item in document["paths"].items() for method in item} == {
        ("/pets", "get"), ("/pets", "post"), ("/pets/{id}", "get"), ("/pets/{id}", "delete"),
    }  # fmt: skip
    listed = document["paths"]["/pets"]["get"]
    assert {p["name"]: p["in"] for p in listed["parameters"]} == {"tags": "query", "limit": "query"}
