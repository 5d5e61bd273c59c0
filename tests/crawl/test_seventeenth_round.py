"""Issue 17's seventeenth round: general rules after the first contact of owl-api (MkDocs with TechDocs Owl's
mkdocs-owl-api: a Markdown page the plugin fills at build time, its default theme; each operation an h3, then the
method badge and the path as a paragraph, the description, "Parameters" (a table Name | In | Type | Description),
"Request body" ("Content type: application/json", "Schema:" and a link to the schema's section, or an inline
schema's headerless table), "Responses" (a table Status | Description | Schema, the schema a link, "[ Pet ]" for a
list of them, or just "object" for an inline one), "Headers for 302:" over a table of a response's headers; the
schemas last, each an h3 whose Markdown attribute list the default theme left as text, "NewPet
{#schemas-newpet}", the anchor every link to it points at, over a headerless table of fields (a name and
"required", then the type, a schema's link, and the description); an allOf drawn as a list whose items are "REF"
and a link, or "OBJECT" over its own table), each on a small fragment of the structure it draws (each fails
without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.labels import label_kind
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.tables import field_rows, status_schemas
from tests.crawl.conftest import BENCH


def _crawl(tmp_path: Path, html: str) -> dict:
    page = tmp_path / "api.html"
    page.write_text(html, encoding="utf-8")
    return crawl_pages([page]).document


def _responses(schema_cell: str) -> str:
    return (
        "<p><strong>Responses</strong></p><table><thead><tr><th>Status</th><th>Description</th><th>Schema</th></tr>"
        f"</thead><tbody><tr><td><code>200</code></td><td>pet response</td><td>{schema_cell}</td></tr></tbody></table>"
    )


def _schema(name: str, *fields: tuple[str, str], before: str = "") -> str:
    """A schema's section as the plugin draws it: its heading's attribute list left as text, a headerless table."""
    rows = "".join(f"<tr><td><span>{f}</span></td><td><p>{about}</p></td></tr>" for f, about in fields)
    anchor = f"schemas-{name.lower()}"
    return (
        f'<h3 id="{name.lower()}-{anchor}">{name} {{#{anchor}}}</h3>{before}<p><span>OBJECT</span></p>'
        f"<p><em>Properties:</em></p><table><tbody>{rows}</tbody></table>"
    )


def _link(name: str) -> str:
    return f'<a href="#schemas-{name.lower()}"><code>{name}</code></a>'


def _page(responses: str, *schemas: str) -> str:
    return (
        '<html><body><h2 id="endpoints">Endpoints {#tag-endpoints}</h2>'
        '<h3 id="pets-get">Find pets {#endpoints-get-pets}</h3><p><span>GET</span> <code>/pets</code></p>'
        f'<p>Returns all pets.</p>{responses}<h2 id="schemas">Schemas</h2>{"".join(schemas)}</body></html>'
    )


def _response_fields(document: dict) -> dict:
    schema = document["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    return schema.get("items", schema)["properties"]


def test_a_headings_literal_attribute_list_is_its_anchor_not_its_words() -> None:
    # "NewPet {#schemas-newpet}": Markdown's attribute list left as text; the heading is "NewPet", and a link
    # to "#schemas-newpet" names it.
    page = parse_html(f"<h3>NewPet {{#schemas-newpet}}</h3><p>Schema: {_link('NewPet')}</p><h3>Pets {{: #p .x}}</h3>")
    heading, text, other = page.blocks
    assert (heading.text, heading.anchor) == ("NewPet", "schemas-newpet")
    assert text.links == ["NewPet"] and (other.text, other.anchor) == ("Pets", "p")
    plain = parse_html("<h3>Sets {of} things</h3>").blocks[0]
    assert plain.text == "Sets {of} things" and plain.anchor == ""


def test_a_link_to_a_headings_attribute_list_anchor_gives_the_schemas_fields(tmp_path: Path) -> None:
    document = _crawl(tmp_path, _page(_responses(_link("Pet")), _schema("Pet", ("id", "<code>integer</code>"))))
    assert set(_response_fields(document)) == {"id"}
    assert document["paths"]["/pets"]["get"]["summary"] == "Find pets"


def test_a_list_of_a_linked_schema_with_its_brackets_apart_names_it() -> None:
    rows = [["Status", "Description", "Schema"], ["200", "pets", "[ Pet ]"], ["201", "pet", "[Pet]"]]
    assert status_schemas(rows, True) == {"200": "Pet", "201": "Pet"}


def test_a_headerless_tables_type_cell_opening_with_a_link_names_the_fields_schema() -> None:
    rows = [["records", "[ Record ] The records"], ["owner", "User The owner"], ["note", "string See Record"]]
    links = [["", "Record"], ["", "User"], ["", "Record"]]
    parsed = {row.name: row.ref for row in field_rows(rows, False, links)}
    assert parsed == {"records": "Record", "owner": "User", "note": ""}


def test_a_badged_link_alone_before_a_sections_fields_is_a_part_it_takes_in_whole(tmp_path: Path) -> None:
    # allOf drawn as a list: "REF NewPet" (a badge, then the link), then "OBJECT" over the section's own table.
    part = f"<ul><li><p><span>REF</span> {_link('NewPet')}</p></li></ul>"
    pet = _schema("Pet", ("id", "<code>integer</code>"), before=part)
    new_pet = _schema("NewPet", ("name", "<code>string</code>"), ("tag", "<code>string</code>"))
    document = _crawl(tmp_path, _page(_responses(f"[{_link('Pet')}]"), pet, new_pet))
    assert set(_response_fields(document)) == {"id", "name", "tag"}


def test_headers_for_a_status_are_the_responses_not_the_requests(tmp_path: Path) -> None:
    assert label_kind("Headers for 302:") == "response" and label_kind("Headers for status 200") == "response"
    assert label_kind("Request headers") == "param"
    headers = (
        "<p><em>Headers for</em> <code>200</code>:</p><table><thead><tr><th>Header</th><th>Type</th>"
        "<th>Description</th></tr></thead><tbody><tr><td><code>Access-Control-Allow-Origin</code></td>"
        "<td><code>string</code></td><td><p>Allowed origins</p></td></tr></tbody></table>"
    )
    document = _crawl(tmp_path, _page(_responses(_link("Pet")) + headers, _schema("Pet", ("id", "<code>integer</code>"))))
    operation = document["paths"]["/pets"]["get"]
    assert "Access-Control-Allow-Origin" not in {p["name"] for p in operation.get("parameters", [])}


def test_owl_api_pages_give_every_operation_with_its_fields() -> None:
    page = BENCH / "pages" / "owl-api" / "realworld-v3-0-petstore-expanded.html"
    document = crawl_pages([page]).document
    assert {(path, method) for path, item in document["paths"].items() for method in item} == {
        ("/pets", "get"), ("/pets", "post"), ("/pets/{id}", "get"), ("/pets/{id}", "delete"),
    }  # fmt: skip
    listed = document["paths"]["/pets"]["get"]
    assert {p["name"]: p["in"] for p in listed["parameters"]} == {"tags": "query", "limit": "query"}
    listed_schema = listed["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(listed_schema.get("items", listed_schema)["properties"]) == {"id", "name", "tag"}
    body = document["paths"]["/pets"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(body["properties"]) == {"name", "tag"} and body["required"] == ["name"]


def test_a_pages_footer_is_no_operations_description(tmp_path: Path) -> None:
    # The site's credits after the last operation ("Documentation built with MkDocs.") describe the site.
    html = (
        '<html><body><h3 id="pets-get">Find pets</h3><p><span>GET</span> <code>/pets</code></p>'
        '<footer><hr><p>Documentation built with <a href="https://x.org/">MkDocs</a>.</p></footer></body></html>'
    )
    operation = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert operation["summary"] == "Find pets" and "description" not in operation


def test_a_run_that_states_a_security_schemes_type_describes_the_scheme_not_the_operation(tmp_path: Path) -> None:
    security = (
        "<p><strong>Security</strong></p>"
        '<p>!!! note ":material-security: Security: api_key" <strong>Type:</strong> <span>apiKey</span></p>'
        "<pre><code>**Name:** `api_key`\n**In:** `query`\n</code></pre>"
    )
    html = _page(_responses(_link("Pet")) + security, _schema("Pet", ("id", "<code>integer</code>")))
    operation = _crawl(tmp_path, html)["paths"]["/pets"]["get"]
    assert operation["description"] == "Returns all pets."
    assert "api_key" not in {p["name"] for p in operation.get("parameters", [])}
    # A run after an "Authorization" box that states no scheme's type is still the operation's description.
    html = _page("<p>Authorization</p><p>Returns every pet the caller may see, newest first.</p>" + _responses(""))
    described = _crawl(tmp_path, html)["paths"]["/pets"]["get"]["description"]
    assert "newest first" in described
