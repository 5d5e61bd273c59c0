"""`openapi-rag bench store` and `eval --store` on small real data against a real server (#14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.embed import register_embedder, unregister_embedder
from openapi_rag.index import build_index
from tests.index.conftest import CATALOG, WordHashEmbedder


@pytest.fixture(autouse=True)
def word_hash() -> Any:
    register_embedder("word-hash", lambda **_: WordHashEmbedder())
    yield
    unregister_embedder("word-hash")


def test_bench_store_reports_both_stores_from_the_same_chunks(tmp_path: Path, pg_dsn: str) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    for name in ("uber.yaml", "yelp.yaml", "redocly-museum.yaml"):
        shutil.copy(CATALOG / name, specs / name)
    build_index([specs], tmp_path / "idx", embedder="word-hash")
    result = CliRunner().invoke(
        cli,
        [
            "bench",
            "store",
            "-i",
            str(tmp_path / "idx"),
            "--store",
            pg_dsn,
            "--operations",
            "60",
            "--clients",
            "1,2",
            "--limit",
            "6",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["operations"] >= 60 and report["chunks"] == report["operations"]  # compact: one chunk each
    for name in ("faiss", "postgresql"):
        assert report[name]["build_seconds"] >= 0 and report[name]["size_mb"] > 0
        assert [h["clients"] for h in report[name]["hybrid"]] == [1, 2]
        assert all(h["queries"] == 6 and h["p95_ms"] >= h["p50_ms"] > 0 for h in report[name]["hybrid"])
    assert report["postgresql"]["server_pss_mb"] > 0  # the test server runs on this machine
    assert 0.9 <= report["postgresql"]["dense_overlap_at_50"] <= 1.0
    listed = CliRunner().invoke(cli, ["collections", "list", "--store", pg_dsn, "--json"])
    assert not [
        c for c in json.loads(listed.stdout or "[]") if c["collection"].startswith("bench-")
    ]  # dropped


def test_the_eval_factory_searches_a_scratch_collection_and_drops_it(tmp_path: Path, pg_dsn: str) -> None:
    from openapi_rag.bench.retrievers import IndexRetrieverFactory, RunConfig
    from openapi_rag.spec import load_services
    from openapi_rag.store.pg_eval import PgIndexRetrieverFactory
    from openapi_rag.store.pg_target import PgTarget
    from openapi_rag.store.pg_write import list_collections

    services = load_services([CATALOG / "uber.yaml", CATALOG / "redocly-museum.yaml"]).services
    config = RunConfig("compact", "word-hash", "hybrid")
    factory = PgIndexRetrieverFactory(pg_dsn)
    pg = factory(services, config).search("buy museum tickets", 5)
    disk = IndexRetrieverFactory()(services, config).search("buy museum tickets", 5)
    assert [(h.service, h.id) for h in pg] == [(h.service, h.id) for h in disk] and pg[
        0
    ].id == "POST /tickets"
    assert pg[0].tokens == disk[0].tokens > 0
    factory.close()
    assert not [c for c in list_collections(PgTarget(pg_dsn)) if c["collection"].startswith("eval-")]


@pytest.mark.slow  # two evaluations of RestBench: ~1-2 min on 2 busy cores
def test_eval_store_gives_the_recall_of_the_disk_index(tmp_path: Path, pg_dsn: str) -> None:
    from tests.conftest import shared_data

    data = shared_data("restbench")
    recall = {}
    for name, extra in (("faiss", []), ("postgresql", ["--store", pg_dsn])):
        result = CliRunner().invoke(
            cli,
            [
                "eval",
                "--dataset",
                "restbench",
                "--data",
                str(data),
                "--embedders",
                "word-hash",
                "--modes",
                "hybrid",
                "--k",
                "5,20",
                "--out",
                str(tmp_path / name),
                "--no-plots",
                "--json",
                *extra,
            ],
        )
        assert result.exit_code == 0, result.output
        rows = json.loads(result.stdout)["summary"]
        recall[name] = {r["k"]: r["recall"] for r in rows if r["half"] == "all"}
    assert recall["faiss"].keys() == recall["postgresql"].keys() == {"5", "20"}
    for k, value in recall["faiss"].items():
        assert abs(recall["postgresql"][k] - value) <= 0.01, (k, recall)
