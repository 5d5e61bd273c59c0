"""scripts/render_pages.py: what a dumped single-page app keeps (the renderers themselves need
node and Chromium, so CI reads the committed pages instead)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tests.crawl.conftest import BENCH

SCRIPT = BENCH.parents[1] / "scripts" / "render_pages.py"


def _render_pages():  # the script is no package module: load it from its file
    spec = importlib.util.spec_from_file_location("render_pages", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_dumped_page_loses_its_scripts_styles_and_links_into_the_harness() -> None:
    work = Path("/tmp/render-work-123")
    dom = (
        '<html><head><link rel="stylesheet" href="x.css"><style>p{}</style></head><body>'
        '<script>const spec = {"paths": {"/secret": {}}};</script>'
        '<div class="opblock" style="color: red" data-v-1="" aria-label="x" id="op">'
        '<svg><path d="M0"/></svg><span>GET</span><a href="#ops">/pets</a>'
        f'<a href="https://client.example/?url=file%3A%2F%2F{str(work).replace("/", "%2F")}%2Fharness.html">'
        'Open</a></div><table><tr><td colspan="2">id</td></tr></table></body></html>'
    )
    page = _render_pages().strip_page(dom, work)
    assert "/secret" not in page and "<script" not in page and "<style" not in page
    assert "<svg" not in page and "<link" not in page
    assert "class=" not in page and "style=" not in page and "aria-label" not in page
    assert 'id="op"' in page and 'href="#ops"' in page and 'colspan="2"' in page
    assert "render-work-123" not in page and ">Open</a>" in page


def test_every_renderer_has_its_own_function_and_install_hint() -> None:
    module = _render_pages()
    assert set(module.RENDER) | set(module.RENDER_ALL) == set(module.NEEDS)
    assert not set(module.RENDER) & set(module.RENDER_ALL)  # a renderer builds one spec at a time or all at once
    assert {"swagger-ui", "scalar", "rapidoc"} <= set(module.RENDER)
    assert {"bootprint", "openapi-generator", "openapi-generator-html", "asciidoc"} <= set(module.RENDER)
    assert {"mkdocs", "openapi-generator-markdown", "spectacle", "openapi2html", "starlight"} <= set(module.RENDER)
    assert {"raml2html", "elements", "kong", "diplodoc", "owl-api", "scalar-markdown", "flexdoc"} <= set(module.RENDER)
    assert {"nadoc", "openapi-to-asciidoc", "swagger2rst", "openapi-markdown", "swagger-render"} <= set(module.RENDER)
    assert {"swagger-markdown"} <= set(module.RENDER)
    assert "postman-to-markdown" in module.RENDER
    assert "oas3-mdx" in module.RENDER
    assert {"docusaurus", "vitepress", "zudoku", "fumadocs"} <= set(module.RENDER_ALL)
    # The spec never reaches a committed page (openapi-generator's scripts carry every schema).
    for name, count in (("swagger-ui", 38), ("scalar", 38), ("rapidoc", 38), ("redoc", 38),
                        ("openapi-generator", 38), ("openapi-generator-html", 38), ("asciidoc", 38),
                        ("mkdocs", 38), ("openapi-generator-markdown", 38), ("bootprint", 36),
                        ("spectacle", 35), ("openapi2html", 36), ("starlight", 38),
                        ("docusaurus", 38), ("vitepress", 38), ("raml2html", 36), ("zudoku", 38),
                        ("elements", 38), ("fumadocs", 38), ("kong", 38), ("diplodoc", 38),
                        ("owl-api", 38), ("scalar-markdown", 38), ("flexdoc", 38),
                        ("nadoc", 38), ("openapi-to-asciidoc", 38), ("swagger2rst", 34),
                        ("openapi-markdown", 38), ("swagger-render", 36),
                        ("postman-to-markdown", 38), ("swagger-markdown", 37), ("oas3-mdx", 38)):  # fmt: skip
        pages = sorted((BENCH / "pages" / name).glob("*.html"))
        assert len(pages) == count
        assert all("<script" not in p.read_text(encoding="utf-8")[:2_000_000] for p in pages[:5])


def test_a_text_boxs_value_stays_on_the_page() -> None:
    # Starlight shows each request URL in a read-only text box: what a reader sees there stays.
    dom = (
        '<html><body><label>Production server <input readonly type="text" class="x" '
        'value="https://api.example.com/v1/pets"></label><option value="a">A</option></body></html>'
    )
    page = _render_pages().strip_page(dom, Path("/tmp/render-work-123"))
    assert '<input value="https://api.example.com/v1/pets">' in page
    assert "readonly" not in page and 'class="x"' not in page and 'value="a"' not in page


def test_whitespace_runs_outside_pre_become_one_space() -> None:
    dom = (
        "<html><body><div>\n      <table>\n        <tr><td>  id\n  </td></tr></table>\n    </div>"
        '<pre>{\n  "id": 1\n}</pre>\n\n<p>after</p></body></html>'
    )
    page = _render_pages().strip_page(dom, Path("/tmp/render-work-123"))
    assert "<td> id </td>" in page and "\n      " not in page
    assert '<pre>{\n  "id": 1\n}</pre> <p>after</p>' in page


def test_comments_are_dropped_from_a_page_with_their_markup() -> None:
    # spectacle's template leaves commented-out markup, `<script>` tags among it; a reader sees none.
    dom = '<html><body><!-- <script src="app.js"></script> --><p>kept</p><!-- </ul> --> tail</body></html>'
    page = _render_pages().strip_page(dom, Path("/tmp/render-work-123"))
    assert "<!--" not in page and "<script" not in page and "<p>kept</p> tail" in page


def test_the_api_elements_parser_reads_a_mended_copy_that_keeps_every_operation() -> None:
    # aglio's parser refuses a whole spec on one slip against the Swagger 2 schema; the copy it reads
    # mends the slips (Spotify's quoted booleans/numbers, TMDB's `cache` key, NYTimes' `logo`, OpenAPI
    # 3 leftovers of the converter) and keeps what the operations document.
    module = _render_pages()
    spec = {
        "openapi": "3.0.0",
        "paths": {
            "/movie/{id}": {
                "get": {
                    "summary": "Get Details",
                    "cache": {"expire": ""},
                    "parameters": [{"name": "id", "in": "path", "required": "true", "schema": {"maximum": "50"}}],
                    "responses": {"200": {"description": "OK"}},
                }
            }
        },
        "components": {"schemas": {"Movie": {"required": ["id", "gone"], "properties": {"id": {}}}}},
    }
    mended = module._schema_valid(spec)
    operation = mended["paths"]["/movie/{id}"]["get"]
    assert "cache" not in operation and operation["summary"] == "Get Details"
    assert operation["parameters"][0]["required"] is True
    assert operation["parameters"][0]["schema"]["maximum"] == 50
    assert mended["components"]["schemas"]["Movie"]["required"] == ["id"]
    swagger = {
        "swagger": "2.0",
        "info": {"title": "T", "version": "1", "logo": {"url": "x"}},
        "paths": {
            "/a": {
                "get": {
                    "parameters": [{"name": "q", "in": "query", "example": "x"}, {"name": "body", "in": "body"}],
                    "responses": {"200": {"links": {}, "headers": {"X-Rate": {"type": "integer", "example": 1}}}},
                }
            }
        },
    }
    fixed = module._swagger_2_valid(swagger)
    assert fixed["info"] == {"title": "T", "version": "1"}
    query, body = fixed["paths"]["/a"]["get"]["parameters"]
    assert query == {"name": "q", "in": "query", "type": "string"} and body["schema"] == {}
    response = fixed["paths"]["/a"]["get"]["responses"]["200"]
    assert response == {"description": "", "headers": {"X-Rate": {"type": "integer"}}}


def test_an_operation_without_operation_id_or_summary_is_named_as_code_generators_name_it() -> None:
    # docusaurus-plugin-openapi-docs names each page after the operationId, else the summary: without
    # either, every such operation gets the same empty page name and the site fails to build.
    comic = {"get": {"description": "Fetch a comic"}, "parameters": []}
    pets = {"get": {"summary": "List pets"}, "post": {"operationId": "addPet", "summary": " "}}
    spec = {"paths": {"/comics/{comicId}/info.0.json": comic, "/pets": pets}}
    named = _render_pages()._operations_named(spec)
    assert named["paths"]["/comics/{comicId}/info.0.json"]["get"]["operationId"] == "getComicsComicIdInfo0Json"
    assert "operationId" not in named["paths"]["/pets"]["get"]
    assert named["paths"]["/pets"]["post"] == {"operationId": "addPet"}  # an empty summary would be an empty label


def test_an_operation_id_elements_cannot_route_becomes_a_slug() -> None:
    # Elements routes an operation's page by its operationId; spaces or slashes fall back to the overview.
    data = {"paths": {"/pets/{id}": {"get": {"operationId": "find pet by id"}, "parameters": []},
                      "/businesses/search": {"get": {"operationId": "/businesses/search"}},
                      "/pets": {"post": {"operationId": "addPet"}, "get": {}}}}  # fmt: skip
    paths = _render_pages()._operation_ids_routable(data)["paths"]
    assert paths["/pets/{id}"]["get"]["operationId"] == "find-pet-by-id"
    assert paths["/businesses/search"]["get"]["operationId"] == "businesses-search"
    assert paths["/pets"]["post"]["operationId"] == "addPet" and "operationId" not in paths["/pets"]["get"]


def test_reacts_streamed_parts_are_put_where_its_inline_script_puts_them() -> None:
    # A statically exported Next.js page sends a part that suspends at the end of the body, hidden, and a
    # one-line script moves it into its boundary in a browser; the kept page has no script, so the harness
    # moves it (Fumadocs' request body fields).
    import lxml.html

    text = (
        '<html><body><main><h3>Request Body</h3><div><input value=""><!--$?--><template id="B:0"></template>'
        "<p>Loading</p><!--/$--><p>after</p></div><!--$?--><template id=\"B:1\"></template><!--/$--></main>"
        '<div hidden id="S:0">lead <span>name</span><span>string</span></div>'
        '<script>$RC("B:0","S:0")</script></body></html>'
    )
    root = lxml.html.document_fromstring(text)
    _render_pages()._streamed_in(root, text)
    page = lxml.html.tostring(root.find(".//main"), encoding="unicode")
    assert '<input value=""><!--$?-->lead <span>name</span><span>string</span><!--/$--><p>after</p>' in page
    assert "Loading" not in page and 'id="B:0"' not in page and 'id="S:0"' not in lxml.html.tostring(root).decode()
    assert 'id="B:1"' in page  # a part never sent keeps its boundary (and shows nothing)


def test_diplodocs_input_is_mended_where_its_validation_refuses_it_and_nothing_documented_is_lost() -> None:
    # Diplodoc's includer validates the spec and refuses the whole file on one slip the others pass over.
    data = {
        "openapi": "3.1.0",
        "info": {"title": "T", "version": "1", "logo": {"url": "x"}, "x-origin": []},
        "paths": {
            "/search": {
                "get": {
                    "cache": True,
                    "parameters": [{"name": "type", "in": "query", "explode": "false", "schema": {"type": "array"}}],
                    "responses": {"200": {"description": "ok", "content": {"application/json": {
                        "example": {"content": {"a": 1}}}}}},
                },
                "post": {
                    "requestBody": {"content": {"application/json": {"example": {"id": 1}}}},
                    "responses": {"201": {"description": "made"}},
                    "x-spotify-docs": {"$ref": "policies.yaml"},
                },
            }
        },
        "components": {"securitySchemes": {"jwt": {"type": "http", "scheme": "Bearer", "bearerFormat": "JWT"}}},
    }
    mended = _render_pages()._openapi_3_valid(data)
    assert mended["info"] == {"title": "T", "version": "1"}
    get, post = mended["paths"]["/search"]["get"], mended["paths"]["/search"]["post"]
    assert "cache" not in get and get["parameters"][0]["explode"] is False
    assert "x-spotify-docs" not in post
    assert post["requestBody"]["content"]["application/json"] == {"example": {"id": 1}, "schema": {}}
    # an example's own keys are data, never a media type to give a schema
    assert get["responses"]["200"]["content"]["application/json"]["example"] == {"content": {"a": 1}}
    assert mended["components"]["securitySchemes"]["jwt"]["scheme"] == "bearer"


def test_diplodocs_leading_page_draws_no_copy_of_the_spec() -> None:
    # The includer's leading page shows the whole spec as JSON by default (the answer itself): hidden by
    # its documented setting, so no committed page holds it.
    assert "renderMode: hidden" in _render_pages()._DIPLODOC_TOC
    for page in sorted((BENCH / "pages" / "diplodoc").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert '"openapi":' not in text and "<summary>Open API</summary>" not in text, page.name


def test_a_swagger_2_spec_goes_through_the_given_converter_and_an_openapi_3_one_does_not(tmp_path: Path) -> None:
    module = _render_pages()
    converter = tmp_path / "api-spec-converter"  # stands in for the pinned one: echoes what it was asked
    converter.write_text('#!/bin/sh\necho "{\\"openapi\\": \\"3.0.0\\", \\"args\\": \\"$1 $2 $3\\"}"\n')
    converter.chmod(0o755)
    spec = tmp_path / "spec.json"
    oas3 = {"openapi": "3.0.3", "paths": {}}
    assert module._openapi_3(spec, oas3, converter) is oas3
    converted = module._openapi_3(spec, {"swagger": "2.0"}, converter, timeout=30)
    assert converted == {"openapi": "3.0.0", "args": "--from=swagger_2 --to=openapi_3 --syntax=json"}


def test_openapi_markdowns_input_keeps_methods_alone_and_pushes_a_paths_shared_parameters_down() -> None:
    # openapi-markdown's template takes every key of a path item for a method; a path's shared parameters
    # join each operation's own (the operation's win on the same name and place), nothing documented is lost.
    module = _render_pages()
    spec = {
        "openapi": "3.0.0",
        "paths": {
            "/a/{id}": {
                "description": "A path",
                "servers": [{"url": "https://x"}],
                "x-note": 1,
                "parameters": [{"name": "id", "in": "path", "required": True}, {"name": "q", "in": "query"}],
                "get": {"parameters": [{"name": "q", "in": "query", "description": "own"}], "responses": {}},
                "post": {"responses": {}},
            }
        },
    }
    item = module._path_items_methods_only(spec)["paths"]["/a/{id}"]
    assert set(item) == {"get", "post"}
    assert [(p["name"], p.get("description")) for p in item["get"]["parameters"]] == [("id", None), ("q", "own")]
    assert [p["name"] for p in item["post"]["parameters"]] == ["id", "q"]
    assert "parameters" in spec["paths"]["/a/{id}"]  # the input is not changed


def test_swagger_renders_input_drops_extensions_non_method_keys_and_response_links() -> None:
    # swagger-render resolves every `$ref` it meets (Spotify's `x-` ones point at lists), takes every key of a
    # path item for an operation, and a converted response's `links` point into the dropped `x-components`.
    module = _render_pages()
    spec = {
        "swagger": "2.0",
        "x-components": {"links": {"L": {"operationId": "a"}}},
        "paths": {
            "/a/{id}": {
                "description": "A path",
                "x-note": {"$ref": "#/x-components/links"},
                "parameters": [{"name": "id", "in": "path", "required": True, "type": "string"}],
                "get": {
                    "parameters": [{"name": "q", "in": "query", "type": "integer"}],
                    "responses": {"200": {"description": "ok", "links": {"L": {"$ref": "#/x-components/links/L"}}}},
                },
            }
        },
        "responses": {"E": {"description": "error", "links": {}}},
    }
    out = module._swagger_render_readable(spec)
    item = out["paths"]["/a/{id}"]
    assert set(item) == {"parameters", "get"} and "x-components" not in out
    assert item["get"]["responses"]["200"] == {"description": "ok"}
    assert item["get"]["parameters"] == [{"name": "q", "in": "query", "type": "integer"}]
    assert out["responses"]["E"] == {"description": "error"}
    assert "links" in spec["paths"]["/a/{id}"]["get"]["responses"]["200"]  # the input is not changed


def test_swagger_markdowns_input_drops_nulls_extensions_empty_sections_and_a_license_without_a_contact() -> None:
    # swagger-markdown walks every object's entries (a null fails), resolves `x-` `$ref`s, fails on a section
    # with nothing to print, and counts `info.contact`'s keys before printing `info.license`.
    module = _render_pages()
    spec = {
        "swagger": "2.0",
        "info": {"title": "T", "version": "1", "license": {"name": "MIT"}},
        "x-policies": {"$ref": "policies.yaml"},
        "definitions": {},
        "securityDefinitions": {},
        "paths": {
            "/a": {
                "get": {
                    "parameters": [{"name": "q", "in": "query", "type": "integer", "default": None}],
                    "responses": {"200": {"description": "ok", "examples": None}},
                }
            }
        },
    }
    out = module._swagger_markdown_readable(spec)
    assert set(out) == {"swagger", "info", "paths"}
    assert out["info"] == {"title": "T", "version": "1"}
    get = out["paths"]["/a"]["get"]
    assert get["parameters"] == [{"name": "q", "in": "query", "type": "integer"}]
    assert get["responses"] == {"200": {"description": "ok"}}
    kept = module._swagger_markdown_readable({**spec, "info": {**spec["info"], "contact": {"name": "C"}}})
    assert kept["info"]["license"] == {"name": "MIT"}
    assert spec["definitions"] == {} and "license" in spec["info"]  # the input is not changed


def test_swagger_markdown_reads_an_openapi_3_spec_itself_only_where_it_names_component_schemas() -> None:
    # with no `components.schemas` it fails (nothing to print), so such a spec goes through the Swagger 2 converter
    module = _render_pages()
    assert module._has_component_schemas({"openapi": "3.0.3", "components": {"schemas": {"Pet": {}}}})
    assert not module._has_component_schemas({"openapi": "3.0.3", "components": {"securitySchemes": {}}})
    assert not module._has_component_schemas({"openapi": "3.0.3", "paths": {}})
def test_a_postman_collection_gets_what_postman_exports_raw_urls_and_header_lists() -> None:
    # openapi-to-postmanv2 writes a URL as parts only and no header list where a request has none;
    # postman-to-markdown draws `raw` alone and maps over `header` unguarded.
    module = _render_pages()
    query = [{"key": "page", "value": "1"}, {"key": "lang", "value": "<string>", "disabled": True}]
    collection = {
        "item": [
            {"name": "folder", "item": [{"name": "a", "request": {"method": "GET", "url": {
                "host": ["{{baseUrl}}"], "path": ["movie", ":movie_id", "reviews"], "query": query}}}]},
            {"name": "b", "request": {"method": "POST", "header": [{"key": "X"}], "url": {"raw": "kept", "host": ["h"]}}},
        ]
    }
    out = module._postman_as_exported(collection)
    first = out["item"][0]["item"][0]["request"]
    assert first["url"]["raw"] == "{{baseUrl}}/movie/:movie_id/reviews?page=1" and first["header"] == []
    assert out["item"][1]["request"]["url"]["raw"] == "kept" and out["item"][1]["request"]["header"] == [{"key": "X"}]


def test_oas3_mdxs_input_has_each_servers_variables_filled_with_their_defaults() -> None:
    # oas3-mdx's cURL sample (openapi-snippet's HAR) refuses a URL whose scheme is a template, and its validator a
    # URL that declares variables it does not hold: each server's variables take their defaults, as a client's do.
    module = _render_pages()
    scheme = {"scheme": {"enum": ["https", "http"], "default": "https"}}
    spec = {
        "openapi": "3.0.3",
        "servers": [{"url": "{scheme}://api.example.com/{base}", "variables": {**scheme, "base": {"default": "v1"}}}],
        "paths": {
            "/a": {
                "servers": [{"url": "https://a.example.com", "description": "kept"}],
                "get": {"servers": [{"url": "{scheme}://b.example.com", "variables": scheme}], "responses": {}},
                "parameters": [],
            }
        },
    }
    out = module._server_variables_filled(spec)
    assert out["servers"] == [{"url": "https://api.example.com/v1"}]
    assert out["paths"]["/a"]["servers"] == [{"url": "https://a.example.com", "description": "kept"}]
    assert out["paths"]["/a"]["get"]["servers"] == [{"url": "https://b.example.com"}]
    assert "variables" in spec["servers"][0]  # the input is not changed
