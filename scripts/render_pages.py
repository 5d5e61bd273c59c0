"""Build the crawl benchmark: HTML documentation pages rendered from real specs by real renderers.

Each spec listed in benchmarks/crawl/specs.tsv (paths relative to the shared data folder) is
rendered by documentation renderers, the npm ones pinned in
benchmarks/crawl/renderers/package.json, the Python ones in requirements-*.txt beside it:

- `widdershins`: widdershins 4.0.1 (OpenAPI → Slate-style Markdown with cURL/HTTP/Python samples,
  parameter and response-schema tables), turned into HTML by marked 18.2.1;
- `redoc`: redoc-cli 0.13.21 (`redoc-cli build`, server-side rendered ReDoc 2 page);
- `sphinx`: Sphinx 9.0.4 with sphinxcontrib-openapi 0.10.0 (its `httpdomain` renderer: each
  operation a definition list, fields as "name (type, required) – description" list items under
  "Query Parameters", "Request JSON Object", "Response JSON Object", "Status Codes"). Added as the
  held-out renderer: its pages were measured before any rule looked at them;
- `openapi-to-md`: openapi-to-md 1.1.1 (Markdown: "### [GET]/pets" headings, "- Description"
  items, parameters, bodies and responses as TypeScript-like declarations in code blocks),
  turned into HTML by marked 18.2.1. Added after the Sphinx fixes as a second held-out renderer.

Three more are JavaScript single-page renderers, the kind most API sites embed. Each is loaded from
node_modules into a small local harness page (the spec inlined as a JS object, so nothing is
fetched), run by headless Chromium (Debian's `chromium`; no network, throwaway profile) and the
rendered DOM dumped with `--dump-dom`:

- `swagger-ui`: swagger-ui-dist 5.35.0 with `docExpansion: "full"` (every operation expanded, so
  its parameters and responses are in the DOM; the default, "list", keeps them out until clicked)
  and `validatorUrl: null` (no badge fetched from the online validator); otherwise defaults;
- `scalar`: @scalar/api-reference 1.72.1 (`Scalar.createApiReference`, defaults, telemetry off).
  It renders sections lazily as they scroll into view, so the window is 60,000 px tall;
- `rapidoc`: rapidoc 9.3.8 (`render-style="read"`: one long page with every operation open;
  `default-schema-tab="schema"`: bodies drawn as schema trees, stated types, not examples). It
  draws inside shadow roots, which `--dump-dom` leaves out, so the harness inlines them first
  (`renderers/harness/flatten-shadow.js`).

Two more build static pages without a browser, added in issue 17 as fresh held-out renderers (their
pages were measured once, before any rule changed, and only then read):

- `bootprint`: bootprint 4.0.4 + bootprint-openapi 4.0.4 (Handlebars templates; Swagger 2.0 only, so
  OpenAPI 3 specs are converted first by api-spec-converter 2.12.0);
- `openapi-generator`: openapi-generator 7.26.0's `html2` generator (the jar that PyPI's
  openapi-generator-cli ships; needs Java), pinned in requirements-openapi-generator.txt.

Two more from the same pinned jar joined later in issue 17, again as fresh held-out renderers
(measured once with the rules untouched, before their pages were read):

- `openapi-generator-html`: the older `html` generator (one Mustache template: a page of its own,
  unlike html2's);
- `asciidoc`: the `asciidoc` generator's index.adoc turned into HTML by Asciidoctor.js 4.1.0 (npm
  `asciidoctor`, pinned in package.json), as a site built with AsciiDoc would publish it.

Two more joined in issue 17's third round, again fresh and held out (measured once with the rules
untouched, before their pages were read):

- `mkdocs`: MkDocs 1.6.1 (default theme) with the neoteroi-mkdocs 1.2.0 OpenAPI plugin
  (`[OAD(spec.json)]` in a Markdown page), pinned in requirements-mkdocs.txt;
- `openapi-generator-markdown`: the same pinned jar's `markdown` generator, its files joined into
  one page and turned into HTML by marked.

One more joined in issue 17's fifth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `spectacle`: spectacle-docs 1.1.0 (Handlebars templates over Foundation; its HTML only, `-C -J`),
  Swagger 2.0 only, so OpenAPI 3 specs go through api-spec-converter first, as for bootprint;
  package.json pins three of its loosely declared dependencies by `overrides` (see render_spectacle).

One more joined in issue 17's sixth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `openapi2html`: openapi2html 2.0.1 (React components rendered to static markup: Bootstrap cards,
  fields as headings), Swagger 2.0 only, so OpenAPI 3 specs go through api-spec-converter first; pinned
  in a tree of its own, renderers/openapi2html (see render_openapi2html).

One more joined in issue 17's seventh round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `aglio`: aglio 2.3.0 (an API Blueprint renderer, its default olio theme) over the API Blueprint that
  Apiary's API Elements CLI 0.10.4 writes from Swagger 2.0 (OpenAPI 3 specs through api-spec-converter
  first); pinned in a tree of its own, renderers/aglio (see render_aglio). The parser refuses a whole
  spec on one schema slip the other renderers pass over, so it reads a mended copy (`_schema_valid`,
  `_swagger_2_valid`: nothing an operation documents is dropped).

One more joined in issue 17's eighth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `starlight`: Astro 5.18.2's Starlight 0.37.7 docs theme with the starlight-openapi 0.22.0 plugin (a
  static docs site: an overview page and one page per operation, joined into one page here); pinned in a
  tree of its own, renderers/starlight (see render_starlight). The last line of them that runs on Node 20.

One more joined in issue 17's ninth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `docusaurus`: Docusaurus 3.5.2 (classic preset) with docusaurus-plugin-openapi-docs 4.1.0 and its theme
  (one MDX page per operation, rendered to static pages at build time; one site for all 38 specs, each
  spec's pages joined into one benchmark page); pinned in a tree of its own, renderers/docusaurus (see
  render_docusaurus). 4.1.0 is the last version whose parameter and schema components render at build
  time: from 4.2.0 they are client-only, so a static page shows loading skeletons where they stand.

One more joined in issue 17's tenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `vitepress`: VitePress 1.6.4 (Vue's static-site generator: pages rendered by Vue on the server at build
  time, no browser) with the vitepress-openapi 0.2.1 theme (an `<OASpec :spec>` component on a page; one
  site for all 38 specs, a page each); pinned in a tree of its own, renderers/vitepress, with
  api-spec-converter 2.12.0 (vitepress-openapi reads OpenAPI 3 only; see render_vitepress).

One more joined in issue 17's eleventh round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `raml2html`: raml2html 7.8.0 (its default theme: Nunjucks templates over Bootstrap, a static page) over
  the RAML 1.0 that MuleSoft's oas-raml-converter 1.1.43 writes from Swagger 2.0 (OpenAPI 3 specs through
  api-spec-converter 2.12.0 first, mended as for aglio); a description language of its own, as API
  Blueprint is aglio's; pinned in a tree of its own, renderers/raml2html (see render_raml2html).

One more joined in issue 17's twelfth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `zudoku`: Zudoku 0.76.0 (Zuplo's open-source API documentation framework: React pages built by Vite
  and prerendered to static HTML at build time, no browser; per API an overview, a page per tag and a
  schemas page, joined into one benchmark page); one site for all 38 specs; pinned in a tree of its
  own, renderers/zudoku (see render_zudoku).

One more joined in issue 17's thirteenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `elements`: Stoplight Elements 9.0.25 (its `<elements-api>` web component, React, in headless Chromium as
  the three above) in its default sidebar layout, which draws one page at a time (the overview, an
  operation, a schema) as its sidebar routes: the harness opens every tag group of the sidebar, visits each
  link in order and joins what the content pane drew into one page; pinned in a tree of its own,
  renderers/elements (see render_elements).

One more joined in issue 17's fourteenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `fumadocs`: Fumadocs (fumadocs-ui and fumadocs-core 16.15.13 on Next.js 16.4.6, React 19.2.5) with
  fumadocs-openapi 11.4.3, a docs site statically exported (React rendered on the server at build time, no
  browser); a page per spec (`per: "file"`); one site for all 38 specs; React's streamed parts put where its
  inline script puts them; pinned in a tree of its own, renderers/fumadocs (see render_fumadocs).

One more joined in issue 17's fifteenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `kong`: Kong's spec renderer, @kong/spec-renderer 1.107.15 (its `<kong-spec-renderer>` web component, Vue,
  the renderer of Kong's developer portals), in headless Chromium as the four above, with its defaults: every
  operation and schema on one long page, each section drawn as it scrolls into view, so the harness scrolls
  each into view until none waits; pinned in a tree of its own, renderers/kong (see render_kong).

One more joined in issue 17's sixteenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read), unrelated to the others:

- `diplodoc`: Diplodoc, @diplodoc/cli 5.3.2 (Yandex's docs-as-code platform) with the OpenAPI includer it
  bundles, as a documentation set includes a spec (`toc.yaml`, the `openapi` includer); `yfm build` writes a
  static site (a leading page and a page per operation) whose React client draws each page from data in the
  built HTML, so each page is loaded in headless Chromium and its `main` kept, the pages joined in the order
  the navigation lists them; Swagger 2.0 specs through api-spec-converter 2.12.0 first (the includer reads
  OpenAPI 3 only), and the spec mended where the includer's validation refuses it (`_openapi_3_valid`);
  pinned in a tree of its own, renderers/diplodoc (see render_diplodoc).

One more joined in issue 17's seventeenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `owl-api`: MkDocs 1.6.1 (its default theme) with TechDocs Owl's mkdocs-owl-api 0.3.0 plugin, which renders
  the spec into the page at build time from its own templates (a page whose front matter names the spec);
  its one setting, `hide_download_link`, drops the link to the resolved spec it publishes beside the page;
  Swagger 2.0 specs through api-spec-converter 2.12.0 first (the plugin reads OpenAPI 3 only), no spec
  mended; pinned in requirements.txt and package.json in renderers/owl-api (see render_owl_api).

One more joined in issue 17's eighteenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `scalar-markdown`: Scalar's openapi-to-markdown 1.3.0 (npm; Markdown "for LLMs": metadata and servers as
  lists of bold labels, each operation a heading, its parameters, body and responses as nested lists of
  fields) built into a static page by Eleventy 3.1.8 with its default Markdown engine (markdown-it), in a
  layout that holds only the title and the content; Swagger 2 and OpenAPI 3 read alike, the spec less its
  `x-` extensions (Spotify's refers to a missing file); pinned in renderers/scalar-markdown (see
  render_scalar_markdown).

One more joined in issue 17's nineteenth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `flexdoc`: Prauga FlexDoc's standalone OpenAPI renderer (React, its bundle as the PyPI package
  prauga-flexdoc 0.9.0 ships it for its ASGI/WSGI hosts) in headless Chromium, mounted as the package's own
  bootstrap page mounts it but with the spec inline and `expand: "all"` (every section of an operation open,
  a render setting like Swagger UI's `docExpansion`); it draws one view at a time, the overview or an
  operation, as its sidebar's buttons choose, so the harness clicks each operation's button in the
  sidebar's order and joins the views into one page; the spec less its `x-` extensions (Spotify's refers
  to a missing file); pinned in renderers/flexdoc/requirements.txt (see render_flexdoc).

One more joined in issue 17's twentieth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `nadoc`: Nadoc 0.1.2 (PyPI; "deterministic static documentation for OpenAPI": its own Jinja templates rendered
  to one static page at build time, no browser), defaults but `--no-emit-spec` (no copy of the spec beside the
  page) and `--no-strict` (a schema keyword it does not draw is left out rather than the spec refused); Swagger
  2.0 specs through api-spec-converter 2.12.0 first (it reads OpenAPI 3 only), the spec less its `x-`
  extensions (Spotify's refers to a missing file); pinned in renderers/nadoc (requirements.txt, package.json and
  its lock; see render_nadoc).

One more joined in issue 17's twenty-first round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `openapi3-generator`: openapi3-generator 0.13.0 (npm, Fran Méndez's `og`: Handlebars templates of its own;
  its `markdown` template, parameters and schemas as HTML tables, a cURL sample per operation), turned into
  HTML by marked 18.2.1; Swagger 2.0 specs through api-spec-converter 2.12.0 first (it reads OpenAPI 3.0
  only), the spec mended where its validator (oas-validator) refuses it; pinned in renderers/openapi3-generator
  (package.json and its lock; see render_openapi3_generator).

One more joined in issue 17's twenty-second round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `pretty-swag`: pretty-swag 0.2.4 (npm, twskj's "document generator for Swagger": one HTML file, its Vue 2
  client and Materialize inlined, `-f singleFile`), its page drawn by that client in headless Chromium (no
  network) and the DOM dumped; defaults but `-noDate` (the footer stamps the build time otherwise). Swagger 2.0 only,
  so OpenAPI 3 specs go through api-spec-converter 2.12.0 first; pinned in renderers/pretty-swag (package.json
  and its lock; see render_pretty_swag).

One more joined in issue 17's twenty-third round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `openapi-to-asciidoc`: openapi-to-asciidoc 0.1.6 (PyPI, Luftfartsverket's Jinja templates of AsciiDoc, one per
  OpenAPI object), its command `o2a` with its defaults, the AsciiDoc turned into HTML by Asciidoctor.js 4.1.0
  (`reproducible`: no build time in the footer); OpenAPI 3 only, so Swagger 2.0 specs go through
  api-spec-converter 2.12.0 first; pinned in renderers/openapi-to-asciidoc (requirements.txt for a venv
  renderers/.venv-openapi-to-asciidoc, package.json and its lock; see render_openapi_to_asciidoc).

One more joined in issue 17's twenty-eighth round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `openapi-markdown`: openapi-markdown 0.4.3 (PyPI, vrerv's Jinja templates of Markdown), its command
  `openapi2markdown` with its defaults, the Markdown turned into HTML by marked 18.2.1; OpenAPI 3 only, so Swagger
  2.0 specs go through api-spec-converter 2.12.0 first; pinned in renderers/openapi-markdown (requirements.txt for
  a venv renderers/.venv-openapi-markdown, package.json and its lock; see render_openapi_markdown).

- `swagger-render`: swagger-render 1.6.0 (PyPI, Juhani Imberg's one static HTML page from Jinja templates of its
  own), its command with its defaults, the build time its footer stamps fixed; Swagger 2.0 only, so OpenAPI 3
  specs go through api-spec-converter 2.12.0 first; pinned in renderers/swagger-render (requirements.txt for a
  venv renderers/.venv-swagger-render, package.json and its lock; see render_swagger_render).

One more joined in issue 17's thirty-fourth round, again fresh and held out (measured once with the rules
untouched, its pages never read):

- `swagger-markdown`: swagger-markdown 3.0.0 (npm, syroegkin's CLI: its own TypeScript transformers write the
  Markdown of a Swagger 2.0 or OpenAPI 3.0 document), defaults, the Markdown turned into HTML by marked 18.2.1; an
  OpenAPI 3 spec that names no component schemas goes through api-spec-converter 2.12.0 (openapi_3 → swagger_2)
  first, and every spec is mended where it crashes (`_swagger_markdown_readable`); pinned in
  renderers/swagger-markdown (package.json and its lock; see render_swagger_markdown). Tried in an earlier
  round without those mends, it crashed on 25 of the 38 specs while exiting 0.
One more joined in issue 17's thirty-second round, again fresh and held out (measured once with the rules
untouched, before its pages were read):

- `postman-to-markdown`: postman-to-markdown 1.6.0 (npm, a Postman collection's requests as Markdown), its command
  with its defaults, over the Postman collection that openapi-to-postmanv2 6.3.3 (Postman's converter, defaults,
  its schema faker's `Math.random` seeded) writes from the spec, the Markdown turned into HTML by marked 18.2.1;
  pinned in renderers/postman-to-markdown (package.json and its lock; see render_postman_to_markdown).

One more joined in issue 17's thirty-seventh round, again fresh and held out (measured once with the rules
untouched, its pages never read):

- `oas3-mdx`: oas3-mdx 0.4.7 (npm `@synx-ai/oas3-mdx`: its own Handlebars template, one Markdown file per operation
  for a static site generator, bodies and responses drawn as generated examples, a cURL sample), its command with
  its defaults, the files joined in the spec's order without their front matter and turned into HTML by marked
  18.2.1; OpenAPI 3 only, so Swagger 2.0 specs go through api-spec-converter 2.12.0 first, mended as for
  openapi3-generator (the same validator) and with each server's variables filled in; pinned in renderers/oas3-mdx
  (package.json and its lock; see render_oas3_mdx).

From the dumped pages, scripts (the harness holds the spec: the answer), styles, inline SVG icons,
links back into the harness and every attribute but href, id, colspan, rowspan are dropped
(classes and framework attributes were half the bytes, and rules never read them); runs of whitespace
outside `pre` become one space (template indentation was nine tenths of bootprint's bytes).
@stoplight/elements 9.0.25 was tried first in its stacked layout: offline, that dumped only the overview
(no operation); its sidebar layout, visited link by link, is the `elements` renderer above.

The source spec is copied to benchmarks/crawl/truth/ID.(json|yaml) as the ground truth.
ReDoc pages carry the whole spec in an inline `__redoc_state` script plus a 1 MB JS bundle;
both are dropped, since a crawler reads what a reader sees (and the embedded spec would be the
answer). Rendering is deterministic: same specs and renderer versions, same pages.

    cd benchmarks/crawl/renderers && npm ci --ignore-scripts   # once (node + npm; offline afterwards)
    cd benchmarks/crawl/renderers/openapi2html && npm ci --ignore-scripts   # once, its own tree
    cd benchmarks/crawl/renderers/starlight && npm ci --ignore-scripts      # once, its own tree (and aglio's,
                                                                            # docusaurus', vitepress',
                                                                            # raml2html', zudoku',
                                                                            # elements', fumadocs', kong',
                                                                            # diplodoc', owl-api',
                                                                            # scalar-markdown',
                                                                            # nadoc',
                                                                            # openapi3-generator',
                                                                            # pretty-swag',
                                                                            # openapi-to-asciidoc',
                                                                            # postman-to-markdown')
    python3 -m venv benchmarks/crawl/renderers/.venv    # once, for Sphinx (kept out of the project's venv)
    benchmarks/crawl/renderers/.venv/bin/pip install -r benchmarks/crawl/renderers/requirements-sphinx.txt
    apt-get install chromium                            # for swagger-ui, scalar, rapidoc, elements, kong,
                                                        # diplodoc, pretty-swag
    python3 -m venv benchmarks/crawl/renderers/.venv-openapi-generator   # once, then pip install -r
        # benchmarks/crawl/renderers/requirements-openapi-generator.txt (and a Java runtime)
    python3 -m venv benchmarks/crawl/renderers/.venv-mkdocs    # once, then pip install -r
        # benchmarks/crawl/renderers/requirements-mkdocs.txt
    python3 -m venv benchmarks/crawl/renderers/.venv-owl-api    # once, then pip install -r
        # benchmarks/crawl/renderers/owl-api/requirements.txt
    python3 -m venv benchmarks/crawl/renderers/.venv-flexdoc    # once, then pip install -r
        # benchmarks/crawl/renderers/flexdoc/requirements.txt (and Debian's chromium)
    python3 -m venv benchmarks/crawl/renderers/.venv-nadoc    # once, then pip install -r
        # benchmarks/crawl/renderers/nadoc/requirements.txt (and npm ci in renderers/nadoc)
    python3 -m venv benchmarks/crawl/renderers/.venv-openapi-to-asciidoc    # once, then pip install -r
        # benchmarks/crawl/renderers/openapi-to-asciidoc/requirements.txt (and npm ci in its folder)
    python3 -m venv benchmarks/crawl/renderers/.venv-openapi-markdown    # once, then pip install -r
        # benchmarks/crawl/renderers/openapi-markdown/requirements.txt (and npm ci in its folder)
    python scripts/render_pages.py --data ../shared/data
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from functools import partial
from html import escape as html_escape
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote, urljoin

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "crawl"
RENDERERS = BENCH / "renderers"
BIN = RENDERERS / "node_modules" / ".bin"
SPHINX_BUILD = RENDERERS / ".venv" / "bin" / "sphinx-build"
OPENAPI_GENERATOR = RENDERERS / ".venv-openapi-generator" / "bin" / "openapi-generator-cli"
MKDOCS = RENDERERS / ".venv-mkdocs" / "bin" / "mkdocs"
MODULES = RENDERERS / "node_modules"
HARNESS = RENDERERS / "harness"
OPENAPI2HTML = RENDERERS / "openapi2html"
AGLIO = RENDERERS / "aglio"
STARLIGHT = RENDERERS / "starlight"
DOCUSAURUS = RENDERERS / "docusaurus"
VITEPRESS = RENDERERS / "vitepress"
RAML2HTML = RENDERERS / "raml2html"
ZUDOKU = RENDERERS / "zudoku"
ELEMENTS = RENDERERS / "elements"
FUMADOCS = RENDERERS / "fumadocs"
KONG = RENDERERS / "kong"
DIPLODOC = RENDERERS / "diplodoc"
OWL_API = RENDERERS / "owl-api"
OWL_API_MKDOCS = RENDERERS / ".venv-owl-api" / "bin" / "mkdocs"
SCALAR_MARKDOWN = RENDERERS / "scalar-markdown"
FLEXDOC_VENV = RENDERERS / ".venv-flexdoc"
NADOC = RENDERERS / "nadoc"
NADOC_BIN = RENDERERS / ".venv-nadoc" / "bin" / "nadoc"
OPENAPI3_GENERATOR = RENDERERS / "openapi3-generator"
PRETTY_SWAG = RENDERERS / "pretty-swag"
OPENAPI_TO_ASCIIDOC = RENDERERS / "openapi-to-asciidoc"
OPENAPI_TO_ASCIIDOC_BIN = RENDERERS / ".venv-openapi-to-asciidoc" / "bin" / "o2a"
SWAGGER2RST = RENDERERS / "swagger2rst"
SWAGGER2RST_VENV = RENDERERS / ".venv-swagger2rst"
OPENAPI_MARKDOWN = RENDERERS / "openapi-markdown"
OPENAPI_MARKDOWN_BIN = RENDERERS / ".venv-openapi-markdown" / "bin" / "openapi2markdown"
SWAGGER_RENDER = RENDERERS / "swagger-render"
SWAGGER_RENDER_VENV = RENDERERS / ".venv-swagger-render"
SWAGGER_MARKDOWN = RENDERERS / "swagger-markdown"
POSTMAN_TO_MARKDOWN = RENDERERS / "postman-to-markdown"
OAS3_MDX = RENDERERS / "oas3-mdx"
CHROMIUM_TIMEOUT_S = 600

_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S | re.I)
_KEPT_ATTRIBUTES = {"href", "id", "colspan", "rowspan", "lang", "charset"}
_WHITESPACE = re.compile(r"\s+")
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)
_HARNESS_HEAD = '<!DOCTYPE html><html><head><meta charset="utf-8"><title>{title}</title></head>\n<body>'
_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{title}</title></head>
<body>
{body}
</body></html>
"""


def read_specs(path: Path) -> list[tuple[str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line.strip():
            spec_id, source = line.split("\t")
            rows.append((spec_id, source))
    return rows


def render_widdershins(spec: Path, out: Path, work: Path) -> None:
    markdown = work / "page.md"
    subprocess.run(
        [
            str(BIN / "widdershins"),
            str(spec),
            "-o",
            str(markdown),
            "--language_tabs",
            "shell:Shell",
            "http:HTTP",
            "python:Python",
        ],
        check=True,
        capture_output=True,
    )
    text = _FRONT_MATTER.sub("", markdown.read_text(encoding="utf-8"))
    markdown.write_text(text, encoding="utf-8")
    title = re.search(r"<h1[^>]*>(.*?)</h1>", text)
    _markdown_page(markdown, title.group(1) if title else spec.stem, out, work)


def _markdown_page(markdown: Path, title: str, out: Path, work: Path, marked: Path = BIN / "marked") -> None:
    """Markdown → HTML by marked (GitHub flavour), wrapped in a minimal page."""
    html = work / "page.html"
    subprocess.run(
        [str(marked), "--gfm", "-i", str(markdown), "-o", str(html)], check=True, capture_output=True
    )
    out.write_text(_PAGE.format(title=title, body=html.read_text(encoding="utf-8")), encoding="utf-8")


def render_openapi_to_md(spec: Path, out: Path, work: Path) -> None:
    """openapi-to-md's Markdown ("### [GET]/pets", fields as TypeScript declarations) through marked."""
    markdown = work / "page.md"
    source = work / "spec.json"  # the same cleaned input as Sphinx's: it crashes on Spotify's `x-` refs too
    source.write_text(json.dumps(_renderable(_read_spec(spec))), encoding="utf-8")
    subprocess.run([str(BIN / "openapi-to-md"), str(source), str(markdown)], check=True, capture_output=True)
    title = re.search(r"^# (.+)$", markdown.read_text(encoding="utf-8"), re.M)
    _markdown_page(markdown, title.group(1) if title else spec.stem, out, work)


def render_redoc(spec: Path, out: Path, work: Path) -> None:
    html = work / "redoc.html"
    subprocess.run(
        [str(BIN / "redoc-cli"), "build", str(spec), "-o", str(html)], check=True, capture_output=True
    )
    out.write_text(_SCRIPT.sub("", html.read_text(encoding="utf-8")), encoding="utf-8")


def render_swagger_ui(spec: Path, out: Path, work: Path) -> None:
    """Swagger UI with every operation expanded (`docExpansion: "full"`)."""
    dist = MODULES / "swagger-ui-dist"
    harness = _harness(f"""<div id="swagger-ui"></div><script src="{(dist / "swagger-ui-bundle.js").as_uri()}"></script>
<script>SwaggerUIBundle({{spec: {{spec}}, dom_id: "#swagger-ui", docExpansion: "full",
  validatorUrl: null, deepLinking: false}});</script>""")
    _render_in_chromium(spec, harness, out, work)


def render_scalar(spec: Path, out: Path, work: Path) -> None:
    """Scalar API reference with `defaultOpenAllTags: true` (a render setting, like Swagger UI's
    `docExpansion: "full"`: by default it opens only the first tag group, the others list their
    operations without sections); otherwise defaults. It renders sections lazily as they come into
    view, so the window is 60,000 px tall and the harness keeps scrolling for the whole time budget
    (a page that grows after the first pass gets scrolled too)."""
    bundle = MODULES / "@scalar" / "api-reference" / "dist" / "browser" / "standalone.js"
    harness = _harness(f"""<div id="app"></div><script src="{bundle.as_uri()}"></script>
<script>Scalar.createApiReference("#app", {{content: {{spec}}, withDefaultFonts: false,
  telemetry: false, defaultOpenAllTags: true}});
// Sections render as they scroll into view: scroll down, and from the top again at the bottom.
setInterval(() => {{
  if (window.scrollY + window.innerHeight >= document.body.scrollHeight) window.scrollTo(0, 0);
  else window.scrollBy(0, 1500);
}}, 40);</script>""")
    _render_in_chromium(spec, harness, out, work, window_height=60_000, budget_ms=60_000)


def render_rapidoc(spec: Path, out: Path, work: Path) -> None:
    """RapiDoc in its one-page "read" style with `default-schema-tab="schema"` (a render setting, like
    Swagger UI's `docExpansion`: request bodies and responses drawn as schema trees, stated types
    and every field, where the default tab shows only the example); its shadow roots inlined before
    the dump."""
    bundle = MODULES / "rapidoc" / "dist" / "rapidoc-min.js"
    flatten = (HARNESS / "flatten-shadow.js").read_text(encoding="utf-8")
    harness = _harness(f"""<rapi-doc id="docs" render-style="read" default-schema-tab="schema" show-header="false"
  allow-try="false" allow-spec-url-load="false" allow-spec-file-load="false"></rapi-doc>
<script>{flatten}</script><script src="{bundle.as_uri()}"></script>
<script>customElements.whenDefined("rapi-doc")
  .then(() => document.getElementById("docs").loadSpec({{spec}}))
  .then(() => setTimeout(() => {{
    const docs = document.getElementById("docs");
    const page = document.createElement("div");
    page.innerHTML = flattenShadow(docs);
    docs.replaceWith(page);
  }}, 5000));</script>""")
    _render_in_chromium(spec, harness, out, work)


def render_elements(spec: Path, out: Path, work: Path) -> None:
    """Stoplight Elements 9.0.25 (its `<elements-api>` web component) in its default sidebar layout with
    the hash router, otherwise defaults (the "Send API Request" panel and request samples shown). It draws
    one page at a time, the overview, an operation or a schema, as the sidebar's links route, and keeps a
    tag's links behind a collapsed group; so the harness opens every group, visits each link in the
    sidebar's order and joins what the content pane drew for each into one page (the sidebar itself is
    site chrome). Its stacked layout, tried in an earlier round, dumped only the overview. Added in issue
    17's thirteenth round as a fresh held-out renderer; pinned in a tree of its own, renderers/elements."""
    bundle = ELEMENTS / "node_modules" / "@stoplight" / "elements" / "web-components.min.js"
    harness = _harness(f"""<elements-api id="docs" router="hash" layout="sidebar"></elements-api>
<script src="{bundle.as_uri()}"></script>
<script>document.getElementById("docs").apiDescriptionDocument = {{spec}};
const wait = ms => new Promise(done => setTimeout(done, ms));
const api = () => document.querySelector(".sl-elements-api");  // looked up anew: a route may redraw it
async function sidebarLinks() {{
  // a tag's operations sit behind a collapsed group (a chevron): open each, nested ones too
  for (let round = 0; round < 20; round++) {{
    const closed = [...api().children[0].querySelectorAll('[data-icon="chevron-right"]')]
      .map(icon => icon.closest("[title]")).filter(group => group && !group.closest("a"));
    if (!closed.length) break;
    closed.forEach(group => group.click());
    await wait(500);
  }}
  return [...api().children[0].querySelectorAll('a[href^="#/"]')];
}}
async function visitAll() {{
  await wait(2000);
  const routes = [...new Set((await sidebarLinks()).map(a => a.getAttribute("href")))];
  const parts = [];
  for (const route of routes) {{
    // clicked as a reader does
    const link = (await sidebarLinks()).find(a => a.getAttribute("href") === route);
    if (!link) continue;
    link.click();
    await wait(1500);
    // a route it cannot draw falls back to the overview (an operationId with spaces): a reader sees no page
    if (decodeURIComponent(location.hash) !== route) continue;
    parts.push("<div>" + api().children[1].innerHTML + "</div>");
  }}
  const page = document.createElement("div");
  page.innerHTML = parts.join("\\n");
  // the request form's text boxes get random ids on every render ("id_comicId_p6GpWt2Y"): dropped
  page.querySelectorAll("input[id], select[id], textarea[id]").forEach(box => box.removeAttribute("id"));
  document.getElementById("docs").replaceWith(page);
}}
visitAll();</script>""")
    routable = work / "spec.json"
    routable.write_text(json.dumps(_operation_ids_routable(_read_spec(spec))), encoding="utf-8")
    _render_in_chromium(routable, harness, out, work, budget_ms=900_000)


def render_kong(spec: Path, out: Path, work: Path) -> None:
    """Kong's spec renderer, @kong/spec-renderer 1.107.15 (its `<kong-spec-renderer>` web component, Vue,
    the renderer of Kong's developer portals), with its defaults: content scrolling on (every operation and
    schema on one long page, as its table of contents links them), the "Try it" panel and request samples
    shown, nested properties open one level deep. Its UMD bundle carries Vue and the rest; it draws in the
    light DOM or in shadow roots, which the harness inlines before the dump. Added in issue 17's fifteenth
    round as a fresh held-out renderer; pinned in a tree of its own, renderers/kong."""
    bundle = KONG / "node_modules" / "@kong" / "spec-renderer" / "dist" / "kong-spec-renderer.web-component.umd.js"
    flatten = (HARNESS / "flatten-shadow.js").read_text(encoding="utf-8")
    harness = _harness(f"""<div id="docs"></div>
<script>{flatten}</script><script src="{bundle.as_uri()}"></script>
<script>KongSpecRenderer.registerKongSpecRenderer();
const docs = document.createElement("kong-spec-renderer");
docs.setAttribute("navigation-type", "hash");
docs.spec = JSON.stringify({{spec}});
document.getElementById("docs").replaceWith(docs);
const wait = ms => new Promise(done => setTimeout(done, ms));
// In its content-scrolling mode a section is drawn once it scrolls into the window (a placeholder before),
// and stays drawn: bring each section into view as a reader scrolling down does, until none waits. Headless
// Chromium's virtual time delivers no scroll event for a scroll made by a script, so the harness sends one.
const sections = () => [...(docs.shadowRoot || docs).querySelectorAll(".nodes-wrapper > div")];
const waiting = section => section.querySelector(".placeholder");
async function scrollAll() {{
  await wait(3000);
  for (let round = 0; round < 5 && sections().some(waiting); round++) {{
    for (const section of sections()) {{
      if (!waiting(section)) continue;
      section.scrollIntoView();
      await wait(100);
      window.dispatchEvent(new Event("scroll"));
      await wait(1000);
    }}
  }}
  if (!sections().length || sections().some(waiting)) {{
    docs.replaceWith(document.createElement("div"));  // never finished: an empty page, which the checks catch
    return;
  }}
  const page = document.createElement("div");
  page.innerHTML = flattenShadow(docs);
  docs.replaceWith(page);
}}
scrollAll();</script>""")
    _render_in_chromium(spec, harness, out, work, budget_ms=900_000)


_RANDOM_ID = re.compile(r"[0-9a-f]+\.[0-9a-f]+")  # Math.random().toString(16) less its "0."
_DIPLODOC_TOC = """title: {title}
items:
  - name: {title}
    include:
      path: api
      includers:
        - name: openapi
          input: spec.json
          leadingPage:
            spec:
              renderMode: hidden
"""


def render_diplodoc(spec: Path, out: Path, work: Path) -> None:
    """Diplodoc, @diplodoc/cli 5.3.2 (Yandex's docs-as-code platform; the newest here that runs on Node 20),
    with its OpenAPI includer (bundled in the cli), as its documentation sets one up: a `toc.yaml` whose item
    includes the spec through the `openapi` includer, defaults otherwise but one: the leading page's copy of
    the whole spec (by default a collapsed "Open API" block of its JSON under "Specification": the answer, as
    ReDoc's `__redoc_state`) is not drawn (`leadingPage.spec.renderMode: hidden`, the includer's documented
    setting; since the round's first contact, which found no operation either way). `yfm build` writes a static site, a
    leading page and a page per operation, whose content the site's React client draws in the browser (the
    built HTML holds it as data), so each page is loaded in headless Chromium and its `main` kept (the
    navigation and the page's own table of contents are site chrome); the pages are joined in the order the
    site's navigation lists them. Added in issue 17's sixteenth round as a fresh held-out renderer; pinned in a
    tree of its own, renderers/diplodoc."""
    import lxml.html

    data = _read_spec(spec)
    title = _spec_title(data, spec)
    # the includer reads OpenAPI 3 only
    converted = _openapi_3(spec, data, DIPLODOC / "node_modules" / ".bin" / "api-spec-converter", CHROMIUM_TIMEOUT_S)
    source = work / "source"
    source.mkdir()
    (source / "spec.json").write_text(json.dumps(_openapi_3_valid(converted)), encoding="utf-8")
    (source / "toc.yaml").write_text(_DIPLODOC_TOC.format(title=json.dumps(title)), encoding="utf-8")
    site = work / "site"
    subprocess.run(
        [str(DIPLODOC / "node_modules" / ".bin" / "yfm"), "build", "-i", str(source), "-o", str(site), "--quiet"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    # the navigation, as the site's client reads it: `window.__DATA__.data.toc = {...};`
    toc = json.loads((site / "toc.js").read_text(encoding="utf-8").split("=", 1)[1].strip().rstrip(";"))
    hrefs: list[str] = []

    def visit(item: dict) -> None:
        href = item.get("href")
        if href and not re.match(r"[a-z]+:", href) and href not in hrefs:
            hrefs.append(href)
        for child in item.get("items") or []:
            visit(child)

    visit(toc)
    pages = [site / href for href in hrefs if (site / href).is_file()]
    pages += sorted(set(site.rglob("*.html")) - set(pages))
    if not pages:
        raise subprocess.CalledProcessError(1, "yfm build", b"", b"no page built")
    parts = []
    for number, page in enumerate(pages):
        root = lxml.html.document_fromstring(_chromium_dom(page.as_uri(), work / f"profile-{number}"))
        main = root.find(".//main")
        if main is None or not main.text_content().strip():
            raise subprocess.CalledProcessError(1, "chromium", b"", f"{page.name}: nothing drawn".encode())
        for anchor in main.xpath(".//*[@id]"):  # a popup's anchor gets a random id on every draw ("194d007.cd601d3")
            if _RANDOM_ID.fullmatch(anchor.get("id")):
                del anchor.attrib["id"]
        parts.append(lxml.html.tostring(main, encoding="unicode"))
    dom = _PAGE.format(title=html_escape(title), body="\n".join(parts))
    out.write_text(strip_page(dom, work), encoding="utf-8")


_OPENAPI_3_INFO_KEYS = {"title", "summary", "description", "termsOfService", "contact", "license", "version"}


def _openapi_3_valid(data: dict) -> dict:
    """An OpenAPI 3 document mended where its schema refuses it, since Diplodoc's includer validates the
    spec (swagger-parser) and refuses the whole file on one slip the other renderers pass over: `x-`
    extensions go (Spotify's point at a file that is not there), and so do what `_schema_valid` mends for
    aglio (TMDB's `cache`, quoted booleans and numbers), a quoted `explode` ("false", Spotify's), `info`
    keys OpenAPI 3 does not have (NYTimes' `logo`, which the converter carries); an HTTP auth scheme is
    written in lower case (tictactoe's "Bearer": the schema of OpenAPI 3.1 allows a `bearerFormat` only
    beside "bearer"; the scheme's name is case-insensitive); and a media type with an example but no
    schema gets an empty one (SOCBench-D's bodies: the includer crashes on it). Nothing an operation
    documents is dropped."""
    data = _unquoted(_schema_valid(_without_extensions(data)), {"explode"})
    info = data.get("info") or {}
    data["info"] = {k: v for k, v in info.items() if k in _OPENAPI_3_INFO_KEYS}
    for scheme in ((data.get("components") or {}).get("securitySchemes") or {}).values():
        if isinstance(scheme, dict) and scheme.get("type") == "http" and isinstance(scheme.get("scheme"), str):
            scheme["scheme"] = scheme["scheme"].lower()

    components = data.get("components") or {}
    bodies = [*(components.get("requestBodies") or {}).values(), *(components.get("responses") or {}).values()]
    for item in (data.get("paths") or {}).values():
        for key, operation in (item or {}).items():
            if key in _ITEM_KEYS and isinstance(operation, dict):
                bodies += [operation.get("requestBody"), *(operation.get("responses") or {}).values()]
    for body in bodies:
        for media in ((body.get("content") if isinstance(body, dict) else None) or {}).values():
            if isinstance(media, dict):
                media.setdefault("schema", {})
    return data


def _operation_ids_routable(data: dict) -> dict:
    """The spec with each operationId that Elements' router cannot reach written as a slug: it routes an
    operation's page by its operationId, and one with spaces or slashes ("find pet by id", Yelp's
    "/businesses/search") falls back to the overview, so a reader never sees that operation's page. Letters,
    digits, `_` and `-` stay; each other run becomes `-` ("businesses-search")."""
    for item in (data.get("paths") or {}).values():
        for method, operation in (item or {}).items():
            if method in _ITEM_KEYS and isinstance(operation, dict) and operation.get("operationId"):
                slug = re.sub(r"[^A-Za-z0-9_-]+", "-", str(operation["operationId"])).strip("-")
                operation["operationId"] = slug or operation["operationId"]
    return data


def _harness(body: str) -> str:
    """A local harness page: `{title}` and `{spec}` in the body are filled in by `_render_in_chromium`."""
    return f"{_HARNESS_HEAD}{body}</body></html>"


def _render_in_chromium(
    spec: Path, harness: str, out: Path, work: Path, *, window_height: int = 2000, budget_ms: int = 8000
) -> None:
    """Fill the harness with the spec (a JS object literal: nothing is fetched), let headless Chromium
    run it, and keep the rendered DOM less what a reader never sees."""
    data = _read_spec(spec)
    title = html_escape(_spec_title(data, spec))
    literal = json.dumps(data).replace("</", "<\\/")  # a "</script>" inside the spec ends no script
    page = work / "harness.html"
    page.write_text(harness.replace("{title}", title).replace("{spec}", literal), encoding="utf-8")
    dom = _chromium_dom(page.as_uri(), work / "profile", window_height=window_height, budget_ms=budget_ms)
    out.write_text(strip_page(dom, work), encoding="utf-8")


def _chromium_dom(url: str, profile: Path, *, window_height: int = 2000, budget_ms: int = 8000) -> str:
    """The DOM headless Chromium draws for `url` (no network, a throwaway profile), dumped once the
    virtual-time budget is spent."""
    command = [
        "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", f"--window-size=1280,{window_height}", f"--virtual-time-budget={budget_ms}",
        "--dump-dom", url,
    ]  # fmt: skip
    done = subprocess.run(command, check=True, capture_output=True, timeout=CHROMIUM_TIMEOUT_S)
    dom = done.stdout.decode("utf-8", "replace")
    if "<body" not in dom:
        raise subprocess.CalledProcessError(1, command, done.stdout, done.stderr)
    return dom


def strip_page(dom: str, work: Path) -> str:
    """A dumped page less what a reader never sees: scripts (the harness carries the spec), styles,
    icons, comments, and attributes other than links, ids, table spans and a text box's value (what it
    shows; since issue 17's eighth round: Starlight shows each request URL in a read-only box) (classes,
    ARIA and framework attributes were half of the bytes; the crawler reads none of them); links back
    into the harness folder (its path differs on every run) go too."""
    import lxml.etree
    import lxml.html

    root = lxml.html.document_fromstring(dom)
    for element in list(root.iter("script", "style", "link", "svg", "template", "noscript")):
        element.drop_tree()
    for comment in list(root.iter(lxml.etree.Comment)):  # a reader never sees them (spectacle's template
        comment.drop_tree()  # leaves commented-out markup, `<script>` tags among it)
    forms = (str(work), quote(str(work), safe=""), quote(str(work)))
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for name in list(element.attrib):
            value = element.attrib[name]
            shown = name == "value" and element.tag == "input"  # a text box shows its value
            if (name not in _KEPT_ATTRIBUTES and not shown) or any(form in value for form in forms):
                del element.attrib[name]
    _squeeze_whitespace(root)
    return lxml.html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")


def render_bootprint(spec: Path, out: Path, work: Path) -> None:
    """bootprint-openapi 4.0.4, a static page from Handlebars templates. It reads Swagger 2.0 only, so an
    OpenAPI 3 spec goes through api-spec-converter 2.12.0 (openapi_3 → swagger_2) first; the truth stays
    the unconverted spec, and what the conversion loses is the page's loss."""
    subprocess.run(
        [str(BIN / "bootprint"), "openapi", str(_swagger_2(spec, work)), str(work / "site")],
        check=True,
        capture_output=True,
    )
    _write_site(work, out)


def render_spectacle(spec: Path, out: Path, work: Path) -> None:
    """spectacle-docs 1.1.0 (Spectacle: Handlebars templates over Foundation, a three-column static page),
    its HTML only (`-C -J`: no stylesheet or script built). It reads Swagger 2.0 only, so an OpenAPI 3
    spec goes through api-spec-converter 2.12.0 first, as for bootprint. package.json pins two of its
    dependencies by `overrides`: `commander` (it asks for any version, and the newest breaks its command
    line) and `node-sass` (a native build that cannot install offline; spectacle only hands it to
    grunt-sass, which `-C` never runs, so the pure-JS `sass` stands in). Added in issue 17's fifth round
    as a fresh held-out renderer. It resolves every `$ref`, `x-` extensions' too, so it reads the cleaned
    copy Sphinx reads (Spotify's point at a file that is not there); it may exit 0 having written no page."""
    cleaned = work / "cleaned.json"
    cleaned.write_text(json.dumps(_renderable(_read_spec(spec))), encoding="utf-8")
    command = [str(BIN / "spectacle"), "-C", "-J", "-q", "-t", str(work / "site"), str(_swagger_2(cleaned, work))]
    done = subprocess.run(command, check=True, capture_output=True, timeout=CHROMIUM_TIMEOUT_S)
    if not (work / "site" / "index.html").exists():
        raise subprocess.CalledProcessError(1, command, done.stdout, done.stderr)
    _write_site(work, out)


def render_openapi2html(spec: Path, out: Path, work: Path) -> None:
    """openapi2html 2.0.1 (React components rendered to static markup: Bootstrap cards, no script), called
    by `renderers/openapi2html/render.js` on the spec as swagger-parser 10.1.1 parses it (no `$ref`
    resolved, nothing fetched); pinned in a tree of its own there, since in the shared tree
    html-react-parser would take redoc-cli's React 17 as its peer and fail on React 19's elements.
    It reads Swagger 2.0 only, so an OpenAPI 3 spec goes through api-spec-converter first, as for
    bootprint. Added in issue 17's sixth round as a fresh held-out
    renderer (measured once with the rules untouched, before its pages were read)."""
    site = work / "site"
    site.mkdir()
    subprocess.run(
        ["node", str(OPENAPI2HTML / "render.js"), str(_swagger_2(spec, work)), str(site / "index.html")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    _write_site(work, out)


def render_aglio(spec: Path, out: Path, work: Path) -> None:
    """aglio 2.3.0 (its default olio theme: Jade templates, a static page) over the API Blueprint that
    Apiary's API Elements CLI 0.10.4 writes (`fury … --format text/vnd.apiblueprint`, its Swagger 2.0
    parser: the OpenAPI 3 parser drops `items`, `allOf` and `format`), so an OpenAPI 3 spec goes through
    api-spec-converter first, as for bootprint; the pages of sites written in API Blueprint look so.
    Pinned in a tree of its own, renderers/aglio. Added in issue 17's seventh round as a fresh
    held-out renderer (measured once with the rules untouched, before its pages were read)."""
    blueprint = work / "api.apib"
    tools = AGLIO / "node_modules" / ".bin"
    strict = work / "strict.json"
    strict.write_text(json.dumps(_schema_valid(_renderable(_read_spec(spec)))), encoding="utf-8")
    swagger = work / "swagger-valid.json"
    swagger.write_text(json.dumps(_swagger_2_valid(_read_spec(_swagger_2(strict, work)))), encoding="utf-8")
    subprocess.run(
        [str(tools / "fury"), str(swagger), str(blueprint), "--format", "text/vnd.apiblueprint"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    site = work / "site"
    site.mkdir()
    subprocess.run(
        [str(tools / "aglio"), "-i", str(blueprint), "-o", str(site / "index.html")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    _write_site(work, out)


_OPERATION_KEYS = {
    "tags", "summary", "description", "externalDocs", "operationId", "parameters", "requestBody", "responses",
    "callbacks", "deprecated", "security", "servers", "consumes", "produces", "schemes",
}  # fmt: skip
_BOOLEAN_KEYS = {"required", "additionalProperties", "readOnly", "uniqueItems", "deprecated", "nullable"}
_NUMBER_KEYS = {"maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems", "multipleOf"}


def _schema_valid(value: object, key: str = "") -> object:
    """The spec as the API Elements parser accepts it, which validates it against the Swagger 2.0
    schema and refuses the whole file on one slip the other renderers pass over: an operation's
    unknown key (TMDB's `cache`) goes, a quoted boolean (`required`, `additionalProperties`: "true") or
    number (`maximum`: "50", Spotify's) becomes the value it quotes, and a schema's `required` keeps
    only the properties it has (swagger-parser's check). Nothing an operation documents is lost."""
    if isinstance(value, dict):
        out = {k: _schema_valid(v, k) for k, v in value.items()}
        if key in _ITEM_KEYS and "responses" in out:
            out = {k: v for k, v in out.items() if k in _OPERATION_KEYS}
        if isinstance(out.get("required"), list) and not {"allOf", "anyOf", "oneOf"} & set(out):
            properties = out.get("properties") if isinstance(out.get("properties"), dict) else {}
            out["required"] = [name for name in out["required"] if name in properties]
            if not out["required"]:  # JSON Schema draft 4 wants at least one name
                del out["required"]
        return out
    if isinstance(value, list):
        return [_schema_valid(item) for item in value]
    if isinstance(value, str) and key in _BOOLEAN_KEYS and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if isinstance(value, str) and key in _NUMBER_KEYS:
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _unquoted(value: object, keys: set[str], key: str = "") -> object:
    """The spec with a quoted boolean under one of `keys` ("false") as the boolean it quotes."""
    if isinstance(value, dict):
        return {k: _unquoted(v, keys, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_unquoted(item, keys) for item in value]
    if isinstance(value, str) and key in keys and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


_INFO_KEYS = {"title", "version", "description", "termsOfService", "contact", "license"}


def _swagger_2_valid(data: dict) -> dict:
    """A Swagger 2.0 document mended where its schema refuses it, since the API Elements parser refuses
    the whole file on one such slip (the other renderers pass over them): `info` keys Swagger 2 does
    not have (NYTimes' `logo`); OpenAPI 3's `example` on a parameter and `links` on a response, which
    api-spec-converter carries over (on response headers too); a response with no description (Swagger 2
    requires one); a non-body parameter that states no type, which reads as a string; a body parameter
    with no schema (OpenAPI 3 showed that body by an example the converter did not carry), an empty one.
    `x-` extensions stay allowed."""
    info = data.get("info") or {}
    data["info"] = {k: v for k, v in info.items() if k in _INFO_KEYS or k.startswith("x-")}
    items = [item for item in (data.get("paths") or {}).values() if isinstance(item, dict)]
    operations = [op for item in items for key, op in item.items() if key in _ITEM_KEYS and isinstance(op, dict)]
    parameters = [*(data.get("parameters") or {}).values()]
    for holder in [*items, *operations]:
        parameters += [p for p in holder.get("parameters") or [] if isinstance(p, dict)]
    for parameter in parameters:
        if isinstance(parameter, dict) and "$ref" not in parameter and parameter.get("in") != "body":
            parameter.pop("example", None)
            parameter.pop("examples", None)
            parameter.setdefault("type", "string")
        elif isinstance(parameter, dict) and parameter.get("in") == "body":
            parameter.setdefault("schema", {})  # a body shown only by an example OpenAPI 3 held
    responses = [*(data.get("responses") or {}).values()]
    for op in operations:
        responses += [r for r in (op.get("responses") or {}).values() if isinstance(r, dict)]
    for response in responses:
        if isinstance(response, dict) and "$ref" not in response:
            response.pop("links", None)
            response.setdefault("description", "")
            for header in (response.get("headers") or {}).values():
                if isinstance(header, dict):
                    header.pop("example", None)
    return data


def _openapi_3(spec: Path, data: dict, converter: Path = BIN / "api-spec-converter", timeout: float | None = None) -> dict:
    """The spec (`data`, read from the file `spec`) as OpenAPI 3: itself, or a Swagger 2.0 one converted by
    api-spec-converter 2.12.0 (swagger_2 → openapi_3; each renderer's tree pins its own copy)."""
    if "swagger" not in data:
        return data
    done = subprocess.run(
        [str(converter), "--from=swagger_2", "--to=openapi_3", "--syntax=json", str(spec)],
        check=True,
        capture_output=True,
        timeout=timeout,
    )
    return json.loads(done.stdout)


def _swagger_2(spec: Path, work: Path, converter: Path = BIN / "api-spec-converter") -> Path:
    """The spec as Swagger 2.0: itself, or converted by api-spec-converter 2.12.0 (openapi_3 → swagger_2)
    into `work`; the truth stays the unconverted spec, and what the conversion loses is the page's loss."""
    if "swagger" in _read_spec(spec):
        return spec
    done = subprocess.run(
        [str(converter), "--from=openapi_3", "--to=swagger_2", "--syntax=json", str(spec)],
        check=True,
        capture_output=True,
    )
    source = work / "swagger.json"
    source.write_bytes(done.stdout)
    return source


def _write_site(work: Path, out: Path) -> None:
    """The static site's one page, stripped, as the benchmark page."""
    out.write_text(
        strip_page((work / "site" / "index.html").read_text(encoding="utf-8"), work), encoding="utf-8"
    )


def render_openapi_generator(spec: Path, out: Path, work: Path) -> None:
    """openapi-generator 7.26.0's `html2` generator (the Java jar from PyPI's openapi-generator-cli): one
    static page, parameters in tables, request samples in many languages. Its inline scripts (jQuery,
    Bootstrap, and a `defs` copy of every schema: the answer) are dropped like ReDoc's."""
    _openapi_generator("html2", spec, work)
    _write_site(work, out)


def render_openapi_generator_html(spec: Path, out: Path, work: Path) -> None:
    """openapi-generator 7.26.0's older `html` generator: one static page from its single Mustache
    template, a template of its own (not html2's Bootstrap page). Added in issue 17 as a fresh
    held-out renderer."""
    _openapi_generator("html", spec, work)
    _write_site(work, out)


def render_openapi_generator_markdown(spec: Path, out: Path, work: Path) -> None:
    """openapi-generator 7.26.0's `markdown` generator (README.md, one file per API tag under Apis/, one per
    model under Models/), its files joined in that order (each folder sorted by name) into one page, as a
    one-page docs site would publish them, and turned into HTML by marked 18.2.1. Added in issue 17's third
    round as a fresh held-out renderer."""
    _openapi_generator("markdown", spec, work)
    site = work / "site"
    parts = [site / "README.md", *sorted((site / "Apis").glob("*.md")), *sorted((site / "Models").glob("*.md"))]
    markdown = work / "page.md"
    markdown.write_text("\n\n".join(p.read_text(encoding="utf-8") for p in parts if p.exists()), encoding="utf-8")
    _markdown_page(markdown, _spec_title(_read_spec(spec), spec), out, work)


def render_asciidoc(spec: Path, out: Path, work: Path) -> None:
    """openapi-generator 7.26.0's `asciidoc` generator (index.adoc), turned into HTML by Asciidoctor.js
    4.1.0 (npm `asciidoctor`, safe mode: an include may not leave the site folder; `linkcss`: the
    stylesheet is linked, not inlined). Added in issue 17 as a fresh held-out renderer."""
    _openapi_generator("asciidoc", spec, work)
    site = work / "site"
    subprocess.run(  # run inside the site: safe mode jails every path to the working folder
        [str(BIN / "asciidoctor"), "-S", "safe", "-a", "linkcss", "-o", "index.html", "index.adoc"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
        cwd=site,
    )
    _write_site(work, out)


# essentials-openapi fills example values it is not given with random numbers: seeded, the pages are
# the same on every build.
_SEEDED_MKDOCS = "import random, sys; random.seed(0); sys.argv[0] = 'mkdocs'; from mkdocs.__main__ import cli; cli()"
_MKDOCS_CONFIG = """site_name: {title}
theme: mkdocs
plugins:
  - neoteroi.mkdocsoad
"""


def render_mkdocs(spec: Path, out: Path, work: Path, mkdocs: Path = MKDOCS) -> None:
    """MkDocs 1.6.1 (its default `mkdocs` theme) with the neoteroi-mkdocs 1.2.0 OpenAPI plugin: a Markdown
    page holding `[OAD(spec.json)]`, which the plugin replaces by Markdown (essentials-openapi's plain
    Markdown views, the default) before MkDocs builds the site; the page kept, stripped. Added in issue
    17's third round as a fresh held-out renderer. The plugin reads OpenAPI 3 only, so a Swagger 2 spec
    goes through api-spec-converter 2.12.0 (swagger_2 → openapi_3) first, and `x-` extensions are dropped
    (as for Sphinx); the truth stays the original."""
    data = _read_spec(spec)
    source = work / "docs" / "spec.json"
    source.parent.mkdir()
    converted = _openapi_3(spec, data)
    # the same cleaned input as Sphinx's: Spotify's `x-` extensions point at a file that is not there
    source.write_text(json.dumps(_renderable(converted)), encoding="utf-8")
    title = _spec_title(data, spec)
    (work / "docs" / "index.md").write_text(f"# {title}\n\n[OAD(spec.json)]\n", encoding="utf-8")
    (work / "mkdocs.yml").write_text(_MKDOCS_CONFIG.format(title=json.dumps(title)), encoding="utf-8")
    subprocess.run(
        [str(mkdocs.parent / "python"), "-c", _SEEDED_MKDOCS, "build", "-q", "-f", str(work / "mkdocs.yml"),
         "-d", str(work / "site")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    _write_site(work, out)


_OWL_API_CONFIG = """site_name: {title}
theme: mkdocs
plugins:
  - owl-api:
      hide_download_link: true
"""
_OWL_API_PAGE = """---
techdocs-owl:
  type: openapi
  spec: spec.json
---
"""


def render_owl_api(spec: Path, out: Path, work: Path, mkdocs: Path = OWL_API_MKDOCS) -> None:
    """MkDocs 1.6.1 (its default `mkdocs` theme) with TechDocs Owl's mkdocs-owl-api 0.3.0 plugin, which renders
    an OpenAPI, AsyncAPI or JSON Schema spec into a reference page at build time: a Markdown page whose front
    matter names the spec (`techdocs-owl: {type: openapi, spec: spec.json}`) and whose body the plugin fills;
    the site's one page kept, stripped. Defaults but one: `hide_download_link`, the plugin's documented switch
    that drops the link to the resolved spec it would publish beside the page (the answer itself). The plugin
    reads OpenAPI 3 only, so a Swagger 2 spec goes through api-spec-converter 2.12.0 (swagger_2 → openapi_3,
    pinned in renderers/owl-api) first; the truth stays the original. Added in issue 17's seventeenth round as
    a fresh held-out renderer."""
    data = _read_spec(spec)
    source = work / "docs" / "spec.json"
    source.parent.mkdir()
    converted = _openapi_3(spec, data, OWL_API / "node_modules" / ".bin" / "api-spec-converter")
    source.write_text(json.dumps(converted), encoding="utf-8")
    (work / "docs" / "index.md").write_text(_OWL_API_PAGE, encoding="utf-8")
    title = _spec_title(data, spec)
    (work / "mkdocs.yml").write_text(_OWL_API_CONFIG.format(title=json.dumps(title)), encoding="utf-8")
    subprocess.run(
        [str(mkdocs.parent / "python"), "-c", _SEEDED_MKDOCS, "build", "-q", "-f", str(work / "mkdocs.yml"),
         "-d", str(work / "site")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    _write_site(work, out)


_SCALAR_MARKDOWN_LAYOUT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><main>
{{ content | safe }}
</main></body></html>
"""


def render_scalar_markdown(spec: Path, out: Path, work: Path) -> None:
    """Scalar's openapi-to-markdown 1.3.0 (npm; "plain Markdown from OpenAPI documents, for LLMs": the spec's
    metadata and servers as lists of bold labels, each operation a heading, its parameters, body and responses
    as nested lists of fields, examples in code blocks), defaults throughout, built into a static page by
    Eleventy 3.1.8 with its default Markdown engine (markdown-it), in a layout that holds only the title and
    the content; the site's one page kept, stripped. It reads Swagger 2 and OpenAPI 3 alike, so no spec is
    converted; the one mend is the spec less its `x-` extensions (Spotify's `x-spotify-policy` refers to a file
    that is not there, on which the whole spec is refused); pinned in renderers/scalar-markdown (package.json,
    its lock, the two small files that drive it). Added in issue 17's eighteenth round as a fresh held-out renderer."""
    source = work / "src"
    (source / "_includes").mkdir(parents=True)
    markdown = work / "api.md"
    data = _read_spec(spec)
    cleaned = work / "spec.json"  # less `x-` extensions: Spotify's point at a file that is not there
    cleaned.write_text(json.dumps(_without_extensions(data)), encoding="utf-8")
    subprocess.run(
        ["node", str(SCALAR_MARKDOWN / "to-markdown.mjs"), str(cleaned), str(markdown)],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    title = _spec_title(data, spec)
    front = f"---\nlayout: page.njk\ntitle: {json.dumps(title)}\n---\n"
    (source / "index.md").write_text(front + markdown.read_text(encoding="utf-8"), encoding="utf-8")
    (source / "_includes" / "page.njk").write_text(_SCALAR_MARKDOWN_LAYOUT, encoding="utf-8")
    subprocess.run(
        ["node", str(SCALAR_MARKDOWN / "node_modules" / "@11ty" / "eleventy" / "cmd.cjs"), "--quiet",
         f"--config={SCALAR_MARKDOWN / 'eleventy.config.mjs'}", f"--input={source}", f"--output={work / 'site'}"],
        check=True,
        capture_output=True,
        cwd=work,
        timeout=CHROMIUM_TIMEOUT_S,
    )  # fmt: skip
    _write_site(work, out)


def _flexdoc_bundle(venv: Path = FLEXDOC_VENV) -> Path:
    """The standalone renderer bundle inside the pinned prauga-flexdoc wheel (whatever the venv's Python)."""
    found = sorted(venv.glob("lib/python*/site-packages/prauga_flexdoc/_assets/flexdoc.standalone.js"))
    return found[0] if found else venv / "prauga_flexdoc" / "_assets" / "flexdoc.standalone.js"


def render_flexdoc(spec: Path, out: Path, work: Path) -> None:
    """Prauga FlexDoc's standalone OpenAPI renderer (React; its bundle as the PyPI package prauga-flexdoc 0.9.0
    ships it), mounted as the package's bootstrap page mounts it (`FlexDocStandalone.mountAsync` with the
    options its host writes: contract version 1, the title, the "system" theme, Try It on) but with the spec
    inline and one render setting, `expand: "all"` (every section of an operation open: parameters, request
    body, responses, Try It, code samples; by default they are closed). It draws one view at a time, the
    overview or one operation, as its sidebar's buttons choose; so the harness opens any closed group of the
    sidebar, clicks each operation's button in the sidebar's order and joins what the main pane drew for the
    overview and each operation into one page (the sidebar itself is site chrome). Added in issue 17's
    nineteenth round as a fresh held-out renderer; pinned in renderers/flexdoc/requirements.txt. The one mend is
    the spec less its `x-` extensions, as for scalar-markdown: Spotify's `x-spotify-policy` refers to a file
    that is not there, which the renderer fetches and, failing, draws nothing."""
    bundle = _flexdoc_bundle()
    harness = _harness(f"""<div id="flexdoc-root"></div><script src="{bundle.as_uri()}"></script>
<script>const wait = ms => new Promise(done => setTimeout(done, ms));
const METHOD = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE)\\b/;
const main = () => document.querySelector("main");
const side = () => document.querySelector("aside");
async function operationButtons() {{
  // a tag's operations may sit behind a closed group: open each
  for (let round = 0; round < 20; round++) {{
    const closed = [...side().querySelectorAll('button[aria-expanded="false"]')];
    if (!closed.length) break;
    closed.forEach(group => group.click());
    await wait(500);
  }}
  return [...side().querySelectorAll("button")].filter(button => METHOD.test(button.textContent.trim()));
}}
async function visitAll() {{
  const root = document.getElementById("flexdoc-root");
  await FlexDocStandalone.mountAsync(root, {{spec: {{spec}}, options: {{contractVersion: "1", title: "{{title}}",
    theme: "system", tryIt: {{enabled: true}}, expand: "all"}}, baseUri: location.href}});
  await wait(2000);
  const parts = ["<div>" + main().innerHTML + "</div>"];
  const count = (await operationButtons()).length;
  for (let index = 0; index < count; index++) {{
    (await operationButtons())[index].click();  // clicked as a reader does
    await wait(1000);
    parts.push("<div>" + main().innerHTML + "</div>");
  }}
  const page = document.createElement("div");
  page.innerHTML = parts.join("\\n");
  root.replaceWith(page);
}}
visitAll();</script>""")
    cleaned = work / "spec.json"  # less `x-` extensions: Spotify's point at a file that is not there (fetched)
    cleaned.write_text(json.dumps(_without_extensions(_read_spec(spec))), encoding="utf-8")
    _render_in_chromium(cleaned, harness, out, work, budget_ms=900_000)


def render_nadoc(spec: Path, out: Path, work: Path, nadoc: Path = NADOC_BIN) -> None:
    """Nadoc 0.1.2 (PyPI: "deterministic static documentation for OpenAPI", Jinja templates of its own rendered
    to one static page at build time, no browser; its CSS, script, icons and fonts inlined), its defaults but
    two: `--no-emit-spec`, its documented switch that keeps it from writing the merged spec beside the page (the
    answer itself), and `--no-strict`, its documented switch that leaves out a schema keyword it does not draw
    rather than refusing the whole spec (Spotify's `discriminator`). It reads OpenAPI 3.0 and 3.1 only, so a
    Swagger 2 spec goes through api-spec-converter 2.12.0 (swagger_2 → openapi_3, pinned in renderers/nadoc)
    first; the truth stays the original. The one mend
    is the spec less its `x-` extensions, as for scalar-markdown: Spotify's `x-spotify-policy` refers to a file
    that is not there, which Nadoc bundles and, failing, renders nothing. Pinned in
    renderers/nadoc/requirements.txt, for a venv renderers/.venv-nadoc. Added in issue 17's twentieth round as
    a fresh held-out renderer."""
    data = _read_spec(spec)
    source = work / "spec.json"  # less `x-` extensions: Spotify's refers to a file that is not there (bundled)
    source.write_text(json.dumps(_without_extensions(data)), encoding="utf-8")
    if "swagger" in data:
        converted = _openapi_3(source, data, NADOC / "node_modules" / ".bin" / "api-spec-converter")
        source.write_text(json.dumps(converted), encoding="utf-8")
    subprocess.run(
        [str(nadoc), str(source), "--output-dir", str(work / "site"), "--no-emit-spec", "--no-strict"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    _write_site(work, out)


def render_openapi3_generator(spec: Path, out: Path, work: Path) -> None:
    """openapi3-generator 0.13.0 (npm `openapi3-generator`, Fran Méndez's `og`: "use your API OpenAPI 3
    definition to generate code, documentation, and literally anything you need"), its own `markdown` template
    (Handlebars partials: each operation a heading over a cURL sample, parameter tables of name, type, in,
    description and accepted values, bodies and responses as tables of fields whose nesting is drawn in the
    name), turned into HTML by marked 18.2.1 as for widdershins; defaults throughout. It reads OpenAPI 3.0 only,
    so a Swagger 2 spec goes through api-spec-converter 2.12.0 (swagger_2 → openapi_3) first, and it validates
    the spec (oas-validator) and refuses the whole file on one slip the other renderers pass over, so it reads
    a mended copy (`_oas_validator_valid`); the truth stays the original. Pinned in renderers/openapi3-generator
    (package.json and its lock: the generator, the converter and marked). Added in issue 17's twenty-first round
    as a fresh held-out renderer."""
    data = _read_spec(spec)
    data = _openapi_3(spec, data, OPENAPI3_GENERATOR / "node_modules" / ".bin" / "api-spec-converter")
    source = work / "spec.json"
    source.write_text(json.dumps(_oas_validator_valid(data)), encoding="utf-8")
    site = work / "site"
    subprocess.run(
        [str(OPENAPI3_GENERATOR / "node_modules" / ".bin" / "og"), "-o", str(site), str(source), "markdown"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    markdown = site / "openapi.md"
    if not markdown.exists():  # it reports a refused spec on stderr but exits 0
        raise subprocess.CalledProcessError(1, "og", stderr=b"no openapi.md written")
    _markdown_page(markdown, _spec_title(data, spec), out, work, OPENAPI3_GENERATOR / "node_modules" / ".bin" / "marked")


def render_pretty_swag(spec: Path, out: Path, work: Path) -> None:
    """pretty-swag 0.2.4 (npm, twskj's "document generator for Swagger (OpenAPI) specification"): one HTML file (`-f
    singleFile`: its Vue 2 client, Materialize and the spec inlined) whose page its client draws, so it is loaded
    in headless Chromium (no network) and the drawn DOM kept, less scripts and styles; defaults but `-noDate`,
    its switch that leaves the build time out of the footer (a re-render would differ otherwise; the `-noFooter`
    its help lists is read nowhere). It reads Swagger 2.0 only, so an OpenAPI 3 spec goes through
    api-spec-converter 2.12.0 (openapi_3 → swagger_2) first; the truth stays the original. Three mends, each
    because it renders nothing otherwise: the spec less its `x-` extensions, as for scalar-markdown and nadoc
    (Spotify's `x-spotify-policy` refers to a file that is not there, which it resolves); an empty `definitions`
    where the spec has none and `schemes` ["http", "https"] (the two its console offers by default) where the
    spec names none (no server: the converter writes none), as it reads both keys unguarded. Pinned in
    renderers/pretty-swag (package.json and its lock: pretty-swag and the converter). Added in issue 17's
    twenty-second round as a fresh held-out renderer."""
    plain = work / "plain.json"  # less `x-` extensions: Spotify's refers to a file that is not there (resolved)
    plain.write_text(json.dumps(_without_extensions(_read_spec(spec))), encoding="utf-8")
    data = _read_spec(_swagger_2(plain, work, PRETTY_SWAG / "node_modules" / ".bin" / "api-spec-converter"))
    data.setdefault("definitions", {})  # read unguarded: a spec without it renders nothing
    data.setdefault("schemes", ["http", "https"])  # read unguarded too; both are what it offers by default
    mended = work / "spec.json"
    mended.write_text(json.dumps(data), encoding="utf-8")
    page = work / "doc.html"
    done = subprocess.run(
        [str(PRETTY_SWAG / "node_modules" / ".bin" / "pretty-swag"), "-i", str(mended), "-o", str(page),
         "-f", "singleFile", "-noDate"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )  # fmt: skip
    if not page.exists():  # it reports a failure on stdout and exits 1, or not at all
        raise subprocess.CalledProcessError(1, "pretty-swag", done.stdout, done.stdout[-300:])
    out.write_text(strip_page(_chromium_dom(page.as_uri(), work / "profile"), work), encoding="utf-8")


def _o2a_readable(value: object, *, names: bool = False) -> object:
    """The spec as openapi-to-asciidoc's loader reads it: a boolean `additionalProperties` (`true`, or Spotify's
    quoted "true") dropped, as it loads one as a schema object and crashes on a boolean. It names no field;
    the keys of `properties` are field names and stay."""
    if isinstance(value, list):
        return [_o2a_readable(v) for v in value]
    if not isinstance(value, dict):
        return value
    return {
        k: _o2a_readable(v, names=k == "properties" and not names)
        for k, v in value.items()
        if names or not (k == "additionalProperties" and (isinstance(v, bool) or str(v).lower() in ("true", "false")))
    }


def render_openapi_to_asciidoc(spec: Path, out: Path, work: Path, o2a: Path = OPENAPI_TO_ASCIIDOC_BIN) -> None:
    """openapi-to-asciidoc 0.1.6 (PyPI, Luftfartsverket's "tool used to convert OpenAPI 3.1 specifications to
    AsciiDoc": Jinja templates of its own, one per OpenAPI object, loaded through Marshmallow), its command `o2a`
    with its defaults, the AsciiDoc turned into HTML by Asciidoctor.js 4.1.0 (npm `asciidoctor`, safe mode,
    `linkcss`, as for openapi-generator's `asciidoc`, and `reproducible`, its attribute that leaves the build time
    out of the footer, so that a re-render is the same). It reads JSON OpenAPI 3 only, so a Swagger 2 spec goes
    through api-spec-converter 2.12.0 (swagger_2 → openapi_3) first; the truth stays the original. Two mends,
    each because it renders nothing otherwise: a boolean `additionalProperties` (`true`, or Spotify's quoted
    "true") dropped (`_o2a_readable`), and a path item's keys other than its methods and `parameters`, as for
    Sphinx (Twilio's `servers`, the same as the spec's own, and `description`), as its loader reads a path item's
    `servers` as one object and refuses a `description`. Pinned in renderers/openapi-to-asciidoc (requirements.txt,
    for a venv renderers/.venv-openapi-to-asciidoc, and package.json and its lock: Asciidoctor.js and the
    converter). Added in issue 17's twenty-third round as a fresh held-out renderer."""
    data = _read_spec(spec)
    source = work / "spec.json"  # it reads JSON only
    source.write_text(json.dumps(data), encoding="utf-8")
    modules = OPENAPI_TO_ASCIIDOC / "node_modules" / ".bin"
    converted = _openapi_3(source, data, modules / "api-spec-converter")
    converted["paths"] = _method_items(converted)  # as for Sphinx: Twilio's path-item `servers` and `description`
    source.write_text(json.dumps(_o2a_readable(converted)), encoding="utf-8")
    site = work / "site"
    site.mkdir()
    subprocess.run(
        [str(o2a), "-j", str(source), "-o", str(site / "index.adoc")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    subprocess.run(  # run inside the site: safe mode jails every path to the working folder
        [str(modules / "asciidoctor"), "-S", "safe", "-a", "linkcss", "-a", "reproducible", "-o", "index.html",
         "index.adoc"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
        cwd=site,
    )  # fmt: skip
    _write_site(work, out)


def _swg2rst_readable(data: dict) -> dict:
    """A Swagger 2.0 document as swagger2rst 0.0.4 reads it without crashing: what `_swagger_2_valid` mends for
    aglio (here because a parameter that states neither a type nor a schema, a body shown in OpenAPI 3 only by an
    example, is refused as "Invalid structure"), a path item's keys other than its methods and `parameters`, as for
    Sphinx (it reads Twilio's path-item `servers` as an operation), and responses' `headers` (its Header class
    fails on any: a bug of its own; a response header is no body field)."""
    data = _swagger_2_valid(data)
    data["paths"] = _method_items(data)
    for response in _responses(data):
        response.pop("headers", None)
    return data


_SWAGGER2RST_CONF = """project = {title!r}
"""


def render_swagger2rst(spec: Path, out: Path, work: Path, venv: Path = SWAGGER2RST_VENV) -> None:
    """swagger2rst 0.0.4 (PyPI, Arello Mobile's "tool for convert Swagger format file to Restructured text", part of
    their documentation toolkit around Sphinx: Jinja templates of its own, each operation a section "GET ``/path``"
    over "Summary", "Description", "Parameters", "Request" and "Responses" sections, fields in `csv-table`s, JSON
    examples it makes itself, definitions in a section of their own reached by `:ref:` links), its command
    `swg2rst` with its defaults, the reStructuredText built into one page by Sphinx 8.1.3's HTML builder (its
    defaults: the alabaster theme), as the toolkit means it to be (`:ref:` is a Sphinx role), the page's `body`
    stripped of scripts and styles as every static page is. Pinned in renderers/swagger2rst/requirements.txt, for a
    venv renderers/.venv-swagger2rst: docutils 0.20.1, the last whose `csv-table` reads the `:header:` option with
    commas whatever the `:delim:` (swagger2rst's tables give `:delim: |` and a comma-separated header: a later
    docutils refuses every table), and PyYAML 5.3.1, as the command calls `yaml.load` without a loader
    (PyYAML 6 refuses). The command runs through renderers/swagger2rst/run.py, which puts back the two names the
    package imports from `collections` (`Mapping`, `Iterable`: `collections.abc` since Python 3.10) and calls
    the command's own `main`. It reads Swagger 2.0 only, so an OpenAPI 3 spec goes through api-spec-converter
    2.12.0 (openapi_3 → swagger_2, pinned in renderers/swagger2rst) first, as for bootprint; the truth stays the
    original. Three mends, each because it renders nothing otherwise (`_swg2rst_readable`); nothing an operation
    documents as a parameter or a body field is dropped. Added in issue 17's twenty-fourth round as a fresh
    held-out renderer."""
    data = _read_spec(spec)
    source = work / "spec.json"
    converted = _swagger_2(spec, work, SWAGGER2RST / "node_modules" / ".bin" / "api-spec-converter")
    source.write_text(json.dumps(_swg2rst_readable(_read_spec(converted))), encoding="utf-8")
    site = work / "src"
    site.mkdir()
    subprocess.run(
        [str(venv / "bin" / "python"), str(SWAGGER2RST / "run.py"), str(source), "-o", str(site / "index.rst")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    (site / "conf.py").write_text(_SWAGGER2RST_CONF.format(title=_spec_title(data, spec)), encoding="utf-8")
    subprocess.run(
        [str(venv / "bin" / "sphinx-build"), "-q", "-b", "html", str(site), str(work / "html")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    out.write_text(strip_page((work / "html" / "index.html").read_text(encoding="utf-8"), work), encoding="utf-8")


def _path_items_methods_only(data: dict) -> dict:
    """The spec as openapi-markdown 0.4.3 reads it without crashing: its template takes every key of a path item
    for a method (Spotify's `x-` and Twilio's `servers` and `description`, a path's shared `parameters`), so each
    path item keeps its methods alone, and a path's shared parameters are pushed down into each of its operations
    (beside the operation's own, which win on the same name and place, as OpenAPI means): nothing an operation
    documents is dropped. Also the spec less its `x-` extensions, as for Sphinx."""
    out = _without_extensions(data)
    paths = {}
    for path, item in (out.get("paths") or {}).items():
        if not isinstance(item, dict):
            continue
        shared = [p for p in item.get("parameters") or [] if isinstance(p, dict)]
        methods = {}
        for key, operation in item.items():
            if key not in _ITEM_KEYS or not isinstance(operation, dict):
                continue
            own = operation.get("parameters") or []
            named = {(p.get("name"), p.get("in")) for p in own if isinstance(p, dict)}
            pushed = [p for p in shared if "$ref" in p or (p.get("name"), p.get("in")) not in named]
            if pushed:
                operation = {**operation, "parameters": [*pushed, *own]}
            methods[key] = operation
        paths[path] = methods
    out["paths"] = paths
    return out


def render_openapi_markdown(spec: Path, out: Path, work: Path, command: Path = OPENAPI_MARKDOWN_BIN) -> None:
    """openapi-markdown 0.4.3 (PyPI, vrerv's "generates API documentation from an OpenAPI specification file":
    Jinja templates of Markdown of its own, each operation a heading "## GET /path" over its summary and
    description, a "### Parameters" table Name | Type | Required | Description, "### Request Body" and
    "### Responses" with a "#### 200" heading per status, the schema's name as a link and its fields in a table
    Field | Type | Description, the shared schemas under "# Components"), its command `openapi2markdown` with its
    defaults (its own templates), the Markdown turned into HTML by marked 18.2.1 (GitHub flavour) as for
    widdershins and openapi3-generator. It reads OpenAPI 3 only, so a Swagger 2 spec goes through
    api-spec-converter 2.12.0 (swagger_2 → openapi_3) first; the truth stays the original. The one mend,
    because it renders nothing otherwise, is `_path_items_methods_only`. Pinned in
    renderers/openapi-markdown (requirements.txt for a venv renderers/.venv-openapi-markdown, package.json and
    its lock: api-spec-converter and marked). Added in issue 17's twenty-eighth round as a fresh held-out
    renderer."""
    data = _read_spec(spec)
    source = work / "spec.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    converted = _openapi_3(source, data, OPENAPI_MARKDOWN / "node_modules" / ".bin" / "api-spec-converter")
    source.write_text(json.dumps(_path_items_methods_only(converted)), encoding="utf-8")
    markdown = work / "page.md"
    subprocess.run(  # in `work`: a "templates" folder in the working directory would replace its own
        [str(command), str(source), str(markdown)],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
        cwd=work,
    )
    title = re.search(r"^# (.+)$", markdown.read_text(encoding="utf-8"), re.M)
    marked = OPENAPI_MARKDOWN / "node_modules" / ".bin" / "marked"
    _markdown_page(markdown, title.group(1).strip() if title else spec.stem, out, work, marked)


def _swagger_render_readable(data: dict) -> dict:
    """A Swagger 2.0 document as swagger-render 1.6.0 reads it without crashing: `_renderable` (no `x-`
    extensions, path items of methods and `parameters` only) and no response `links` (OpenAPI 3's, carried over
    by the converter, their `$ref`s into `x-components`)."""
    out = _renderable(data)
    for response in _responses(out):
        response.pop("links", None)
    return out


def render_swagger_render(spec: Path, out: Path, work: Path, venv: Path = SWAGGER_RENDER_VENV) -> None:
    """swagger-render 1.6.0 (PyPI, Juhani Imberg's "Renders Swagger APIs": "creates a single HTML file from a
    Swagger API", one static page from Jinja HTML templates of its own over Bootstrap 4 alpha, `$ref`s and
    `allOf`s resolved in place, operations grouped by tag), its command `swagger-render` with its defaults, the
    page stripped of scripts, styles and links as every static page is. Pinned in
    renderers/swagger-render/requirements.txt, for a venv renderers/.venv-swagger-render: Jinja2 3.0.3, the
    last with the `evalcontextfilter` its filters import, and PyYAML 5.3.1, as the command calls `yaml.load`
    without a loader (PyYAML 6 refuses). The command runs through renderers/swagger-render/run.py, which fixes
    the build time its footer stamps (so a re-render is the same) and calls the command's own `main`. It reads
    Swagger 2.0 only, so an OpenAPI 3 spec goes through api-spec-converter 2.12.0 (openapi_3 → swagger_2, pinned
    in renderers/swagger-render) first, as for bootprint; the truth stays the original. One mend, because it
    renders nothing otherwise (`_swagger_render_readable`): the spec less its `x-` extensions and a path item's
    keys other than its methods and `parameters`, as for Sphinx (`_renderable`: it resolves every `$ref` it meets
    and fails on one to a list, Spotify's `x-spotify-policy`; it takes every key of a path item for an operation,
    Twilio's `servers` and `description`), and responses' `links`, an OpenAPI 3 leftover of the converter whose
    `$ref`s point into the dropped `x-components`; nothing an operation documents is dropped. Added in issue 17's
    thirtieth round as a fresh held-out renderer."""
    source = work / "spec.json"
    converted = _swagger_2(spec, work, SWAGGER_RENDER / "node_modules" / ".bin" / "api-spec-converter")
    source.write_text(json.dumps(_swagger_render_readable(_read_spec(converted))), encoding="utf-8")
    page = work / "index.html"
    subprocess.run(
        [str(venv / "bin" / "python"), str(SWAGGER_RENDER / "run.py"), str(source), "-o", str(page)],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    out.write_text(strip_page(page.read_text(encoding="utf-8"), work), encoding="utf-8")


def _nulls_dropped(value: object) -> object:
    """Keys whose value is null dropped at every level (a null states nothing; list items stay as they are)."""
    if isinstance(value, list):
        return [_nulls_dropped(v) for v in value]
    if not isinstance(value, dict):
        return value
    return {k: _nulls_dropped(v) for k, v in value.items() if v is not None}


def _swagger_markdown_readable(data: dict) -> dict:
    """The spec as swagger-markdown 3.0.0 reads it without crashing: no `x-` extensions (it resolves every `$ref`,
    Spotify's `x-` ones to a file that is not there), no key whose value is null (it walks every object's entries
    and fails on a null: a null `example`), no empty `definitions` or `securityDefinitions` (it fails on a
    section with nothing to print) and no `info.license` without an `info.contact` (it counts the contact's keys
    before printing the license). Nothing an operation documents is dropped."""
    out = _nulls_dropped(_without_extensions(data))
    for key in ("definitions", "securityDefinitions"):
        if key in out and not out[key]:
            del out[key]
    info = out.get("info")
    if isinstance(info, dict) and "license" in info and not info.get("contact"):
        out["info"] = {k: v for k, v in info.items() if k != "license"}
    return out


def _has_component_schemas(data: dict) -> bool:
    """Whether an OpenAPI 3 spec names schemas under `components` (swagger-markdown 3.0.0 renders one only then: it
    fails on a missing `components` and prints nothing it can use, and fails, for one without `schemas`)."""
    components = data.get("components")
    return isinstance(components, dict) and bool(components.get("schemas"))


def render_swagger_markdown(spec: Path, out: Path, work: Path) -> None:
    """swagger-markdown 3.0.0 (npm, syroegkin's "create markdown API documentation from swagger file": a
    TypeScript CLI whose own transformers write the Markdown of a Swagger 2.0 or OpenAPI 3.0 document), its
    command `swagger-markdown -i spec -o page.md` with its defaults, the Markdown turned into HTML by marked 18.2.1
    (GitHub flavour) as for widdershins, openapi3-generator and openapi-markdown. Pinned in
    renderers/swagger-markdown (package.json and its lock: swagger-markdown, api-spec-converter 2.12.0, marked).
    It prints a refused spec on stderr and exits 0, so a page with an error printed, or no Markdown written, is a
    failure here. It renders an OpenAPI 3 spec only when the spec names component schemas (it fails on a missing
    `components`, and on a `components` with no `schemas`: the section has nothing to print), so such a spec (the
    SOCBench-D ones, whose schemas are all inline) goes through api-spec-converter (openapi_3 → swagger_2) first,
    as for bootprint; the truth stays the original, and what the conversion loses is the page's loss. One mend,
    because it renders nothing otherwise (`_swagger_markdown_readable`). Added in issue 17's thirty-fourth round
    as a fresh held-out renderer: its pages were committed unread."""
    data = _read_spec(spec)
    if "openapi" in data and not _has_component_schemas(data):
        spec = _swagger_2(spec, work, SWAGGER_MARKDOWN / "node_modules" / ".bin" / "api-spec-converter")
    source = work / "spec.json"
    source.write_text(json.dumps(_swagger_markdown_readable(_read_spec(spec))), encoding="utf-8")
    markdown = work / "page.md"
    done = subprocess.run(
        [str(SWAGGER_MARKDOWN / "node_modules" / ".bin" / "swagger-markdown"), "-i", str(source), "-o", str(markdown)],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    if done.stderr.strip() or not markdown.exists():  # it reports a refused spec on stderr but exits 0
        raise subprocess.CalledProcessError(1, "swagger-markdown", stderr=done.stderr or b"no page.md written")
    marked = SWAGGER_MARKDOWN / "node_modules" / ".bin" / "marked"
    _markdown_page(markdown, _spec_title(data, spec), out, work, marked)
def _postman_url_raw(url: dict) -> str:
    """A Postman URL object's `raw` string as Postman's app writes it on export: protocol, host parts joined by
    dots, port, path segments by slashes (a path variable kept as `:name`; postman-collection's `Url.toString`
    would put its example value there), the enabled query parameters as `key=value`."""
    raw = f"{url['protocol']}://" if url.get("protocol") else ""
    host = url.get("host") or []
    raw += ".".join(host) if isinstance(host, list) else str(host)
    if url.get("port"):
        raw += f":{url['port']}"
    path = url.get("path") or []
    raw += "/" + "/".join(str(part) for part in path) if isinstance(path, list) else f"/{str(path).lstrip('/')}"
    query = [f"{q.get('key') or ''}={q.get('value') or ''}" for q in url.get("query") or [] if not q.get("disabled")]
    return raw + ("?" + "&".join(query) if query else "") + (f"#{url['hash']}" if url.get("hash") else "")


def _postman_as_exported(collection: dict) -> dict:
    """A Postman collection as Postman's app exports it, which postman-to-markdown 1.6.0 reads: every request's
    URL carries its `raw` string and every request a `header` list. openapi-to-postmanv2 leaves both out where the
    format lets it (a URL as parts only; no header), and the command draws a request's URL from `raw` alone (every
    request line would read "undefined") and maps over `header` unguarded (it fails on the first request of none).
    An empty header list draws nothing; nothing else is added."""
    stack = list(collection.get("item") or [])
    while stack:
        item = stack.pop()
        stack.extend(item.get("item") or [])
        request = item.get("request")
        if isinstance(request, dict):
            request.setdefault("header", [])
            url = request.get("url")
            if isinstance(url, dict) and "raw" not in url:
                url["raw"] = _postman_url_raw(url)
    return collection

def render_postman_to_markdown(spec: Path, out: Path, work: Path) -> None:
    """postman-to-markdown 1.6.0 (npm, Jose Luis Campos Bautista's "generate documentation in markdown from
    postman documentation": a Postman collection's folders and requests as Markdown), its command with its
    defaults, over the Postman collection (v2.1) that Postman's own converter, openapi-to-postmanv2 6.3.3
    (`openapi2postmanv2 -s spec -o collection.json`, defaults; it reads Swagger 2.0 and OpenAPI 3.x), writes
    from the spec: the page of an API documented as a Postman collection. The Markdown is turned into HTML by
    marked 18.2.1 as for widdershins. The converter fills request and response bodies with values drawn by
    its schema faker from `Math.random`, so it runs with renderers/postman-to-markdown/seed.js preloaded (a
    seeded `Math.random`), and a re-render is the same. Two mends of the collection, each because the command
    draws nothing of it otherwise (`_postman_as_exported`): each URL's `raw` string, as Postman's app writes it on
    export (the converter writes the parts only, and the command draws `raw` alone), and an empty `header` list
    where a request has none (read unguarded). Pinned in
    renderers/postman-to-markdown (package.json and its lock: the converter, postman-to-markdown and marked).
    Added in issue 17's thirty-second round as a fresh held-out renderer."""
    modules = POSTMAN_TO_MARKDOWN / "node_modules"
    collection = work / "collection.json"
    subprocess.run(
        [
            "node",
            "-r",
            str(POSTMAN_TO_MARKDOWN / "seed.js"),
            str(modules / "openapi-to-postmanv2" / "bin" / "openapi2postmanv2.js"),
            "-s",
            str(spec),
            "-o",
            str(collection),
        ],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
        cwd=work,
    )
    if not collection.exists():  # it reports a refused spec but may exit 0
        raise subprocess.CalledProcessError(1, "openapi2postmanv2", stderr=b"no collection written")
    collection.write_text(json.dumps(_postman_as_exported(json.loads(collection.read_text("utf-8")))), "utf-8")
    subprocess.run(  # in `work`, by a bare name: it writes NAME.md beside the collection, NAME its name up to a dot
        ["node", str(modules / "postman-to-markdown" / "bin" / "global.js"), collection.name],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
        cwd=work,
    )
    markdown = work / "collection.md"
    title = re.search(r"^# (.+)$", markdown.read_text(encoding="utf-8"), re.M)
    _markdown_page(markdown, title.group(1).strip() if title else spec.stem, out, work, modules / ".bin" / "marked")


def _server_variables_filled(data: dict) -> dict:
    """The spec with each server URL's variables filled in with their defaults and the `variables` dropped, as a
    client fills them by default (uspto's `{scheme}://developer.uspto.gov/ds-api` is
    `https://developer.uspto.gov/ds-api`): oas3-mdx 0.4.7's cURL sample (openapi-snippet's HAR) refuses a URL with a
    template in its scheme and fails the whole spec, and its validator refuses a URL that declares variables it
    does not hold. Root, path-item and operation servers alike; nothing else changes."""
    out = copy.deepcopy(data)
    holders = [out, *(out.get("paths") or {}).values()]
    holders += [op for item in list(holders[1:]) if isinstance(item, dict) for op in item.values()]
    for holder in holders:
        for server in (holder.get("servers") or []) if isinstance(holder, dict) else []:
            if isinstance(server, dict) and isinstance(server.get("variables"), dict):
                variables = server.pop("variables")
                server["url"] = re.sub(
                    r"\{([^{}]+)\}",
                    lambda m, v=variables: str((v.get(m.group(1)) or {}).get("default", m.group(0))),
                    str(server.get("url", "")),
                )
    return out


def render_oas3_mdx(spec: Path, out: Path, work: Path) -> None:
    """oas3-mdx 0.4.7 (npm `@synx-ai/oas3-mdx`, Carlos Rivera's "convert OpenAPI v3 spec into a directory of
    markdown files based on your spec paths ... to integrate them into static site generators": one Handlebars
    template of its own, `path.hdb`, filled once per operation, its bodies and responses drawn as examples that
    openapi-sampler makes, a cURL sample by openapi-snippet, each file formatted by prettier), its command with its
    defaults (the `mdx` parser and extension, the `shell` sample; `--templates` names the package's own templates,
    which its command's default looks for beside the working directory). Each operation's file is read in the
    spec's order, its front matter (`id`, `slug`: the site's metadata, never shown) dropped, and the files joined
    into one page turned into HTML by marked 18.2.1 as for widdershins. It reads OpenAPI 3 only, so a Swagger 2
    spec goes through api-spec-converter 2.12.0 (swagger_2 → openapi_3) first, and it validates the spec with
    oas-validator (its loader is openapi3-generator's, refactored) and refuses the whole file on one slip, so it
    reads the copy mended as for openapi3-generator (`_oas_validator_valid`); one more mend, because it renders
    nothing otherwise: each server URL's variables filled in with their defaults (`_server_variables_filled`). The
    truth stays the original. It prints a refused spec on stderr and exits 0, so an error printed, or no file
    written, is a failure here.
    Pinned in renderers/oas3-mdx (package.json and its lock: oas3-mdx, the converter and marked). Added in issue
    17's thirty-seventh round as a fresh held-out renderer: its pages were committed unread."""
    modules = OAS3_MDX / "node_modules"
    data = _read_spec(spec)
    converted = _openapi_3(spec, data, modules / ".bin" / "api-spec-converter")
    mended = _server_variables_filled(_oas_validator_valid(converted))
    source = work / "spec.json"
    source.write_text(json.dumps(mended), encoding="utf-8")
    package = modules / "@synx-ai" / "oas3-mdx"
    site = work / "site"
    done = subprocess.run(
        ["node", str(package / "dist" / "cli.js"), "--spec", str(source), "--target", str(site),
         "--templates", str(package / "templates")],  # fmt: skip
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
        cwd=work,
    )
    files = [
        site / f"{path.lstrip('/')}" / f"{method}.mdx"
        for path, item in (mended.get("paths") or {}).items()
        if isinstance(item, dict)
        for method in item
    ]
    if b"went wrong" in done.stderr or not any(f.exists() for f in files):  # it exits 0 on a refused spec
        raise subprocess.CalledProcessError(1, "oas3-mdx", stderr=done.stderr or b"no file written")
    markdown = work / "page.md"
    markdown.write_text(
        "\n\n".join(_FRONT_MATTER.sub("", f.read_text(encoding="utf-8")) for f in files if f.exists()),
        encoding="utf-8",
    )
    _markdown_page(markdown, _spec_title(data, spec), out, work, modules / ".bin" / "marked")



def _numbers_unquoted(value: object) -> object:
    """A quoted `default` of a numeric schema ("20" for an integer, Spotify's) as the number it quotes."""
    if isinstance(value, list):
        return [_numbers_unquoted(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _numbers_unquoted(v) for k, v in value.items()}
    if out.get("type") in ("integer", "number") and isinstance(out.get("default"), str):
        try:
            out["default"] = json.loads(out["default"])
        except ValueError:
            pass
    return out


def _oas_validator_valid(data: dict) -> dict:
    """An OpenAPI 3 document as openapi3-generator's validator (oas-validator) accepts it: what
    `_openapi_3_valid` mends for Diplodoc (`x-` extensions, TMDB's `cache`, quoted booleans and numbers), a
    quoted numeric `default` (Spotify's), an OpenAPI 3.1 document labelled 3.0.3 (Investment, tictactoe: it
    refuses any other version; neither uses what 3.1 adds), and `x-hasEquivalentPaths`, the validator's own
    switch for paths that differ only in their parameters' names (healthcare.gov's `/es/{pageName}` and
    `/es/{stateName}`). Nothing an operation documents is dropped."""
    out = _numbers_unquoted(_openapi_3_valid(data))
    assert isinstance(out, dict)
    if str(out.get("openapi", "")).startswith("3.1"):
        out["openapi"] = "3.0.3"
    out["x-hasEquivalentPaths"] = True
    return out


_STARLIGHT_CONFIG = """import starlight from '@astrojs/starlight'
import {{ defineConfig }} from 'astro/config'
import starlightOpenAPI, {{ openAPISidebarGroups }} from 'starlight-openapi'

export default defineConfig({{
  integrations: [
    starlight({{
      plugins: [starlightOpenAPI([{{ base: 'api', schema: './{spec}' }}])],
      sidebar: [...openAPISidebarGroups],
      title: {title},
    }}),
  ],
}})
"""
_STARLIGHT_CONTENT = """import {{ defineCollection }} from 'astro:content'
import {{ docsLoader }} from '@astrojs/starlight/loaders'
import {{ docsSchema }} from '@astrojs/starlight/schema'

export const collections = {{ docs: defineCollection({{ loader: docsLoader(), schema: docsSchema() }}) }}
"""


def render_starlight(spec: Path, out: Path, work: Path) -> None:
    """Astro 5.18.2's Starlight 0.37.7 documentation theme with the starlight-openapi 0.22.0 plugin (a
    docs site built by Astro, static pages rendered at build time: an overview page and one page per
    operation), pinned in a tree of their own, renderers/starlight. The site is built inside that tree
    (Astro compiles the plugin's components only under the project that resolves them) and removed after.
    Its pages are joined into one: each page's `main` (the sidebar, the same list of operations on every
    page, and the search box are site chrome), the overview first, then the pages in the order the
    overview links them. Added in issue 17's eighth round as a fresh held-out renderer."""
    import lxml.html

    data = _read_spec(spec)
    with tempfile.TemporaryDirectory(dir=STARLIGHT, prefix="site-") as site_dir:
        site = Path(site_dir)
        (site / "src" / "content" / "docs").mkdir(parents=True)
        # `x-` extensions dropped, as for Sphinx: Spotify's point at a file that is not there
        (site / "spec.json").write_text(json.dumps(_without_extensions(data)), encoding="utf-8")
        title = _spec_title(data, spec)
        (site / "astro.config.mjs").write_text(
            _STARLIGHT_CONFIG.format(spec="spec.json", title=json.dumps(title)), encoding="utf-8"
        )
        (site / "src" / "content.config.ts").write_text(_STARLIGHT_CONTENT.format(), encoding="utf-8")
        (site / "src" / "content" / "docs" / "index.md").write_text(
            f"---\ntitle: {json.dumps(title)}\n---\n", encoding="utf-8"
        )
        (site / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
        subprocess.run(
            ["node", str(STARLIGHT / "node_modules" / "astro" / "astro.js"), "build"],
            check=True,
            capture_output=True,
            timeout=CHROMIUM_TIMEOUT_S,
            cwd=site,
            env={**os.environ, "ASTRO_TELEMETRY_DISABLED": "1"},
        )
        api = site / "dist" / "api"
        pages = [api / "index.html"]
        overview = lxml.html.parse(str(pages[0])).getroot()
        for href in overview.xpath("//a/@href"):
            target = urljoin("/api/", href).split("#")[0].split("?")[0].strip("/")
            page = (site / "dist" / target / "index.html").resolve()
            if page.is_relative_to(api) and page.exists() and page not in pages:
                pages.append(page)
        pages += sorted(set(api.rglob("index.html")) - set(pages))
        parts = []
        for page in pages:
            root = lxml.html.parse(str(page)).getroot()
            main = root.find(".//main")
            parts.append(lxml.html.tostring(main if main is not None else root.body, encoding="unicode"))
    body = "\n".join(parts)
    dom = _PAGE.format(title=html_escape(title), body=body)
    out.write_text(strip_page(dom, work), encoding="utf-8")


def render_raml2html(spec: Path, out: Path, work: Path) -> None:
    """raml2html 7.8.0 (its default theme: Nunjucks templates over Bootstrap, a static page) over the RAML
    1.0 that MuleSoft's oas-raml-converter 1.1.43 writes from Swagger 2.0 (OpenAPI 3 specs through
    api-spec-converter first, as for bootprint); the pages of sites written in RAML look so. A description
    language of its own, like aglio's API Blueprint. Pinned in a tree of its own, renderers/raml2html.
    Added in issue 17's eleventh round as a fresh held-out renderer (measured once with the rules
    untouched, before its pages were read)."""
    modules = RAML2HTML / "node_modules"
    cleaned = work / "cleaned.json"  # Spotify's `x-` refs point at a file that is not there
    cleaned.write_text(json.dumps(_renderable(_read_spec(spec))), encoding="utf-8")
    converted = _swagger_2(cleaned, work, converter=modules / ".bin" / "api-spec-converter")
    swagger = work / "swagger-valid.json"  # the converter throws on a body parameter with no schema
    swagger.write_text(json.dumps(_swagger_2_valid(_read_spec(converted))), encoding="utf-8")
    converter = modules / "oas-raml-converter" / "lib" / "bin" / "converter.js"  # its shebang wants `node --harmony`
    done = subprocess.run(
        ["node", str(converter), "--from", "OAS20", "--to", "RAML", str(swagger)],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    raml = work / "api.raml"
    raml.write_bytes(done.stdout)
    (work / "site").mkdir()
    subprocess.run(
        [str(modules / ".bin" / "raml2html"), "-i", str(raml), "-o", str(work / "site" / "index.html")],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )
    _write_site(work, out)


_DOCUSAURUS_CONFIG = """module.exports = {{
  title: "API documentation",
  url: "http://localhost",
  baseUrl: "/",
  onBrokenLinks: "ignore",
  presets: [["classic", {{
    docs: {{ sidebarPath: require.resolve("./sidebars.ts"), docItemComponent: "@theme/ApiItem" }},
    blog: false,
    pages: false,
  }}]],
  plugins: [["docusaurus-plugin-openapi-docs", {{
    id: "openapi",
    docsPluginId: "classic",
    config: {apis},
  }}]],
  themes: ["docusaurus-theme-openapi-docs"],
}};
"""


def render_docusaurus(jobs: list[tuple[Path, Path]], work: Path) -> list[str]:
    """Docusaurus 3.5.2 (classic preset) with docusaurus-plugin-openapi-docs 4.1.0 and its theme: the plugin
    writes one MDX page per operation (and an overview page) for each spec, Docusaurus renders them to
    static pages at build time (no browser); pinned in a tree of their own, renderers/docusaurus. Each
    (spec, page) job is one API of a single site (one webpack build for all: a build takes over a minute
    however small the spec), in a folder and a sidebar of its own; the site is built inside the renderer's
    tree (the theme's modules resolve only under it) and removed after. A spec's pages are joined into one
    benchmark page: each page's `article` (the sidebar, the table of contents, the navigation bar and the
    client-only "Send API Request" panel are site chrome), in the order its sidebar lists them (every
    category open). Returns the failures. Added in issue 17's ninth round as a fresh held-out renderer."""
    import lxml.html

    docusaurus = ["node", str(DOCUSAURUS / "node_modules" / "@docusaurus" / "core" / "bin" / "docusaurus.mjs")]
    env = {**os.environ, "DOCUSAURUS_TELEMETRY": "0"}
    failures = []
    with tempfile.TemporaryDirectory(dir=DOCUSAURUS, prefix="site-") as site_dir:
        site = Path(site_dir)
        (site / "docs").mkdir()
        (site / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        apis, titles = {}, {}
        for index, (spec, _) in enumerate(jobs):
            data = _read_spec(spec)
            # `x-` extensions dropped, as for Sphinx and Starlight: Spotify's point at a file that is not there
            named = _operations_named(_without_extensions(data))
            (site / f"s{index:02d}.json").write_text(json.dumps(named), encoding="utf-8")
            apis[f"s{index:02d}"] = {
                "specPath": f"s{index:02d}.json",
                "outputDir": f"docs/s{index:02d}",
                "sidebarOptions": {"groupPathsBy": "tag", "sidebarCollapsed": False},
            }
            titles[f"s{index:02d}"] = _spec_title(data, spec)
        (site / "docusaurus.config.js").write_text(
            _DOCUSAURUS_CONFIG.format(apis=json.dumps(apis, indent=2)), encoding="utf-8"
        )
        (site / "sidebars.ts").write_text("export default {};\n", encoding="utf-8")  # the config requires it
        built = {}
        for key, (_, page) in zip(apis, jobs, strict=True):
            try:
                subprocess.run(docusaurus + ["gen-api-docs", key], check=True, capture_output=True,
                               timeout=CHROMIUM_TIMEOUT_S, cwd=site, env=env)  # fmt: skip
                built[key] = page
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                failures.append(f"{page.stem}: {(exc.stderr or b'').decode()[-300:]}")
                shutil.rmtree(site / "docs" / key, ignore_errors=True)
        # the plugin writes each API's sidebar as a TypeScript module; Docusaurus loads sidebars.ts itself
        imports = "".join(f'import {key} from "./docs/{key}/sidebar";\n' for key in built)
        (site / "sidebars.ts").write_text(f"{imports}\nexport default {{ {', '.join(built)} }};\n", encoding="utf-8")
        subprocess.run(docusaurus + ["build", "--no-minify"], check=True, capture_output=True,
                       timeout=3 * CHROMIUM_TIMEOUT_S, cwd=site, env=env)  # fmt: skip
        for key, page in built.items():
            folder = site / "build" / "docs" / key
            found = sorted(folder.rglob("index.html"))
            pages = []
            for href in lxml.html.parse(str(found[0])).getroot().xpath("//nav//a/@href"):
                target = urljoin(f"/docs/{key}/", href).split("#")[0].split("?")[0].strip("/")
                path = (site / "build" / target / "index.html").resolve()
                if path.is_relative_to(folder) and path.exists() and path not in pages:
                    pages.append(path)
            pages += [path for path in found if path not in pages]
            parts = []
            for path in pages:
                root = lxml.html.parse(str(path)).getroot()
                article = root.find(".//article")
                parts.append(lxml.html.tostring(article if article is not None else root.body, encoding="unicode"))
            dom = _PAGE.format(title=html_escape(titles[key]), body="\n".join(parts))
            page.write_text(strip_page(dom, work), encoding="utf-8")
    return failures


_VITEPRESS_THEME = """import DefaultTheme from "vitepress/theme"
import {{ theme }} from "vitepress-openapi/client"
import "vitepress-openapi/dist/style.css"

export default {{
  extends: DefaultTheme,
  enhanceApp({{ app }}) {{ theme.enhanceApp({{ app }}) }},
}}
"""
_VITEPRESS_PAGE = """---
aside: false
outline: false
---
<script setup>
import spec from "./{key}.json"
</script>

<OASpec :spec="spec" />
"""


def render_vitepress(jobs: list[tuple[Path, Path]], work: Path) -> list[str]:
    """VitePress 1.6.4 (Vue's static-site generator; its default theme) with the vitepress-openapi 0.2.1
    theme: a Markdown page holding `<OASpec :spec="spec" />`, rendered by Vue on the server at build time
    (no browser), the component's defaults otherwise (info, servers, every operation grouped by tag);
    pinned in a tree of its own, renderers/vitepress. One site for all 38 specs, a page each (one Vite
    build: its fixed cost is most of the time), built inside the renderer's tree (the theme's modules
    resolve only under it) and removed after. vitepress-openapi reads OpenAPI 3 only, so Swagger 2.0
    specs go through api-spec-converter 2.12.0 (swagger_2 -> openapi_3) from the same tree first, as for
    MkDocs. Each benchmark page is the built page's `main` (the navigation bar is site chrome). Added in
    issue 17's tenth round as a fresh held-out renderer."""
    import lxml.html

    converter = VITEPRESS / "node_modules" / ".bin" / "api-spec-converter"
    failures, built = [], {}
    with tempfile.TemporaryDirectory(dir=VITEPRESS, prefix="site-") as site_dir:
        site = Path(site_dir)
        (site / ".vitepress" / "theme").mkdir(parents=True)
        (site / ".vitepress" / "config.mjs").write_text('export default { title: "API documentation" };\n', encoding="utf-8")
        (site / ".vitepress" / "theme" / "index.js").write_text(_VITEPRESS_THEME.format(), encoding="utf-8")
        (site / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
        for index, (spec, page) in enumerate(jobs):
            key = f"s{index:02d}"
            data = _read_spec(spec)
            try:
                data = _openapi_3(spec, data, converter, CHROMIUM_TIMEOUT_S)
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                failures.append(f"{page.stem}: {(exc.stderr or b'').decode()[-300:]}")
                continue
            # `x-` extensions dropped, as for Sphinx, Starlight and Docusaurus: Spotify's point at a missing file
            (site / f"{key}.json").write_text(json.dumps(_without_extensions(data)), encoding="utf-8")
            (site / f"{key}.md").write_text(_VITEPRESS_PAGE.format(key=key), encoding="utf-8")
            built[key] = (page, _spec_title(_read_spec(spec), spec))
        subprocess.run(
            ["node", str(VITEPRESS / "node_modules" / "vitepress" / "bin" / "vitepress.js"), "build"],
            check=True,
            capture_output=True,
            timeout=3 * CHROMIUM_TIMEOUT_S,
            cwd=site,
        )
        for key, (page, title) in built.items():
            root = lxml.html.parse(str(site / ".vitepress" / "dist" / f"{key}.html")).getroot()
            main = root.find(".//main")
            body = lxml.html.tostring(main if main is not None else root.body, encoding="unicode")
            page.write_text(strip_page(_PAGE.format(title=html_escape(title), body=body), work), encoding="utf-8")
    return failures


_ZUDOKU_CONFIG = """import type {{ ZudokuConfig }} from "zudoku";
const config: ZudokuConfig = {{
  site: {{ title: "API documentation" }},
  navigation: [{navigation}],
  apis: [{apis}],
}};
export default config;
"""


def render_zudoku(jobs: list[tuple[Path, Path]], work: Path) -> list[str]:
    """Zudoku 0.76.0 (Zuplo's open-source API documentation framework: React pages built by Vite and
    prerendered to static HTML at build time, no browser), its defaults otherwise: per API an overview
    page, a page per tag (untagged operations on one "endpoints" page) and a schemas page; pinned in a
    tree of its own, renderers/zudoku. One site for all 38 specs, an API each under its own path (one Vite
    build: its fixed cost is most of the time), built inside the renderer's tree and removed after; the
    update check and telemetry are off (nothing is fetched). Each benchmark page joins one API's pages,
    each page's `main` (the header and sidebar are site chrome), the overview first, then the pages in
    the order the overview's navigation links them. Added in issue 17's twelfth round as a fresh held-out
    renderer."""
    import lxml.html

    failures, built = [], {}
    with tempfile.TemporaryDirectory(dir=ZUDOKU, prefix="site-") as site_dir:
        site = Path(site_dir)
        for index, (spec, page) in enumerate(jobs):
            key = f"s{index:02d}"
            # `x-` extensions dropped, as for Sphinx, Starlight, Docusaurus and VitePress; quoted booleans
            # mended as for aglio, and OpenAPI 3's `explode` (its GraphQL layer fails the whole build on Spotify's
            # `required: "true"` and `explode: "false"`)
            data = _unquoted(_schema_valid(_without_extensions(_read_spec(spec))), {"explode", "allowReserved"})
            (site / f"{key}.json").write_text(json.dumps(data), encoding="utf-8")
            built[key] = (page, _spec_title(_read_spec(spec), spec))
        navigation = ", ".join(f'{{ type: "link", to: "/{key}", label: "{key}" }}' for key in built)
        apis = ", ".join(f'{{ type: "file", input: "./{key}.json", path: "/{key}" }}' for key in built)
        (site / "zudoku.config.tsx").write_text(
            _ZUDOKU_CONFIG.format(navigation=navigation, apis=apis), encoding="utf-8"
        )
        (site / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
        subprocess.run(
            ["node", str(ZUDOKU / "node_modules" / "zudoku" / "cli.js"), "build"],
            check=True,
            capture_output=True,
            timeout=3 * CHROMIUM_TIMEOUT_S,
            cwd=site,
            env={**os.environ, "ZUDOKU_DISABLE_UPDATE_CHECK": "1", "ZUDOKU_DO_NOT_TRACK": "1"},
        )
        dist = site / "dist"
        for key, (page, title) in built.items():
            overview = dist / f"{key}.html"
            if not overview.exists():
                failures.append(f"{page.stem}: no page built")
                continue
            pages = [overview]
            for href in lxml.html.parse(str(overview)).getroot().xpath("//a/@href"):
                target = urljoin(f"/{key}", href).split("#")[0].split("?")[0].strip("/")
                linked = (dist / f"{target}.html").resolve()
                if linked.is_relative_to(dist / key) and linked.exists() and linked not in pages:
                    pages.append(linked)
            pages += sorted(set((dist / key).rglob("*.html")) - set(pages))
            parts = []
            for part in pages:
                root = lxml.html.parse(str(part)).getroot()
                main = root.find(".//main")
                parts.append(lxml.html.tostring(main if main is not None else root.body, encoding="unicode"))
            body = "\n".join(parts)
            page.write_text(strip_page(_PAGE.format(title=html_escape(title), body=body), work), encoding="utf-8")
    return failures


_FUMADOCS_FILES = {
    "package.json": '{"private": true, "type": "module"}\n',
    "next.config.mjs": """import path from "node:path";
export default {
  output: "export",
  images: { unoptimized: true },
  turbopack: { root: path.resolve(process.cwd(), "..") },
};
""",
    "lib/openapi.js": """import { createOpenAPI } from "fumadocs-openapi/server";
import specs from "./specs.json";
export const openapi = createOpenAPI({
  input: Object.fromEntries(specs.map((key) => [key, `./specs/${key}.json`])),
});
""",
    "lib/source.js": """import { loader } from "fumadocs-core/source";
import { openapi } from "./openapi.js";
export const source = loader(await openapi.staticSource({ per: "file" }), {
  baseUrl: "/",
  plugins: [openapi.loaderPlugin()],
});
""",
    "components/api-page.jsx": """"use client";
import { createOpenAPIPage } from "fumadocs-openapi/ui";
export const OpenAPIPage = createOpenAPIPage();
""",
    "app/layout.jsx": """import { RootProvider } from "fumadocs-ui/provider/next";
import { DocsLayout } from "fumadocs-ui/layouts/docs";
import { source } from "../lib/source.js";
export default function Layout({ children }) {
  return (
    <html lang="en"><body>
      <RootProvider search={{ enabled: false }}>
        <DocsLayout tree={source.getPageTree()} nav={{ title: "API documentation" }}>{children}</DocsLayout>
      </RootProvider>
    </body></html>
  );
}
""",
    "app/[spec]/page.jsx": """import { DocsPage, DocsTitle, DocsDescription, DocsBody } from "fumadocs-ui/layouts/docs/page";
import { source } from "../../lib/source.js";
import { OpenAPIPage } from "../../components/api-page.jsx";
export const dynamicParams = false;
export function generateStaticParams() {
  return source.getPages().map((page) => ({ spec: page.slugs[0] }));
}
export default async function Page({ params }) {
  const { spec } = await params;
  const page = source.getPage([spec]);
  return (
    <DocsPage toc={page.data.toc}>
      <DocsTitle>{page.data.title}</DocsTitle>
      <DocsDescription>{page.data.description}</DocsDescription>
      <DocsBody><OpenAPIPage {...page.data.getOpenAPIPageProps()} /></DocsBody>
    </DocsPage>
  );
}
""",
}


def render_fumadocs(jobs: list[tuple[Path, Path]], work: Path) -> list[str]:
    """Fumadocs (fumadocs-ui and fumadocs-core 16.15.13, a Next.js 16.4.6 docs site) with fumadocs-openapi
    11.4.3, statically exported (`output: "export"`: React rendered on the server at build time, no
    browser), as its documentation sets one up: an OpenAPI server over the specs (`createOpenAPI`), its
    virtual pages in the docs loader (`staticSource`), the docs layout, and a page per spec (`per: "file"`,
    one of its documented page layouts: every operation of the spec on one page), otherwise defaults.
    Pinned in a tree of its own, renderers/fumadocs. One site for all 38 specs (one Next.js build: its
    fixed cost is most of the time), built inside the renderer's tree and removed after; telemetry is off
    and nothing is fetched. Each benchmark page is one built page's `main` (the sidebar and the header
    are site chrome), with React's streamed parts put where its inline script puts them (`_streamed_in`:
    the page sends a part that suspends, a request body's fields, at the end of the body, and a one-line
    script moves it into place; the scripts are dropped from the kept page). Swagger 2 specs are read as
    they are (it upgrades them itself). Added in issue 17's fourteenth round as a fresh held-out renderer."""
    import lxml.html

    failures, built = [], {}
    with tempfile.TemporaryDirectory(dir=FUMADOCS, prefix="site-") as site_dir:
        site = Path(site_dir)
        for name, text in _FUMADOCS_FILES.items():
            (site / name).parent.mkdir(parents=True, exist_ok=True)
            (site / name).write_text(text, encoding="utf-8")
        (site / "specs").mkdir()
        for index, (spec, page) in enumerate(jobs):
            key = f"s{index:02d}"
            # `x-` extensions dropped, as for Sphinx, Starlight, Docusaurus, VitePress and Zudoku (its bundler
            # fails the whole build on Spotify's, which point at a file that is not there); a quoted
            # `additionalProperties` ("true", Spotify's) as the boolean it quotes (its schema view fails the
            # build on a schema that is a string)
            data = _unquoted(_without_extensions(_read_spec(spec)), {"additionalProperties"})
            (site / "specs" / f"{key}.json").write_text(json.dumps(data), encoding="utf-8")
            built[key] = (page, _spec_title(data, spec))
        (site / "lib" / "specs.json").write_text(json.dumps(list(built)), encoding="utf-8")
        subprocess.run(
            ["node", str(FUMADOCS / "node_modules" / "next" / "dist" / "bin" / "next"), "build"],
            check=True,
            capture_output=True,
            timeout=3 * CHROMIUM_TIMEOUT_S,
            cwd=site,
            env={**os.environ, "NEXT_TELEMETRY_DISABLED": "1"},
        )
        for key, (page, title) in built.items():
            exported = site / "out" / f"{key}.html"
            if not exported.exists():
                failures.append(f"{page.stem}: no page built")
                continue
            text = exported.read_text(encoding="utf-8")
            root = lxml.html.document_fromstring(text)
            _streamed_in(root, text)
            main = root.find(".//main")
            body = lxml.html.tostring(main if main is not None else root.body, encoding="unicode")
            page.write_text(strip_page(_PAGE.format(title=html_escape(title), body=body), work), encoding="utf-8")
    return failures


_REACT_MOVES = re.compile(r'\$R([CS])\("([^"]+)","([^"]+)"\)')


def _streamed_in(root: object, text: str) -> None:
    """React's streamed parts put in place, as its inline script does in a browser: `$RC("B:0","S:0")` puts
    the hidden `div#S:0` where the boundary `template#B:0` holds its fallback (the fallback, up to the
    boundary's closing comment, goes), `$RS("S:1","P:1")` puts `div#S:1` where `template#P:1` stands."""
    import lxml.etree

    ids = {element.get("id"): element for element in root.iter() if element.get("id")}  # type: ignore[attr-defined]
    for kind, first, second in _REACT_MOVES.findall(text):
        marker, content = (ids.get(first), ids.get(second)) if kind == "C" else (ids.get(second), ids.get(first))
        if marker is None or content is None or marker.getparent() is None:
            continue
        parent = marker.getparent()
        if kind == "C":  # the fallback after the marker, up to the boundary's closing comment, goes
            depth, sibling = 0, marker.getnext()
            while sibling is not None:
                following = sibling.getnext()
                if isinstance(sibling, lxml.etree._Comment):
                    if sibling.text in ("/$", "/&"):
                        if depth == 0:
                            break
                        depth -= 1
                    elif sibling.text in ("$", "$?", "$!", "$~", "&"):
                        depth += 1
                parent.remove(sibling)  # its tail goes with it: text of the fallback
                sibling = following
        position = parent.index(marker)
        for offset, child in enumerate(list(content)):
            parent.insert(position + offset, child)
        if content.text and content.text.strip():
            previous = parent[position - 1] if position else None
            if previous is None:
                parent.text = (parent.text or "") + content.text
            else:
                previous.tail = (previous.tail or "") + content.text
        marker.drop_tree()
        if content.getparent() is not None:
            content.drop_tree()


def _operations_named(data: dict) -> dict:
    """The spec with an operationId, made as code generators make one (the method, then the path's words:
    `getComicsComicId`), on each operation that has neither an operationId nor a summary, and without
    empty summaries (Twilio's `"summary": ""`, which show nothing): the plugin names each operation's page
    and sidebar entry after its summary, else its operationId, so such operations (all of Buffer's,
    healthcare.gov's, xkcd's and NYTimes movie reviews') would share one empty page name, and an empty
    summary makes an empty sidebar label; either fails the build."""
    for path, item in (data.get("paths") or {}).items():
        for method, operation in (item or {}).items():
            if method in _ITEM_KEYS and isinstance(operation, dict):
                if not str(operation.get("summary") or "").strip():
                    operation.pop("summary", None)
                if not operation.get("operationId") and not operation.get("summary"):
                    words = re.findall(r"[A-Za-z0-9]+", path)
                    operation["operationId"] = method + "".join(word[:1].upper() + word[1:] for word in words)
    return data


def _openapi_generator(generator: str, spec: Path, work: Path) -> None:
    """One openapi-generator generator over the spec into `work/site` (the spec is not validated first:
    several real specs would be refused for warnings a renderer can live with)."""
    subprocess.run(
        [str(OPENAPI_GENERATOR), "generate", "-g", generator, "-i", str(spec), "-o", str(work / "site"),
         "--skip-validate-spec"],
        check=True,
        capture_output=True,
        timeout=CHROMIUM_TIMEOUT_S,
    )  # fmt: skip


def _squeeze_whitespace(root: object) -> None:
    """Runs of whitespace outside `pre` as one space: a reader (and the crawler, which splits text on
    whitespace) sees no difference, and template indentation was nine tenths of bootprint's bytes."""
    kept = {node for pre in root.iter("pre", "textarea") for node in pre.iter()}  # type: ignore[attr-defined]
    for element in root.iter():  # type: ignore[attr-defined]
        if element not in kept and element.text:
            element.text = _WHITESPACE.sub(" ", element.text)
        if element.getparent() not in kept and element.tail:
            element.tail = _WHITESPACE.sub(" ", element.tail)


_ITEM_KEYS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
_SPHINX_CONF = """project = {title!r}
extensions = ["sphinxcontrib.openapi"]
html_theme = "alabaster"
openapi_default_renderer = "httpdomain"
"""


def render_sphinx(spec: Path, out: Path, work: Path, sphinx_build: Path = SPHINX_BUILD) -> None:
    """One reStructuredText page holding `.. openapi::`, built by Sphinx's HTML builder, kept whole."""
    source = work / "src"
    source.mkdir()
    data = _read_spec(spec)
    (source / "spec.json").write_text(json.dumps(_renderable(data)), encoding="utf-8")
    title = _spec_title(data, spec)
    (source / "conf.py").write_text(_SPHINX_CONF.format(title=title), encoding="utf-8")
    rule = "=" * max(len(title), 3)
    (source / "index.rst").write_text(f"{title}\n{rule}\n\n.. openapi:: spec.json\n", encoding="utf-8")
    # -q: the renderer warns on every `default` status (httpdomain wants numbers); the page still builds.
    subprocess.run(
        [str(sphinx_build), "-q", "-b", "html", str(source), str(work / "html")],
        check=True,
        capture_output=True,
    )
    shutil.copyfile(work / "html" / "index.html", out)


def _read_spec(spec: Path) -> dict:
    import yaml

    text = spec.read_text(encoding="utf-8")
    return json.loads(text) if spec.suffix == ".json" else _dates_as_text(yaml.safe_load(text))


def _dates_as_text(node: object) -> object:
    """YAML 1.1 reads `2024-01-01` as a date; the spec means the text (and JSON cannot hold a date)."""
    if isinstance(node, dict):
        return {key: _dates_as_text(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_dates_as_text(value) for value in node]
    return node.isoformat() if isinstance(node, (datetime.date, datetime.datetime)) else node


def _spec_title(data: dict, spec: Path) -> str:
    """`info.title` on one line, else the file's name."""
    info = data.get("info") if isinstance(data.get("info"), dict) else {}
    return " ".join(str(info.get("title") or "").split()) or spec.stem


def _renderable(data: dict) -> dict:
    """The spec less what sphinxcontrib-openapi 0.10.0 crashes on, none of it an operation or a field:
    `x-` extensions (Spotify's point at a file that is not there) and path-item keys other than
    methods and `parameters` (Twilio's `servers` and `description`: the renderer takes every
    path-item key for a method)."""
    out = _without_extensions(data)
    out["paths"] = _method_items(out)
    return out


def _method_items(data: dict) -> dict:
    """The spec's paths, each path item less its keys other than methods and `parameters` (`servers`,
    `description`, `summary`, `x-`), which several renderers take for methods or refuse."""
    return {
        path: {k: v for k, v in item.items() if k in _ITEM_KEYS or k == "parameters"}
        for path, item in (data.get("paths") or {}).items()
        if isinstance(item, dict)
    }


def _responses(data: dict) -> list[dict]:
    """Every response object of a spec: its shared `responses` and each operation's (to mend in place)."""
    found = [*(data.get("responses") or {}).values()]
    for item in (data.get("paths") or {}).values():
        for key, operation in item.items():
            if key in _ITEM_KEYS and isinstance(operation, dict):
                found += [*(operation.get("responses") or {}).values()]
    return [response for response in found if isinstance(response, dict)]


def _without_extensions(value: object, *, names: bool = False) -> object:
    """`x-` keys dropped at every level; the keys of `properties` are field names and stay."""
    if isinstance(value, list):
        return [_without_extensions(v) for v in value]
    if not isinstance(value, dict):
        return value
    return {
        k: _without_extensions(v, names=k == "properties" and not names)
        for k, v in value.items()
        if names or not k.startswith("x-")
    }


RENDER = {
    "widdershins": render_widdershins,
    "redoc": render_redoc,
    "sphinx": render_sphinx,
    "openapi-to-md": render_openapi_to_md,
    "swagger-ui": render_swagger_ui,
    "scalar": render_scalar,
    "rapidoc": render_rapidoc,
    "bootprint": render_bootprint,
    "openapi-generator": render_openapi_generator,
    "openapi-generator-html": render_openapi_generator_html,
    "asciidoc": render_asciidoc,
    "mkdocs": render_mkdocs,
    "openapi-generator-markdown": render_openapi_generator_markdown,
    "spectacle": render_spectacle,
    "openapi2html": render_openapi2html,
    "aglio": render_aglio,
    "starlight": render_starlight,
    "raml2html": render_raml2html,
    "elements": render_elements,
    "kong": render_kong,
    "diplodoc": render_diplodoc,
    "owl-api": render_owl_api,
    "scalar-markdown": render_scalar_markdown,
    "flexdoc": render_flexdoc,
    "nadoc": render_nadoc,
    "openapi3-generator": render_openapi3_generator,
    "pretty-swag": render_pretty_swag,
    "openapi-to-asciidoc": render_openapi_to_asciidoc,
    "swagger2rst": render_swagger2rst,
    "openapi-markdown": render_openapi_markdown,
    "swagger-render": render_swagger_render,
    "swagger-markdown": render_swagger_markdown,
    "postman-to-markdown": render_postman_to_markdown,
    "oas3-mdx": render_oas3_mdx,
}
# renderers that build one site for every spec at once (a build's fixed cost is most of its time)
RENDER_ALL = {
    "docusaurus": render_docusaurus,
    "vitepress": render_vitepress,
    "zudoku": render_zudoku,
    "fumadocs": render_fumadocs,
}


class Needs(NamedTuple):
    """What a renderer needs installed: its pinned tool, the program that runs it, how to install both."""

    tool: Path
    runtime: str | None
    install: str


_NPM_CI = "cd benchmarks/crawl/renderers && npm ci"
_IN_CHROMIUM = f"{_NPM_CI} (and Debian's chromium)"
_OPENAPI_GENERATOR_PIP = "see requirements-openapi-generator.txt in benchmarks/crawl/renderers"
NEEDS = {
    "openapi-to-md": Needs(BIN / "openapi-to-md", "node", _NPM_CI),
    "widdershins": Needs(BIN / "widdershins", "node", _NPM_CI),
    "redoc": Needs(BIN / "redoc-cli", "node", _NPM_CI),
    "sphinx": Needs(SPHINX_BUILD, None, "see requirements-sphinx.txt in benchmarks/crawl/renderers"),
    "swagger-ui": Needs(MODULES / "swagger-ui-dist" / "swagger-ui-bundle.js", "chromium", _IN_CHROMIUM),
    "scalar": Needs(MODULES / "@scalar" / "api-reference" / "package.json", "chromium", _IN_CHROMIUM),
    "rapidoc": Needs(MODULES / "rapidoc" / "dist" / "rapidoc-min.js", "chromium", _IN_CHROMIUM),
    "bootprint": Needs(BIN / "bootprint", "node", _NPM_CI),
    "openapi-generator": Needs(OPENAPI_GENERATOR, "java", _OPENAPI_GENERATOR_PIP),
    "openapi-generator-html": Needs(OPENAPI_GENERATOR, "java", _OPENAPI_GENERATOR_PIP),
    "asciidoc": Needs(BIN / "asciidoctor", "java", f"{_OPENAPI_GENERATOR_PIP}; {_NPM_CI}"),
    "openapi-generator-markdown": Needs(OPENAPI_GENERATOR, "java", f"{_OPENAPI_GENERATOR_PIP}; {_NPM_CI}"),
    "spectacle": Needs(BIN / "spectacle", "node", _NPM_CI),
    "openapi2html": Needs(
        OPENAPI2HTML / "node_modules" / "openapi2html" / "package.json",
        "node",
        f"{_NPM_CI}; cd benchmarks/crawl/renderers/openapi2html && npm ci",
    ),
    "aglio": Needs(
        AGLIO / "node_modules" / ".bin" / "aglio",
        "node",
        f"{_NPM_CI}; cd benchmarks/crawl/renderers/aglio && npm ci",
    ),
    "starlight": Needs(
        STARLIGHT / "node_modules" / "astro" / "astro.js",
        "node",
        "cd benchmarks/crawl/renderers/starlight && npm ci",
    ),
    "docusaurus": Needs(
        DOCUSAURUS / "node_modules" / "@docusaurus" / "core" / "bin" / "docusaurus.mjs",
        "node",
        "cd benchmarks/crawl/renderers/docusaurus && npm ci",
    ),
    "vitepress": Needs(
        VITEPRESS / "node_modules" / "vitepress" / "bin" / "vitepress.js",
        "node",
        "cd benchmarks/crawl/renderers/vitepress && npm ci",
    ),
    "raml2html": Needs(
        RAML2HTML / "node_modules" / ".bin" / "raml2html",
        "node",
        "cd benchmarks/crawl/renderers/raml2html && npm ci",
    ),
    "zudoku": Needs(
        ZUDOKU / "node_modules" / "zudoku" / "cli.js",
        "node",
        "cd benchmarks/crawl/renderers/zudoku && npm ci",
    ),
    "elements": Needs(
        ELEMENTS / "node_modules" / "@stoplight" / "elements" / "web-components.min.js",
        "chromium",
        "cd benchmarks/crawl/renderers/elements && npm ci (and Debian's chromium)",
    ),
    "kong": Needs(
        KONG / "node_modules" / "@kong" / "spec-renderer" / "dist" / "kong-spec-renderer.web-component.umd.js",
        "chromium",
        "cd benchmarks/crawl/renderers/kong && npm ci (and Debian's chromium)",
    ),
    "diplodoc": Needs(
        DIPLODOC / "node_modules" / ".bin" / "yfm",
        "chromium",
        "cd benchmarks/crawl/renderers/diplodoc && npm ci (and Debian's chromium)",
    ),
    "fumadocs": Needs(
        FUMADOCS / "node_modules" / "next" / "dist" / "bin" / "next",
        "node",
        "cd benchmarks/crawl/renderers/fumadocs && npm ci",
    ),
    "mkdocs": Needs(MKDOCS, "node", f"see requirements-mkdocs.txt in benchmarks/crawl/renderers; {_NPM_CI}"),
    "owl-api": Needs(
        OWL_API_MKDOCS,
        "node",
        "see requirements.txt in benchmarks/crawl/renderers/owl-api; cd benchmarks/crawl/renderers/owl-api && npm ci",
    ),
    "scalar-markdown": Needs(
        SCALAR_MARKDOWN / "node_modules" / "@11ty" / "eleventy" / "cmd.cjs",
        "node",
        "cd benchmarks/crawl/renderers/scalar-markdown && npm ci",
    ),
    "flexdoc": Needs(
        _flexdoc_bundle(),
        "chromium",
        "see requirements.txt in benchmarks/crawl/renderers/flexdoc (and Debian's chromium)",
    ),
    "nadoc": Needs(
        NADOC_BIN,
        "node",
        "see requirements.txt in benchmarks/crawl/renderers/nadoc; cd benchmarks/crawl/renderers/nadoc && npm ci",
    ),
    "openapi3-generator": Needs(
        OPENAPI3_GENERATOR / "node_modules" / ".bin" / "og",
        "node",
        "cd benchmarks/crawl/renderers/openapi3-generator && npm ci",
    ),
    "pretty-swag": Needs(
        PRETTY_SWAG / "node_modules" / ".bin" / "pretty-swag",
        "chromium",
        "cd benchmarks/crawl/renderers/pretty-swag && npm ci (and Debian's chromium)",
    ),
    "openapi-to-asciidoc": Needs(
        OPENAPI_TO_ASCIIDOC_BIN,
        "node",
        "see requirements.txt in benchmarks/crawl/renderers/openapi-to-asciidoc; "
        "cd benchmarks/crawl/renderers/openapi-to-asciidoc && npm ci",
    ),
    "swagger2rst": Needs(
        SWAGGER2RST_VENV / "bin" / "swg2rst",
        "node",
        "see requirements.txt in benchmarks/crawl/renderers/swagger2rst; "
        "cd benchmarks/crawl/renderers/swagger2rst && npm ci",
    ),
    "openapi-markdown": Needs(
        OPENAPI_MARKDOWN_BIN,
        "node",
        "see requirements.txt in benchmarks/crawl/renderers/openapi-markdown; "
        "cd benchmarks/crawl/renderers/openapi-markdown && npm ci",
    ),
    "swagger-render": Needs(
        SWAGGER_RENDER_VENV / "bin" / "swagger-render",
        "node",
        "see requirements.txt in benchmarks/crawl/renderers/swagger-render; "
        "cd benchmarks/crawl/renderers/swagger-render && npm ci",
    ),
    "swagger-markdown": Needs(
        SWAGGER_MARKDOWN / "node_modules" / ".bin" / "swagger-markdown",
        "node",
        "cd benchmarks/crawl/renderers/swagger-markdown && npm ci",
    ),
    "postman-to-markdown": Needs(
        POSTMAN_TO_MARKDOWN / "node_modules" / "postman-to-markdown" / "bin" / "global.js",
        "node",
        "cd benchmarks/crawl/renderers/postman-to-markdown && npm ci",
    ),
    "oas3-mdx": Needs(
        OAS3_MDX / "node_modules" / "@synx-ai" / "oas3-mdx" / "dist" / "cli.js",
        "node",
        "cd benchmarks/crawl/renderers/oas3-mdx && npm ci",
    ),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=BENCH)
    parser.add_argument("--specs", type=Path, default=BENCH / "specs.tsv",
                        help="the specs to render: id<TAB>path under --data (default: the benchmark's 38)")  # fmt: skip
    parser.add_argument("--renderer", choices=sorted({*RENDER, *RENDER_ALL}), action="append")
    parser.add_argument("--sphinx-build", type=Path, default=SPHINX_BUILD,
                        help="sphinx-build of a venv with requirements-sphinx.txt installed")  # fmt: skip
    args = parser.parse_args(argv)
    render = {**RENDER, "sphinx": partial(render_sphinx, sphinx_build=args.sphinx_build)}
    needs = {**NEEDS, "sphinx": NEEDS["sphinx"]._replace(tool=args.sphinx_build)}
    renderers = args.renderer or sorted({*RENDER, *RENDER_ALL})
    for name in renderers:
        tool, runtime, install = needs[name]
        if not tool.exists() or (runtime and shutil.which(runtime) is None):
            print(f"render_pages: {name} needs {tool.name} (pinned), {runtime}: {install}", file=sys.stderr)
            return 2
    failures = 0
    jobs: dict[str, list[tuple[Path, Path]]] = {name: [] for name in renderers if name in RENDER_ALL}
    for spec_id, source in read_specs(args.specs):
        spec = args.data / source
        truth = args.out / "truth" / f"{spec_id}{spec.suffix}"
        truth.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(spec, truth)
        for name in renderers:
            page = args.out / "pages" / name / f"{spec_id}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            if name in RENDER_ALL:
                jobs[name].append((spec, page))
                continue
            with tempfile.TemporaryDirectory() as work:
                try:
                    render[name](spec, page, Path(work))
                except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                    failures += 1
                    print(f"{spec_id}: {name} failed: {(exc.stderr or b'').decode()[-300:]}", file=sys.stderr)
                    continue
                except Exception as exc:  # noqa: BLE001 - a spec a mend cannot read stops that page only
                    failures += 1
                    print(f"{spec_id}: {name} failed before rendering: {exc!r}", file=sys.stderr)
                    continue
            print(
                f"{name}: {page.relative_to(args.out)} ({page.stat().st_size // 1024} KiB)", file=sys.stderr
            )
    for name, pairs in jobs.items():
        with tempfile.TemporaryDirectory() as work:
            try:
                failed = RENDER_ALL[name](pairs, Path(work))
            except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
                failed = [f"every spec: {(exc.stderr or b'').decode()[-3000:]}"]
        failures += len(failed)
        for failure in failed:
            print(f"{name} failed: {failure}", file=sys.stderr)
        for _, page in pairs:
            if page.exists():
                size = page.stat().st_size // 1024
                print(f"{name}: {page.relative_to(args.out)} ({size} KiB)", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
