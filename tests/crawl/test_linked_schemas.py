"""Rules from issue 17's fourth round, each on a small real HTML fragment: a link names a schema
the shown text does not (a type cell "List" pointing to Models/Pet.md), and a JSON Schema block's
`$ref` is followed to the schema the page defines."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from openapi_rag.crawl.page import parse_html
from openapi_rag.crawl.tables import field_rows

# Generated references concatenated into one page: the types link to each model's own file
# ("../Models/Pet.md") or to its anchor ("#tag"), and each model's section is headed by its name.
_LINKED_MODELS = """
<h1>PetApi</h1><p>All URIs are relative to <em>https://petstore.example/v2</em></p>
<h1>findPets</h1><p><strong>GET</strong> /pets</p>
<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>tags</td><td><a href="../Models/String.md">List</a></td><td>tags to filter by</td></tr>
</tbody></table>
<h3>Return type</h3><p><a href="../Models/Pet.md"><strong>List</strong></a></p>
<h1>Pet</h1><h2>Properties</h2><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr>
</thead><tbody><tr><td>id</td><td>Long</td><td></td></tr>
<tr><td>tags</td><td><a href="#tag">List</a></td><td>its tags</td></tr></tbody></table>
<h1>Tag</h1><h2>Properties</h2><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr>
</thead><tbody><tr><td>label</td><td>String</td><td></td></tr>
<tr><td>parent</td><td><a href="https://example.com/Pet.md">Pet</a></td><td>not followed: another site</td>
</tr></tbody></table>
"""


def _crawl(tmp_path: Path, body: str) -> dict:
    (tmp_path / "page.html").write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return crawl_pages([tmp_path / "page.html"]).document


def test_the_page_reader_keeps_what_links_point_to() -> None:
    page = parse_html(f"<html><body>{_LINKED_MODELS}</body></html>")
    texts = {b.text: b.links for b in page.blocks if b.kind == "text"}
    assert texts["List"] == ["Pet"]  # the file's name, less its extension
    tables = [b.cell_links for b in page.blocks if b.kind == "table"]
    assert tables[0][1] == ["", "String", ""]
    assert tables[1][2] == ["", "tag", ""]  # an anchor
    assert tables[2][2] == ["", "", ""]  # a link to another site names no section of this page


def test_a_link_to_a_schema_section_names_the_response_and_nested_fields(tmp_path: Path) -> None:
    doc = _crawl(tmp_path, _LINKED_MODELS)
    ok = doc["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    # "List" alone names nothing; its link names Pet, and Pet's "tags" links to the Tag section.
    assert set(ok["properties"]) == {"id", "tags"}
    tags = ok["properties"]["tags"]
    assert set((tags.get("items") or tags)["properties"]) == {"label", "parent"}


def test_a_json_schema_block_follows_refs_to_the_schemas_the_page_defines(tmp_path: Path) -> None:
    # MkDocs' neoteroi plugin: the response names a common response whose JSON Schema refers to other
    # schemas by `$ref` (in allOf parts, inside an array's items, as the whole body); each is followed
    # to the page's section of that name, and a cycle (AlbumObject -> ArtistObject -> AlbumObject)
    # ends where it started.
    body = """
<h2>Endpoints</h2><h3>GET /albums</h3><p>Get Several Albums</p>
<h3>Response 200 OK</h3>
<p>Refer to the common response description: <a href="#pagedalbums">PagedAlbums</a></p>
<h3>GET /albums/{id}/images</h3><p>Get Album Images</p>
<h3>Response 200 OK</h3>
<p>Refer to the common response description: <a href="#arrayofimages">ArrayOfImages</a></p>
<h2>Schemas</h2>
<h3>AlbumObject</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>name</td><td>string</td><td></td></tr>
<tr><td>artists</td><td>Array&lt;<a href="#artistobject">ArtistObject</a>&gt;</td><td></td></tr></tbody></table>
<h3>ArtistObject</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>genres</td><td>Array&lt;string&gt;</td><td></td></tr>
<tr><td>top_album</td><td><a href="#albumobject">AlbumObject</a></td><td></td></tr></tbody></table>
<h3>ImageObject</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>url</td><td>string</td><td></td></tr></tbody></table>
<h3>PagingObject</h3><table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead>
<tbody><tr><td>total</td><td>integer</td><td></td></tr></tbody></table>
<h2>Common responses</h2>
<h3>PagedAlbums</h3><p><strong>Schema of the response body</strong></p>
<pre><code>{"allOf": [{"$ref": "#/components/schemas/PagingObject"},
  {"type": "object", "properties": {"albums": {"type": "array",
    "items": {"$ref": "#/components/schemas/AlbumObject"}}}}], "type": "object"}</code></pre>
<h3>ArrayOfImages</h3><p><strong>Schema of the response body</strong></p>
<pre><code>{"items": {"$ref": "#/components/schemas/ImageObject"}, "type": "array"}</code></pre>
"""
    paths = _crawl(tmp_path, body)["paths"]
    ok = paths["/albums"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set(ok["properties"]) == {"total", "albums"}
    album = ok["properties"]["albums"]["items"]
    assert set(album["properties"]) == {"name", "artists"}
    artist = album["properties"]["artists"]["items"]
    assert set(artist["properties"]) == {"genres", "top_album"}
    # AlbumObject is on the way down already: its fields are not entered again.
    assert not artist["properties"]["top_album"].get("properties")
    images = paths["/albums/{id}/images"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert set((images.get("items") or images)["properties"]) == {"url"}


def test_an_outline_term_with_no_type_takes_the_schema_its_lone_link_names(tmp_path: Path) -> None:
    # bootprint: a schema drawn as an outline of "name: type" terms; a term that states no type
    # ("album:") has, under its description, a link alone to the schema's own section.
    body = """
<h2>Paths</h2><h3><span>GET</span> <strong>/tracks/{id}</strong></h3>
<dl><dt>200 OK</dt><dd><div><p>A track</p></div><div><a href="#/definitions/TrackObject">TrackObject</a></div>
</dd></dl>
<h2>Schema definitions</h2>
<div><h3>TrackObject: <span>object</span></h3>
<dl><dt><span>album:</span></dt><dd><p>The album on which the track appears.</p>
<div><section><ul><a href="#/definitions/AlbumObject">AlbumObject</a></ul></section></div></dd>
<dt><span>name:</span> <span>string</span></dt><dd><p>The name of the track.</p><div></div></dd></dl></div>
<div><h3>AlbumObject: <span>object</span></h3>
<dl><dt><span>label:</span> <span>string</span></dt><dd><p>The label.</p><div></div></dd>
<dt><span>total_tracks:</span> <span>integer</span></dt><dd><p>How many.</p><div></div></dd></dl></div>
"""
    ok = _crawl(tmp_path, body)["paths"]["/tracks/{id}"]["get"]["responses"]["200"]
    track = ok["content"]["application/json"]["schema"]
    assert set(track["properties"]) == {"album", "name"}
    assert set(track["properties"]["album"]["properties"]) == {"label", "total_tracks"}


def test_only_a_type_cell_with_a_link_names_a_schema() -> None:
    rows = [["Name", "Type", "Description"], ["owner", "List", "linked"], ["extra", "", "no link, no type"]]
    links = [["", "", ""], ["", "Person", ""], ["", "", ""]]
    owner, extra = field_rows(rows, True, links)
    assert (owner.ref, owner.type) == ("Person", "array")
    assert (extra.ref, extra.type) == ("", None)  # an empty type cell states nothing
