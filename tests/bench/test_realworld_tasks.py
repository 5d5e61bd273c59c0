"""The realworld task set: its format (fast), and every gold id against the corpus (slow: loads 209 specs)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from openapi_rag.bench import DatasetError, load_dataset
from openapi_rag.bench.gold import parse_endpoint
from openapi_rag.bench.loaders import REALWORLD_TASKS, load_jsonl
from tests.bench.conftest import CATALOG
from tests.conftest import shared_data


def _tasks() -> list[dict]:
    return [json.loads(line) for line in REALWORLD_TASKS.read_text(encoding="utf-8").splitlines() if line]


def test_task_set_has_the_promised_shape() -> None:
    tasks = _tasks()
    assert len(tasks) >= 200
    assert len({t["id"] for t in tasks}) == len(tasks)
    assert len({t["query"].lower() for t in tasks}) == len(tasks)
    multi = sum(len(t["expected"]) > 1 for t in tasks)
    named = sum(t["names_provider"] for t in tasks)
    assert multi >= len(tasks) // 10 and named >= len(tasks) // 10
    assert len({t["provider"] for t in tasks}) >= 15
    methods = Counter(parse_endpoint(e)[1] for t in tasks for e in t["expected"])
    assert {"GET", "POST", "PUT", "PATCH", "DELETE"} <= set(methods)
    for t in tasks:
        # Every entry is qualified by service: unqualified paths collide across 209 documents.
        entries = t["expected"] + [
            a for alts in t["alternatives"] for a in ([alts] if isinstance(alts, str) else alts)
        ]
        assert all(parse_endpoint(e) and parse_endpoint(e)[0] for e in entries), t["id"]
        if len(t["expected"]) > 1:
            assert len(t["alternatives"]) == len(t["expected"]), t["id"]


def test_alternatives_widen_what_counts_as_found(tmp_path) -> None:
    lines = [
        {
            "id": "one",
            "query": "list pets",
            "expected": ["petstore GET /pets"],
            "alternatives": ["shop GET /pets"],
        },
        {
            "id": "two",
            "query": "create and delete an order",
            "expected": ["shop POST /orders", "shop DELETE /orders/{orderId}"],
            "alternatives": [[], ["petstore DELETE /pets/{petId}", "shop DELETE /nowhere"]],
        },
    ]
    queries = tmp_path / "tasks.jsonl"
    queries.write_text("".join(json.dumps(x) + "\n" for x in lines))
    ds = load_jsonl(CATALOG, queries, name="mine")
    assert ds.name == "mine" and [g.name for g in ds.groups] == ["all"]
    q = {q.id: q for q in ds.queries}
    assert q["one"].gold[0].matches == ("petstore GET /pets", "shop-api GET /pets")
    assert q["two"].gold[0].matches == ("shop-api POST /orders",)
    assert q["two"].gold[1].matches == ("shop-api DELETE /orders/{orderId}", "petstore DELETE /pets/{petId}")
    assert [(i.query_id, i.kind) for i in ds.issues] == [("two", "unmatched-alternative")]
    assert not ds.unmatched()  # an unmatched alternative is no miss


@pytest.mark.parametrize(
    "alternatives, message",
    [
        ("shop GET /pets", "must be a list"),
        (["a", "b"], "one list per operation"),
        ([["a"]], "one list of strings per expected"),
    ],
)
def test_malformed_alternatives_name_the_line(tmp_path, alternatives, message) -> None:
    expected = ["GET /pets"] if isinstance(alternatives, str) else ["GET /pets", "GET /owners"]
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"query": "q", "expected": expected, "alternatives": alternatives}) + "\n")
    with pytest.raises(DatasetError, match=rf"q.jsonl:1: .*{message}"):
        load_dataset("jsonl", CATALOG, queries)


def test_a_queries_file_only_applies_to_jsonl_formats(tmp_path) -> None:
    with pytest.raises(DatasetError, match="only applies to jsonl"):
        load_dataset("restbench", CATALOG, CATALOG / "queries.jsonl")


@pytest.mark.slow
def test_every_gold_and_alternative_matches_an_operation_of_the_corpus() -> None:
    ds = load_dataset("realworld", shared_data("realworld"))
    assert ds.name == "realworld" and len(ds.groups) == 1
    assert not ds.unmatched()
    assert not [i for i in ds.issues if i.kind == "unmatched-alternative"]
    assert ds.describe()["operations"] > 9000


CONFIRM_TASKS = REALWORLD_TASKS.with_name("confirm_long_tasks.jsonl")


CONFIRM_SHORT_TASKS = REALWORLD_TASKS.with_name("confirm_short_tasks.jsonl")


@pytest.mark.parametrize(
    ("path", "count", "prefix"),
    [(CONFIRM_TASKS, 30, "confirm-"), (CONFIRM_SHORT_TASKS, 40, "confirm-short-")],
)
def test_confirmation_set_shape(path, count, prefix) -> None:
    """The confirmation sets (benchmarks/realworld/README.md): 30 long requests (the second list's
    scope) and 40 one-sentence ones (its `sentences` scope), one operation each, every entry
    qualified by service, half or more on APIs held out of the fine-tuned embedder's training."""
    import zlib

    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert len(tasks) == count and len({t["id"] for t in tasks}) == count
    assert all(t["id"].startswith(prefix) and len(t["expected"]) == 1 for t in tasks)
    for t in tasks:
        entries = t["expected"] + t["alternatives"]
        assert all(parse_endpoint(e) and parse_endpoint(e)[0] for e in entries), t["id"]
    # held out of the fine-tuned embedder's training as scripts/finetune_embedder.py chooses them
    held = [t for t in tasks if zlib.crc32(t["expected"][0].split(" ")[0].encode()) % 10 == 0]
    assert len(held) >= count // 2


@pytest.mark.slow
@pytest.mark.parametrize(("path", "count"), [(CONFIRM_TASKS, 30), (CONFIRM_SHORT_TASKS, 40)])
def test_confirmation_set_gold_matches_the_corpus(path, count) -> None:
    ds = load_dataset("jsonl", shared_data("realworld"), path)
    assert len(ds.queries) == count and not ds.unmatched()
    assert not [i for i in ds.issues if i.kind == "unmatched-alternative"]
