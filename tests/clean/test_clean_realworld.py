"""Cleaning a real provider description from ../shared/data (skipped when absent)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from openapi_rag.clean import clean_document, parse_steps

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
# MANIFEST.tsv notes: html-in-desc:3; markdown-in-desc:35; base64-examples:1
ACCOUNTING = SHARED / "realworld" / "apideck" / "accounting.yml"


@pytest.mark.shared
def test_apideck_accounting_every_relevant_step_removes_tokens() -> None:
    if not ACCOUNTING.is_file():
        pytest.skip("../shared/data not present")
    doc = yaml.load(ACCOUNTING.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    info_before = copy.deepcopy(doc["info"])

    cleaned, removed = clean_document(doc, parse_steps("all"))

    assert doc["info"] == info_before
    for step in ("errors", "examples", "base64", "html", "markdown", "urls"):
        assert removed[step] > 0, step
    assert removed["headers"] == 0  # apideck declares no headers on its 2xx responses
    description = cleaned["info"]["description"]
    assert "## " not in description and "| ---" not in description
    assert "learning.postman.com" not in description
    assert "Name Type Required Description" in description  # table words survive, pipes go
    assert set(cleaned["paths"]) == set(doc["paths"])  # path templates are keys: never touched
