"""Issue 17's fortieth round (operations found): rules written on the third development set (benchmarks/crawl/dev3),
never on the benchmark's 38 specs nor the held-out eleven. Markdown a processor left as text, headings with a method
and path and pipe tables inside one paragraph, is read as the headings and tables it would have drawn
(`raw_markdown`); a list-typed row named as the plural of a schema written capital first holds that schema
(`row_schemas`). Each on a small fragment of the structure (each fails
without its rule)."""

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


_PASCAL = (
    "<h1>Components</h1>"
    "<h2>Employees</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>Employees</td><td>array</td><td></td></tr></tbody></table>"
    "<h2>Employee</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>FirstName</td><td>string</td><td>First name</td></tr>"
    "<tr><td>HomeAddress</td><td></td><td></td></tr></tbody></table>"
    "<h2>HomeAddress</h2><table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
    "<tr><td>City</td><td>string</td><td></td></tr><tr><td>Region</td><td>string</td><td></td></tr></tbody></table>"
)


def test_a_list_named_as_a_schema_capital_first_holds_it(tmp_path: Path) -> None:
    # "Employees | array" over a section "Employee" (properties written capital first, as the schemas are): a list
    # of Employee. An untyped row named exactly as a section ("HomeAddress | |") stays a field (thirty-sixth round).
    body = (
        "<h1>APIs</h1><h2>GET /Employees</h2><h3>Responses</h3><h4>200</h4><p>search results</p>"
        '<p><a href="#employees">Employees</a></p>' + _PASCAL
    )
    document = crawl_pages([_page(tmp_path, body)]).document
    content = document["paths"]["/Employees"]["get"]["responses"]["200"]["content"]
    employees = next(iter(content.values()))["schema"]["properties"]["Employees"]
    assert employees["type"] == "array"
    assert set(employees["items"]["properties"]) == {"FirstName", "HomeAddress"}


def test_a_list_named_as_a_tag_that_states_no_array_stays_a_field(tmp_path: Path) -> None:
    # No row states a type (a list of the page's sections): a row named as one's plural is no list of it.
    body = (
        "<h1>APIs</h1><h2>GET /Employees</h2><h3>Responses</h3><h4>200</h4><p>OK</p>"
        "<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>"
        "<tr><td>Employees</td><td></td><td></td></tr><tr><td>Other</td><td></td><td></td></tr></tbody></table>"
        + _PASCAL
    )
    document = crawl_pages([_page(tmp_path, body)]).document
    content = document["paths"]["/Employees"]["get"]["responses"]["200"]["content"]
    properties = next(iter(content.values()))["schema"]["properties"]
    assert "items" not in properties["Employees"] and "properties" not in properties["Employees"]
