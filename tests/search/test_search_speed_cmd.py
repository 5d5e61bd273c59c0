"""`openapi-rag bench search` on a small real index: latency percentiles and CPU per query."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

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
    assert report["cpu_ms_per_query"] > 0
