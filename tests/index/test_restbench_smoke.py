"""Smoke test with the real default embedder: RestBench answers are found (issue 4's quality floor)."""

from __future__ import annotations

import json

import pytest

from openapi_rag.index import Index
from openapi_rag.spec import load_services
from tests.conftest import shared_data


@pytest.mark.shared
def test_restbench_hybrid_top20_finds_three_quarters_of_the_answers():
    root = shared_data("restbench")
    services = load_services([root / "specs"]).services
    index = Index.build(services)  # defaults: thin chunks, bundled MiniLM, hybrid search
    recalls = []
    for dataset in sorted((root / "datasets").glob("*.json")):
        for task in json.loads(dataset.read_text()):
            found = {hit.id for hit in index.search(task["query"], k=20)}
            gold = set(task["solution"])
            recalls.append(len(gold & found) / len(gold))
    assert len(recalls) == 157
    assert sum(recalls) / len(recalls) >= 0.75
