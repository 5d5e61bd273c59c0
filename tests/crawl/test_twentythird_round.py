"""Issue 17's twenty-third round: a general rule after the first contact of openapi-to-asciidoc (its Jinja templates
of AsciiDoc through Asciidoctor.js: each path a heading holding the path template alone, "/pets", each of its methods
alone, lower case, in a heading one level below it, "get", over that operation's description and parameters), on a
small fragment of the structure it draws (it fails without its rule), and the real pages."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.crawl import crawl_pages
from tests.crawl.conftest import BENCH

_PAGE = """<html><body>
<h2>Paths</h2>
<h3>/pets</h3>
<h4>get</h4>
<p>Lists every pet in the store.</p>
<table><tr><th>Name</th><th>In</th><th>Description</th></tr>
<tr><td>limit</td><td>query</td><td>How many to return.</td></tr></table>
<h4>Post</h4>
<p>Adds a pet to the store.</p>
<h3>/pets/{petId}</h3>
<h4>DELETE</h4>
<p>Deletes one pet.</p>
<h2>Schemas</h2>
<h3>Pet</h3>
<h4>get</h4>
<p>A heading holding a method alone under one that is no path names no operation.</p>
</body></html>"""


def test_methods_alone_in_headings_under_a_path_heading_are_its_operations(tmp_path: Path) -> None:
    page = tmp_path / "api.html"
    page.write_text(_PAGE)
    paths = crawl_pages([page]).document["paths"]
    assert set(paths) == {"/pets", "/pets/{petId}"}
    assert set(paths["/pets"]) == {"get", "post"}
    assert set(paths["/pets/{petId}"]) == {"delete"}
    listed = paths["/pets"]["get"]
    assert "Lists every pet" in listed["description"]
    assert [p["name"] for p in listed["parameters"]] == ["limit"]
    assert "Adds a pet" in paths["/pets"]["post"]["description"]
    assert "Deletes one pet" in paths["/pets/{petId}"]["delete"]["description"]


def test_real_pages() -> None:
    pages = BENCH / "pages" / "openapi-to-asciidoc"
    doc = crawl_pages([pages / "realworld-v3-0-petstore-expanded.html"]).document
    assert {(m, p) for p, item in doc["paths"].items() for m in item} == {
        ("get", "/pets"),
        ("post", "/pets"),
        ("get", "/pets/{id}"),
        ("delete", "/pets/{id}"),
    }
