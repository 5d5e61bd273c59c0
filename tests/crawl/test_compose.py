"""compose: catalog matches above a threshold, else a drafted, validated, repaired document."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.crawl.compose import compose, draft_service, parse_document
from openapi_rag.index import build_index
from tests.conftest import shared_data
from tests.llm.doubles import ScriptedLLM

INVALID = """```yaml
openapi: 3.0.3
info: {title: Movie facts, version: "1"}
paths:
  /movies/{id}/cast:
    get:
      parameters:
        - {name: id, in: body}
```"""
VALID = """```yaml
openapi: 3.0.3
info: {title: Movie facts, version: "1"}
paths:
  /movies/{id}/cast:
    get:
      summary: Cast and ratings of a movie
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: The cast and the ratings}
```"""


@pytest.fixture(scope="module")
def hotel_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = shared_data("socbench-d", "socbenchd_1", "04-consumer discretionary")
    index_dir = tmp_path_factory.mktemp("idx")
    build_index([data], index_dir)
    return index_dir


def test_draft_is_repaired_until_valid_and_marked() -> None:
    llm = ScriptedLLM([INVALID, VALID])
    document, findings, attempts = draft_service("cast and ratings of movies", llm)
    assert findings == [] and attempts == 2
    assert document["info"]["x-draft"] is True
    assert document["info"]["description"].startswith("DRAFT")
    repair = llm.calls[1]["messages"][-1]["content"]
    assert "not valid OpenAPI" in repair and "paths" in repair


def test_draft_gives_up_after_the_repairs() -> None:
    document, findings, attempts = draft_service("x", ScriptedLLM(["no yaml: [", INVALID]), max_repairs=1)
    assert attempts == 2 and findings and document is not None


def test_replies_without_a_mapping_are_reasons_not_crashes() -> None:
    assert parse_document("just words")[0] is None
    assert parse_document('{"openapi": "3.0.3"}')[0] == {"openapi": "3.0.3"}


def test_catalog_match_needs_no_llm(hotel_index: Path) -> None:
    from openapi_rag.index import Index

    llm = ScriptedLLM([])
    need = "book a hotel room reservation for a guest"
    result = compose(need, index=Index.open(hotel_index), llm=llm, threshold=0.5)
    assert result.found and result.draft is None and llm.calls == []
    assert "POST /reservations" in [op["id"] for op in result.matches[0]["operations"]]


def test_compose_cli_drafts_when_nothing_matches(hotel_index: Path, tmp_path: Path, monkeypatch) -> None:
    import openapi_rag.llm as llm_module

    monkeypatch.setattr(llm_module, "get_llm", lambda name=None, cache=False: ScriptedLLM([VALID]))
    out = tmp_path / "draft.yaml"
    run = CliRunner().invoke(
        cli,
        ["compose", "a service that returns cast and ratings of movies", "--index", str(hotel_index),
         "--threshold", "0.9", "-o", str(out), "--json"],
    )  # fmt: skip
    assert run.exit_code == 0, run.output
    data = json.loads(run.stdout)
    assert data["found"] is False and data["valid"] is True
    assert yaml.safe_load(out.read_text())["info"]["x-draft"] is True


def test_compose_cli_needs_a_need_or_a_spec(hotel_index: Path) -> None:
    assert CliRunner().invoke(cli, ["compose", "--index", str(hotel_index)]).exit_code == 2


@pytest.mark.slow
def test_compose_cli_with_a_spec(hotel_index: Path) -> None:
    folder = shared_data("socbench-d", "socbenchd_1", "04-consumer discretionary")
    spec = next(folder.glob("02-*/openapi.json"))
    run = CliRunner().invoke(cli, ["compose", "--spec", str(spec), "--index", str(hotel_index), "--json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.stdout)["found"] is True
