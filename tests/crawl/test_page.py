"""Reading pages: lenient parsing, scripts never read, structure kept, bounds hold."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html, read_page
from openapi_rag.crawl.scrape import scrape
from openapi_rag.errors import ConvertError


def test_blocks_keep_headings_code_tables_and_definition_lists() -> None:
    page = parse_html(
        "<html><head><title>Pets</title></head><body><h2>List pets</h2><p>Returns <b>all</b> pets.</p>"
        "<pre>GET /pets HTTP/1.1</pre><table><tr><th>Name</th><th>Type</th></tr>"
        "<tr><td>limit</td><td>integer</td></tr></table><dl><dt>tag</dt><dd>string, a tag</dd></dl>"
    )
    kinds = [(b.kind, b.text or b.rows) for b in page.blocks]
    assert page.title == "Pets"
    assert kinds == [
        ("heading", "List pets"),
        ("text", "Returns all pets."),
        ("code", "GET /pets HTTP/1.1"),
        ("table", [["Name", "Type"], ["limit", "integer"]]),
        ("table", [["tag", "string, a tag"]]),
    ]
    assert page.blocks[3].header is True


def test_scripts_and_styles_are_never_read() -> None:
    page = parse_html(
        "<body><script>document.write('<pre>GET /evil HTTP/1.1</pre>')</script>"
        "<style>p{}</style><p><code>GET /good</code></p></body>"
    )
    assert [b.text for b in page.blocks] == ["GET /good"]


def test_malformed_html_is_parsed_leniently(tmp_path: Path) -> None:
    page = tmp_path / "broken.html"
    page.write_bytes(
        b"<html><body><h2>Get a pet<p><code>GET /pets/{id}</code><table><tr><td>id<td>integer \xff"
    )
    result = crawl_pages([page])
    assert list(result.document["paths"]) == ["/pets/{id}"]
    assert result.findings == []


def test_nested_tables_follow_as_tables_of_their_own() -> None:
    page = parse_html(
        "<table><tr><td>address</td><td>object<table><tr><td>city</td><td>string</td></tr></table></td></tr></table>"
    )
    assert [b.rows for b in page.blocks] == [[["address", "object"]], [["city", "string"]]]


def test_deep_nesting_does_not_overflow() -> None:
    page = parse_html("<div>" * 1000 + "<p><code>GET /deep</code></p>" + "</div>" * 1000)
    assert any(b.text == "GET /deep" for b in page.blocks)
    # Deeper than libxml2's own limit: the content there is dropped, the parse still returns.
    assert parse_html("<div>" * 50_000 + "x" + "</div>" * 50_000).source == "<page>"


def test_page_is_cut_at_the_byte_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.html"
    path.write_text("<p>" + "x" * 10_000 + "</p><p><code>GET /late</code></p>", encoding="utf-8")
    page = read_page(path, max_bytes=1_000)
    assert page.truncated
    assert all("GET /late" not in b.text for b in page.blocks)


def test_missing_page_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConvertError, match="no such file"):
        crawl_pages([tmp_path / "nope.html"])


def test_links_out_of_a_folder_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.html").write_text("<p><code>GET /secret</code></p>", encoding="utf-8")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "api.html").write_text("<p><code>GET /public</code></p>", encoding="utf-8")
    (docs / "link.html").symlink_to(outside / "secret.html")
    assert list(crawl_pages([docs]).document["paths"]) == ["/public"]


@pytest.mark.slow
def test_a_50_mb_page_takes_bounded_time(tmp_path: Path) -> None:
    path = tmp_path / "huge.html"
    row = "<tr><td>field</td><td>string</td><td>a field of the object</td></tr>"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("<html><body><h2>Op</h2><p><code>POST /things</code></p><table>")
        while handle.tell() < 50 * 1024 * 1024:
            handle.write(row * 1000)
        handle.write("</table></body></html>")
    start = time.perf_counter()
    result = crawl_pages([path])
    assert time.perf_counter() - start < 120
    assert list(result.document["paths"]) == ["/things"]


def test_a_definition_list_of_sections_is_an_outline_and_field_lists_are_tables() -> None:
    # The shape Sphinx's httpdomain writes: each operation a term whose description holds paragraphs
    # and a field list of "name (type, required) – description" items.
    page = parse_html(
        "<h1>API</h1><dl><dt>GET /pets/{id}<a class='headerlink' href='#x'>¶</a></dt><dd><p>Get a pet.</p>"
        "<dl><dt>Parameters:</dt><dd><ul><li><p><strong>id</strong> (<em>integer, required</em>) – the id</p></li>"
        "</ul></dd><dt>Status Codes:</dt><dd><ul><li><p>200 OK – the pet</p></li></ul></dd></dl></dd></dl>"
    )
    blocks = [(b.kind, b.level, b.text or b.rows) for b in page.blocks]
    assert blocks == [
        ("heading", 1, "API"),
        ("heading", 7, "GET /pets/{id}"),
        ("text", 0, "Get a pet."),
        ("heading", 8, "Parameters:"),
        ("table", 0, [["name", "type", "required", "description"],
                      ["id", "integer, required", "integer, required", "the id"]]),
        ("heading", 8, "Status Codes:"),
        ("table", 0, [["status", "description"], ["200 OK", "the pet"]]),
    ]  # fmt: skip


def test_lists_that_are_not_field_lists_stay_text() -> None:
    page = parse_html("<ul><li>Python (recommended) – fast to write</li><li>200</li></ul>")
    assert [b.kind for b in page.blocks] == ["text", "text"]


def test_deeply_nested_lists_cost_linear_time() -> None:
    # CPU time, not wall time: on a shared machine the wall clock measured the neighbours (15 s).
    start = time.process_time()
    parse_html("<ul><li>x" * 20_000 + "id (string) – y" + "</li></ul>" * 20_000)
    assert time.process_time() - start < 10


def test_code_inside_a_table_row_follows_the_table_labelled_by_its_first_cell() -> None:
    page = parse_html(
        "<table><thead><tr><td>Code</td><td>Description</td></tr></thead><tbody>"
        '<tr><td>200</td><td>pet response <pre>{"id": 1}</pre></td></tr>'
        '<tr><td>default</td><td>error <pre>{"code": 0}</pre></td></tr></tbody></table>'
    )
    kinds = [(b.kind, b.text or b.rows) for b in page.blocks]
    assert kinds == [
        ("table", [["Code", "Description"], ["200", "pet response"], ["default", "error"]]),
        ("text", "200"),
        ("code", '{"id": 1}'),
        ("text", "default"),
        ("code", '{"code": 0}'),
    ]
    assert page.blocks[0].header is True  # a `thead` row is a header row even with `td` cells


def test_a_rowspan_cell_makes_the_next_row_part_of_its_record() -> None:
    page = parse_html(
        '<table><tr><td rowspan="2">limit int32</td><td></td></tr><tr><td colspan="2">at most this many</td></tr>'
        '<tr><td rowspan="999999">tags</td></tr><tr><td>a tag</td></tr></table>'
    )
    assert page.blocks[0].rows == [["limit int32", "", "at most this many"], ["tags", "a tag"]]


def test_a_rowspan_that_is_no_ascii_number_spans_one_row() -> None:
    for value in ("²", "٣", "-2", "2x"):  # '²'.isdigit() is True, int('²') raises
        page = parse_html(
            f'<table><tr><td rowspan="{value}">limit</td><td>int32</td></tr><tr><td>a</td></tr></table>'
        )
        assert page.blocks[0].rows == [["limit", "int32"], ["a"]], value
    page = parse_html(f'<table><tr><td rowspan="{"9" * 5000}">tags</td></tr><tr><td>a tag</td></tr></table>')
    assert page.blocks[0].rows == [["tags", "a tag"]]  # bounded, as rowspan="999999" is


def test_a_word_break_opportunity_joins_its_word() -> None:
    # Scalar draws long names as "snapshot<wbr>_id"; libxml2 reads `<wbr>` as holding what follows.
    page = parse_html(
        "<p>snapshot<wbr>_id</p><h4>add<wbr>ed_at time</h4><table><tr><td>a<wbr>b</td></tr></table>"
    )
    assert [(b.kind, b.text, b.rows) for b in page.blocks] == [
        ("text", "snapshot_id", []),
        ("heading", "added_at time", []),
        ("table", "", [["ab"]]),
    ]


def test_an_outline_schema_and_field_runs_are_read_in_bounded_time() -> None:
    # Each outline term is read once (no term starts a section of its own), each schema at most
    # 2,000 blocks; field runs look a bounded number of runs ahead.
    terms = "".join(f"<dt>f{i}: string</dt><dd><p>d</p></dd>" for i in range(4_000))
    runs = "".join(f"<div>n{i}</div><div>Type: integer</div>" for i in range(4_000))
    page = parse_html(f"<h3>Pet: object</h3><dl>{terms}</dl><h3>Query Parameters</h3>{runs}")
    start = time.perf_counter()
    result = scrape(page)
    assert time.perf_counter() - start < 10
    assert 0 < len(result.schemas["Pet"]) <= 2_000
