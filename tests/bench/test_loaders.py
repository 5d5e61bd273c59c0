"""Dataset loaders: the generic JSONL format on a fixture, RestBench and SOCBench-D on the shared data."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from openapi_rag.bench import DatasetError, load_dataset
from tests.bench.conftest import CATALOG
from tests.conftest import shared_data


def test_jsonl_groups_get_their_own_services_and_gold_is_resolved(catalog):
    assert catalog.name == "jsonl:catalog"
    assert [g.name for g in catalog.groups] == ["pets", "shop"]
    assert [[s.id for s in g.services] for g in catalog.groups] == [["petstore"], ["shop-api"]]
    assert catalog.domains == ["pets", "shop"]
    q = {q.id: q for q in catalog.queries}
    assert [g.matches for g in q["pets-show-delete"].gold] == [
        ("petstore GET /pets/{petId}",),
        ("petstore DELETE /pets/{petId}",),
    ]
    assert q["pets-base"].gold[0].matches == ("petstore POST /pets",)  # server base path /v1
    assert len(q["shop-create"].gold) == 1  # duplicate counted once
    assert q["shop-pets"].gold[0].matches == ("shop-api GET /pets",)  # qualified by file stem
    kinds = Counter((i.query_id, i.kind) for i in catalog.issues)
    assert kinds == Counter(
        {
            ("pets-show-delete", "shape"): 1,
            ("pets-base", "shape"): 1,
            ("shop-create", "duplicate"): 1,
            ("shop-refund", "unmatched"): 1,
            ("shop-refund", "shape"): 1,
            ("shop-pets", "shape"): 1,
        }
    )
    # Unmatched gold stays in the gold set (a miss) and is reported.
    assert [g.raw for g in q["shop-refund"].gold] == ["POST /refunds", "DELETE /orders/{id}"]
    assert [(i.query_id, i.entry) for i in catalog.unmatched()] == [("shop-refund", "POST /refunds")]
    assert catalog.describe()["unmatched_gold"] == 1


def test_jsonl_without_groups_uses_every_description(tmp_path):
    for sub in ("pets", "shop"):
        (tmp_path / sub).mkdir()
        for f in (CATALOG / sub).iterdir():
            (tmp_path / sub / f.name).write_bytes(f.read_bytes())
    (tmp_path / "queries.jsonl").write_text(
        json.dumps({"query": "list pets", "expected": ["GET /pets"]}) + "\n\n"
    )
    ds = load_dataset("jsonl", tmp_path)
    assert [g.name for g in ds.groups] == ["all"]
    assert sorted(s.id for s in ds.groups[0].services) == ["petstore", "shop-api"]
    assert ds.queries[0].id == "line-0001"
    assert [i.kind for i in ds.issues] == ["ambiguous"]  # GET /pets exists in both services


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"query": "x"', "not JSON"),
        ('{"expected": []}', "no 'query' string"),
        ('{"query": "x", "expected": "GET /a"}', "must be a list of strings"),
        (
            '{"id": "a", "query": "x", "expected": []}\n{"id": "a", "query": "y", "expected": []}',
            "also on line 1",
        ),
    ],
)
def test_jsonl_errors(tmp_path, content, message):
    (tmp_path / "queries.jsonl").write_text(content)
    with pytest.raises(DatasetError, match=message):
        load_dataset("jsonl", tmp_path)


def test_unknown_kind_and_missing_path(tmp_path):
    with pytest.raises(DatasetError, match="unknown dataset kind"):
        load_dataset("nope", tmp_path)
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset("restbench", tmp_path / "missing")
    with pytest.raises(DatasetError, match="specs/ and datasets/"):
        load_dataset("restbench", tmp_path)
    with pytest.raises(DatasetError, match="no SOCBench-D domain"):
        load_dataset("socbench-d", tmp_path)


@pytest.mark.shared
def test_restbench_shared_data():
    ds = load_dataset("restbench", shared_data("restbench"))
    assert len(ds.groups) == 1 and ds.domains == ["restbench"]
    assert len(ds.queries) == 157
    assert sorted(s.id for s in ds.groups[0].services) == ["spotify-web-api", "tmdb-oas"]
    assert ds.groups[0].operations == 94
    assert ds.unmatched() == []
    assert all(g.how == "exact" for q in ds.queries for g in q.gold)
    assert [i.kind for i in ds.issues] == ["duplicate"]
    assert ds.queries[0].id == "spotify-001" and ds.queries[-1].id == "tmdb-100"


@pytest.mark.shared
def test_socbench_d_shared_data_one_index_per_domain():
    ds = load_dataset("socbench-d", shared_data("socbench-d", "socbenchd_1"))
    assert len(ds.groups) == 11 and len(ds.queries) == 110
    assert ds.groups[3].name == "socbenchd_1/04-consumer discretionary"
    assert ds.domains[3] == "consumer discretionary"
    assert all(len(g.services) == 5 and g.operations == 50 for g in ds.groups)
    assert ds.unmatched() == []
    # Paths shared by several services of a domain are reported as ambiguous, not dropped.
    assert {i.kind for i in ds.issues} == {"ambiguous", "duplicate"}
    # A folder of instances loads the same way.
    parent = load_dataset("socbench-d", shared_data("socbench-d"))
    assert [g.name for g in parent.groups] == [g.name for g in ds.groups]
    assert [g.fingerprint for g in parent.groups] == [g.fingerprint for g in ds.groups]
