"""Issue 17's twenty-ninth round: general rules after the twenty-eighth round's openapi-markdown (its Jinja templates
of Markdown through marked): a table's rows spilled into the paragraphs after it (a cell's line break closed the
Markdown table); a parameter named after one of HTTP's standard request headers, in a table with no place column;
the paragraph right under a bare status heading, that response's description. Each on a small fragment of the
structure (each fails without its rule)."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.tables import is_request_header

_HEAD = "<thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Description</th></tr></thead>"


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _table(*rows: tuple[str, str, str, str]) -> str:
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table>{_HEAD}<tbody>{body}</tbody></table>"


_SPILLED = (
    _table(("query", "string", "False", "Search keywords"))
    + "<p>To limit your search to exact matches, quote it.</p>\n"
    + "<p>  If you omit it, every review is returned.\n |\n| critics-pick | string |  | Set this to Y.\n |\n"
    + "| publication-date | string | True | Single date</p>\n<p>Start and end date.\n |\n"
    + "| offset | integer | False | Positive integer |</p>\n"
)


def test_spilled_rows_join_the_table() -> None:
    page = parse_html(f"<html><body><h2>GET /reviews</h2><h3>Parameters</h3>{_SPILLED}</body></html>")
    tables = [b for b in page.blocks if b.kind == "table"]
    assert len(tables) == 1
    rows = tables[0].rows
    assert [r[0] for r in rows] == ["Name", "query", "critics-pick", "publication-date", "offset"]
    assert rows[1][3] == (
        "Search keywords To limit your search to exact matches, quote it. If you omit it, every review is returned."
    )
    assert rows[3] == ["publication-date", "string", "True", "Single date Start and end date."]
    assert rows[4] == ["offset", "integer", "False", "Positive integer"]
    assert len(tables[0].cell_links) == len(rows)
    # The paragraphs read as rows are no runs of their own.
    assert not any(b.kind == "text" and "|" in b.text for b in page.blocks)


def test_spilled_rows_become_parameters(tmp_path: Path) -> None:
    doc = _crawl(tmp_path, f"<html><body><h2>GET /reviews</h2><h3>Parameters</h3>{_SPILLED}</body></html>")
    params = {p["name"]: p for p in doc["paths"]["/reviews"]["get"]["parameters"]}
    assert set(params) == {"query", "critics-pick", "publication-date", "offset"}
    assert params["offset"]["schema"]["type"] == "integer"
    assert params["publication-date"]["required"] is True
    assert "exact matches" in params["query"]["description"]


def test_paragraphs_of_another_width_or_open_are_prose() -> None:
    table = _table(("query", "string", "False", "Search keywords"))
    for after in (
        "<p>a | b | c |\n| one | two |</p>",  # a row of another width
        "<p>Use a | b for either.</p>",  # no line closed by a pipe
        "<p>More words |\n| offset | integer | False | Positive integer</p>",  # the last row left open
    ):
        page = parse_html(f"<html><body><h2>GET /reviews</h2>{table}{after}</body></html>")
        table_block = next(b for b in page.blocks if b.kind == "table")
        assert [r[0] for r in table_block.rows] == ["Name", "query"], after
        assert any(b.kind == "text" and "|" in b.text for b in page.blocks), after


def test_a_heading_between_ends_the_spill() -> None:
    table = _table(("query", "string", "False", "Search keywords"))
    page = parse_html(
        f"<html><body><h2>GET /reviews</h2>{table}<h3>Next</h3><p>x |\n| offset | integer | False | P |</p></body></html>"
    )
    table_block = next(b for b in page.blocks if b.kind == "table")
    assert len(table_block.rows) == 2


def test_standard_request_header_names() -> None:
    for name in ("Authorization", "Content-Type", "accept", "Accept-Language", "If-None-Match", "User-Agent"):
        assert is_request_header(name), name
    for name in ("date", "from", "range", "content", "accepted", "token", "X-Custom", "authorization_code"):
        assert not is_request_header(name), name


def test_request_header_without_a_place_column_is_a_header(tmp_path: Path) -> None:
    table = _table(("term", "string", "False", "Search term"), ("Authorization", "string", "True", "Bearer key"))
    doc = _crawl(tmp_path, f"<html><body><h2>GET /businesses/{{id}}</h2><h3>Parameters</h3>{table}</body></html>")
    params = {p["name"]: p["in"] for p in doc["paths"]["/businesses/{id}"]["get"]["parameters"]}
    assert params == {"id": "path", "term": "query", "Authorization": "header"}


def test_paragraph_under_a_bare_status_heading_describes_the_response(tmp_path: Path) -> None:
    html = (
        "<html><body><h2>POST /alerts</h2><p>Create customized alerts for unusual patterns.</p>"
        "<h3>Responses</h3><h4>201</h4><p>Successfully created an alert.</p>"
        "<h4>400 Bad request</h4><p>The threshold was missing from the body.</p></body></html>"
    )
    op = _crawl(tmp_path, html)["paths"]["/alerts"]["post"]
    assert op["responses"]["201"]["description"] == "Successfully created an alert."
    assert "Successfully created" not in op.get("description", "")
    # A status heading that says its own description keeps it.
    assert op["responses"]["400"]["description"] == "Bad request"
