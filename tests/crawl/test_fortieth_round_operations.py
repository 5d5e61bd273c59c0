"""Issue 17's fortieth round (operations found): rules written on the third development set (benchmarks/crawl/dev3),
never on the benchmark's 38 specs nor the held-out eleven. Markdown a processor left as text, headings with a method
and path and pipe tables inside one paragraph, is read as the headings and tables it would have drawn
(`raw_markdown`). Each on a small fragment of the structure (each fails without its rule). The round's two other rules
(a list of operations' entries, `nav_entries`; a capitalised plural row, `row_schemas`) were measured and reverted:
see docs/crawl-benchmark.md."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.raw_markdown import has_raw_operations, markdown_run

_RAW = (
    "Optional: a note whose HTML the processor could not close "
    "### GET /pets/{petId} **Description** Returns one pet. **Input parameters** "
    "| Parameter | In | Type | Default | Description | | --------- | ---- | ------ | ------- | ----------- | "
    "| petId | path | string | | the pet's id | | verbose | query | boolean | false | say more \\| less | "
    "### Response 200 OK "
    "### DELETE /pets/{petId} **Description** Removes a pet. ### Response 204 No Content ---"
)


def _page(tmp_path: Path, body: str) -> Path:
    page = tmp_path / "api.html"
    page.write_text(f"<html><body><h1>Pets API</h1>{body}</body></html>", encoding="utf-8")
    return page


def test_a_run_of_unrendered_markdown_is_read_as_its_headings_and_tables() -> None:
    assert has_raw_operations(_RAW)
    assert not has_raw_operations("Use GET /pets to list them; # of pets")  # no heading mark before the method
    blocks = markdown_run(_RAW)
    assert [(b.kind, b.text, b.level) for b in blocks if b.kind == "heading"] == [
        ("heading", "GET /pets/{petId}", 3),
        ("heading", "Response 200 OK", 3),
        ("heading", "DELETE /pets/{petId}", 3),
        ("heading", "Response 204 No Content", 3),
    ]
    tables = [b for b in blocks if b.kind == "table"]
    assert len(tables) == 1 and tables[0].header
    assert tables[0].rows == [
        ["Parameter", "In", "Type", "Default", "Description"],
        ["petId", "path", "string", "", "the pet's id"],
        ["verbose", "query", "boolean", "false", "say more | less"],
    ]
    texts = [b.text for b in blocks if b.kind == "text"]
    assert texts[0].startswith("Optional:") and "Description Returns one pet." in texts
    assert "Input parameters" in texts and "---" not in texts


def test_a_page_whose_markdown_was_left_as_text_gives_its_operations(tmp_path: Path) -> None:
    page = _page(tmp_path, f"<h3>GET /pets</h3><p><strong>Description</strong> Lists pets.</p><p>{_RAW}</p>")
    document = crawl_pages([page]).document
    assert set(document["paths"]) == {"/pets", "/pets/{petId}"}
    assert set(document["paths"]["/pets/{petId}"]) == {"get", "delete"}
    parameters = {p["name"]: p["in"] for p in document["paths"]["/pets/{petId}"]["get"]["parameters"]}
    assert parameters == {"petId": "path", "verbose": "query"}
    assert "parameters" not in document["paths"]["/pets/{petId}"]["delete"] or all(
        p["name"] == "petId" for p in document["paths"]["/pets/{petId}"]["delete"]["parameters"]
    )
    # the blocks, numbered in order after the run is read
    blocks = parse_html(page.read_text()).blocks
    assert [b.position for b in blocks] == list(range(len(blocks)))
