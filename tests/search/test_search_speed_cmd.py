"""`openapi-rag bench search` on a small real index: latency percentiles and CPU per query."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli

CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"


def test_bench_search_reports_latency_and_cpu(tmp_path: Path) -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    specs = tmp_path / "specs"
    specs.mkdir()
    for name in ("uber.yaml", "yelp.yaml"):
        shutil.copy(CATALOG / name, specs / name)
    Index.build(load_services([specs]).services, cache=False).save(tmp_path / "idx")

    result = CliRunner().invoke(
        cli, ["bench", "search", "-i", str(tmp_path / "idx"), "--limit", "6", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["queries"] == 6 and report["chunks"] == 11 and report["mode"] == "hybrid"
    assert 0 < report["p50_ms"] <= report["p95_ms"] <= report["max_ms"]
    assert report["cpu_ms_per_query"] > 0 and report["warm"] is False


def test_bench_search_can_warm_the_index_as_a_server_does(tmp_path: Path) -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(CATALOG / "uber.yaml", specs / "uber.yaml")
    Index.build(load_services([specs]).services, cache=False).save(tmp_path / "idx")
    args = ["bench", "search", "-i", str(tmp_path / "idx"), "--limit", "3", "--warm"]
    report = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert report["warm"] is True and report["queries"] == 3 and report["p50_ms"] > 0
    assert "(warmed as a server)" in CliRunner().invoke(cli, args).output


def test_bench_search_lists_the_slowest_queries_with_their_stages(tmp_path: Path) -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(CATALOG / "uber.yaml", specs / "uber.yaml")
    Index.build(load_services([specs]).services, cache=False).save(tmp_path / "idx")

    args = ["bench", "search", "-i", str(tmp_path / "idx"), "--limit", "5", "--slowest", "2"]
    report = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert len(report["slowest"]) == 2 and report["slowest"][0]["ms"] >= report["slowest"][1]["ms"]
    assert report["slowest"][0]["ms"] == report["max_ms"]
    for stage in ("embed", "dense", "bm25", "fusion", "chunks", "aggregate"):
        assert report["stages_ms"][stage] > 0, stage
    slowest = report["slowest"][0]
    assert sum(slowest["stages_ms"].values()) == pytest.approx(slowest["ms"], abs=0.05)  # `other` closes it
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0 and text.output.count(" ms  [") == 2 and "tail_stages_ms: " in text.output


def test_bench_search_times_the_queries_of_a_file(tmp_path: Path) -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    specs = tmp_path / "specs"
    specs.mkdir()
    shutil.copy(CATALOG / "uber.yaml", specs / "uber.yaml")
    Index.build(load_services([specs]).services, cache=False).save(tmp_path / "idx")
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        '{"query": "how much is a ride to the airport", "id": "a"}\n\n{"query": "my past trips"}\n'
    )
    args = [
        "bench",
        "search",
        "-i",
        str(tmp_path / "idx"),
        "--queries",
        str(tasks),
        "--slowest",
        "2",
        "--json",
    ]
    report = json.loads(CliRunner().invoke(cli, args).output)
    assert report["queries"] == 2
    assert {row["query"] for row in report["slowest"]} == {
        "how much is a ride to the airport",
        "my past trips",
    }
    tasks.write_text('{"query": "ride prices"}\n{"text": "no query here"}\n')
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 1 and '--queries line 2: expected {"query": "..."}' in result.output
