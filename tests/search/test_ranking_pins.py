"""Speed work must not move a result: ranked ids and scores pinned on a small real index.

The index is the bundled example catalog (seven real specs, 108 operations) plus a second copy of
Uber's spec (so word-for-word copies get folded), embedded by the real default model. Each case runs
one query through `Index.search_results` (hybrid, dense, bm25, k=3/10/"auto", service and tag
filters, multi-intent queries, "my ..." queries, a query naming an API) and must give the pinned
operations in the pinned order, with their scores (to 1e-4), copies (`also_in`) and chunk-level
hit count.

A ranking change made on purpose (a new default, a new rule) moves these pins; regenerate them with

    PYTHONPATH=src python -m tests.search.test_ranking_pins

and say in the commit why the results moved. A speed change must leave the file untouched.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"
PINS = Path(__file__).with_name("ranking_pins.json")
SCORE_TOLERANCE = 1e-4

# (query, options for Index.search_results)
CASES: list[tuple[str, dict[str, Any]]] = [
    ("create a playlist", {}),
    ("create a playlist", {"k": 3}),
    ("create a playlist", {"k": "auto"}),
    ("create a playlist", {"mode": "dense"}),
    ("create a playlist", {"mode": "bm25"}),
    ("add the top tracks of an artist to my new playlist and start playing it", {}),
    ("add the top tracks of an artist to my new playlist and start playing it", {"k": "auto"}),
    ("find the album of a song, then save the album to my library and follow its artist", {}),
    ("what are the price estimates for a ride", {}),
    ("what are the price estimates for a ride", {"service": "uber-api"}),
    ("look up the carrier of a phone number", {}),
    ("look up the carrier of a phone number", {"mode": "dense", "k": 5}),
    ("remove a rate limit override", {}),
    ("delete a message I sent in a conversation", {}),
    ("send a message to a user in Stride", {}),
    ("buy tickets for a special event at the museum", {"k": "auto"}),
    ("search for restaurants near me and read their reviews", {}),
    ("show me my recent rides", {}),
    ("pause playback on my device", {"tag": "Player"}),
    ("what are the opening hours", {"k": 3}),
    ("glossary of health insurance terms in Spanish", {}),
    ("list my saved albums and remove one of them", {"mode": "bm25", "k": "auto"}),
]


def build(folder: Path) -> Any:
    """The catalog, with Uber's spec twice, indexed with the default strategy and embedder."""
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    specs = folder / "specs"
    shutil.copytree(CATALOG, specs)
    shutil.copy(specs / "uber.yaml", specs / "uber-copy.yaml")
    return Index.build(load_services([specs]).services, cache=False)


def observe(index: Any) -> list[dict[str, Any]]:
    """What each case returns: operations (id, score, copies) and how many chunk hits."""
    observed = []
    for query, options in CASES:
        results = index.search_results(query, **options)
        observed.append(
            {
                "query": query,
                "options": options,
                "operations": [
                    [op.qualified_id, round(op.score, 6), list(op.also_in)] for op in results.operations
                ],
                "chunk_hits": len(results.chunks),
            }
        )
    return observed


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return build(tmp_path_factory.mktemp("pins"))


def test_the_pins_cover_every_case() -> None:
    pins = json.loads(PINS.read_text("utf-8"))
    assert [(p["query"], p["options"]) for p in pins] == [(q, o) for q, o in CASES]


@pytest.mark.parametrize("case", range(len(CASES)), ids=[f"{q[:30]}-{o}" for q, o in CASES])
def test_results_match_the_pins(index: Any, case: int) -> None:
    pin = json.loads(PINS.read_text("utf-8"))[case]
    query, options = CASES[case]
    results = index.search_results(query, **options)
    got = [op.qualified_id for op in results.operations]
    assert got == [op_id for op_id, _, _ in pin["operations"]]
    for op, (op_id, score, also_in) in zip(results.operations, pin["operations"], strict=True):
        assert abs(op.score - score) <= SCORE_TOLERANCE, (op_id, op.score, score)
        assert list(op.also_in) == also_in, op_id
    assert len(results.chunks) == pin["chunk_hits"]


def test_the_copy_is_folded(index: Any) -> None:
    """The pins would not guard folding if no case folded a copy."""
    pins = json.loads(PINS.read_text("utf-8"))
    assert any(also_in for pin in pins for _, _, also_in in pin["operations"])


if __name__ == "__main__":  # regenerate the pins (a ranking change made on purpose)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        pins = observe(build(Path(tmp)))
    PINS.write_text(json.dumps(pins, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(pins)} cases to {PINS}", file=sys.stderr)
