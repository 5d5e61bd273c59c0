"""`openapi-rag bench serve` for real on the small index: wrk on loopback, a rebuild mid-run (a few seconds)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli


def test_bench_serve_loads_rebuilds_and_reports(index_dir: Path, tmp_path: Path):
    if shutil.which("wrk") is None:
        pytest.skip("wrk not installed (apt-get install wrk; `make` installs it where it can)")
    copy = tmp_path / "idx"
    shutil.copytree(index_dir, copy)  # the benchmark rewrites the index it serves
    args = ["bench", "serve", "--index", str(copy), "--duration", "4", "--rebuild-at", "1"]
    result = CliRunner().invoke(cli, [*args, "--connections", "4", "--overhead-queries", "5", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["requests"] > 0 and report["throughput_rps"] > 0
    assert report["errors"] == 0 and report["malformed"] == 0 and report["checked"] >= report["requests"]
    assert report["p50_ms"] <= report["p95_ms"] <= report["p99_ms"] <= report["max_ms"]
    assert report["rebuild"]["reloads_seen"] >= 1
    assert len(report["memory_before"]["workers"]) == 2
    assert all(w["rss_mb"] > 0 for w in report["memory_before"]["workers"])
    assert set(report["overhead"]) >= {"index_search_ms", "http_overhead_ms", "mcp_overhead_ms"}


def test_bench_show_sizes_every_operation(index_dir: Path):
    result = CliRunner().invoke(cli, ["bench", "show", "--index", str(index_dir), "--json", "--top", "2"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["operations"] == 45 and report["over_budget"] == 0
    assert report["sized_tokens"]["max"] <= 3000
    largest = report["largest_full"]
    assert len(largest) == 2 and largest[0]["full_chars"] >= largest[1]["full_chars"] > 3000 * 4
