"""`openapi-rag inspect` and `openapi-rag bench load`: the report shapes scripts read, and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from openapi_rag.cli import cli

FIXTURES = Path(__file__).parent / "fixtures"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_inspect_json_report(tmp_path):
    shutil.copytree(FIXTURES, tmp_path / "specs")
    (tmp_path / "specs" / "broken.json").write_text('{"openapi": "3.0.0", "paths": {,}}')
    result = invoke("inspect", str(tmp_path / "specs"), "--json", "--validate")
    assert result.exit_code == 1  # one document failed
    report = json.loads(result.output)
    assert report["totals"] == {"services": 5, "failed": 1, "operations": 14, "schemas": 14, "invalid": 2}
    service = next(s for s in report["services"] if s["title"] == "Multi File Pets")
    assert {"file", "title", "version", "format", "operations", "schemas", "problems"} <= set(service)
    assert service["format"] == "oas30" and service["operations"] == 4
    assert any("remote $ref not fetched" in p for p in service["problems"])
    assert report["failed"] == [
        {
            "file": str(tmp_path / "specs" / "broken.json"),
            "error": "invalid JSON: Expecting property name enclosed in double quotes",
            "where": "line 1, column 32",
        }
    ]


def test_inspect_tokens_counts_before_and_after_cleaning():
    result = invoke("inspect", str(FIXTURES / "swagger2.yaml"), "--json", "--tokens", "--limit", "100")
    assert result.exit_code == 0
    report = json.loads(result.output)
    counts = report["services"][0]["tokens"]
    assert set(counts) == {"minilm", "cl100k_base", "o200k_base"}
    assert all(c["before"] >= c["after"] > 0 for c in counts.values())
    stats = report["tokens"]["cl100k_base"]
    assert stats["over_limit_before"] == 1 and stats["max_before"] == counts["cl100k_base"]["before"]
    removed = report["tokens"]["removed_by_step"]
    assert set(removed) == {"examples", "base64", "html", "markdown", "urls"}
    quirks = json.loads(invoke("inspect", str(FIXTURES / "quirks.yaml"), "--json", "--tokens").output)
    assert quirks["tokens"]["removed_by_step"]["examples"] > 0  # its schema example


def test_inspect_text_and_bench_load():
    result = invoke("inspect", str(FIXTURES / "cyclic.yaml"))
    assert result.exit_code == 0
    assert (
        "Cycles 1  [oas31]" in result.output
        and "1 services, 2 operations, 5 schemas, 0 failed" in result.output
    )
    result = invoke("bench", "load", str(FIXTURES), "--json")
    figures = json.loads(result.output)
    assert figures["operations"] == 14 and figures["seconds"] >= 0 and figures["peak_rss_mb"] > 0
