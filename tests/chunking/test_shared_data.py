"""Chunking the benchmark corpora in ../shared/data (skipped when absent).

Operation metadata must be exact: every operation is covered by the per-operation strategies,
and a window of `whole`/`json` lists exactly the operations whose path it contains.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from openapi_rag.chunking import chunk_services
from openapi_rag.model import Chunk, Service
from openapi_rag.spec import load_services

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
LIMIT = 254  # all-MiniLM-L6-v2 takes 256 tokens, [CLS] and [SEP] included
PER_OPERATION = ["endpoint", "thin", "fields", "endpoint-json", "ref-inline", "ref-linked"]

_cache: dict[str, list[Service]] = {}


def corpus(name: str) -> list[Service]:
    parts = {"restbench": ("restbench", "specs"), "socbench": ("socbench-d", "socbenchd_1")}[name]
    path = SHARED.joinpath(*parts)
    if not path.is_dir():
        pytest.skip("../shared/data not present")
    if name not in _cache:
        result = load_services([path])
        assert not result.failed
        _cache[name] = result.services
    return _cache[name]


def expected_endpoints(name: str) -> set[str]:
    if name == "restbench":
        files = sorted((SHARED / "restbench" / "datasets").glob("*.json"))
        return {e for f in files for q in json.loads(f.read_text()) for e in q["solution"]}
    files = sorted((SHARED / "socbench-d" / "socbenchd_1").glob("*/queries.json"))
    return {e for f in files for q in json.loads(f.read_text())["queries"] for e in q["endpoints"]}


@pytest.mark.shared
@pytest.mark.parametrize("name", ["restbench", "socbench"])
@pytest.mark.parametrize("strategy", PER_OPERATION)
def test_every_operation_is_covered_and_fits_the_model(name: str, strategy: str) -> None:
    services = corpus(name)
    chunks = chunk_services(services, strategy)
    covered = {(c.service, op) for c in chunks for op in c.operations}
    assert covered == {(s.id, op.id) for s in services for op in s.operations}
    assert expected_endpoints(name) <= {op for _, op in covered}  # the benchmarks' answers are findable
    if strategy.startswith("ref-"):  # readable ref-aware chunks fit the model's input
        assert max(c.tokens for c in chunks) <= LIMIT
    else:  # endpoint-family strategies make one chunk per operation by default
        assert len(chunks) == sum(len(s.operations) for s in services)
    assert len({c.id for c in chunks}) == len(chunks)


def _whole_paths(chunk: Chunk, service: Service) -> list[str]:
    """Operations whose path stands whole in the chunk: regex check, longest path at a position wins."""
    hits: dict[int, str] = {}
    for path in {op.path for op in service.operations}:
        for m in re.finditer(r"(?<![\w/{}~%-])" + re.escape(path) + r"(?![\w/{}~%-])", chunk.embed_text):
            if len(path) > len(hits.get(m.start(), "")):
                hits[m.start()] = path
    found = set(hits.values())
    return [op.id for op in service.operations if op.path in found]


@pytest.mark.shared
@pytest.mark.parametrize(
    "name", ["socbench", pytest.param("restbench", marks=pytest.mark.slow)]
)  # TMDB is 2 MB of JSON: ~20 s of windows
@pytest.mark.parametrize("strategy", ["whole", "json"])
def test_document_windows_list_exactly_the_paths_they_contain(name: str, strategy: str) -> None:
    services = {s.id: s for s in corpus(name)}
    chunks = chunk_services(services.values(), strategy)
    assert chunks and all(c.tokens <= 100 for c in chunks)
    for chunk in chunks:
        assert chunk.operations == _whole_paths(chunk, services[chunk.service]), chunk.id


@pytest.mark.slow
@pytest.mark.shared
def test_realworld_ref_linked_fits_the_model() -> None:
    path = SHARED / "realworld"
    if not path.is_dir():
        pytest.skip("../shared/data not present")
    services = load_services([path]).services
    chunks = chunk_services(services, "ref-linked")
    assert max(c.tokens for c in chunks) <= LIMIT
    covered = {(c.service, op) for c in chunks for op in c.operations}
    assert covered == {(s.id, op.id) for s in services for op in s.operations}
