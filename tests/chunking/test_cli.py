"""`openapi-rag chunk` and `openapi-rag bench chunk`."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from tests.chunking.conftest import FIXTURES

SPEC = str(FIXTURES / "campaigns.yaml")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_json_lines_one_chunk_per_line(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chunk", SPEC, "--strategy", "ref-linked", "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == 9
    for row in rows:
        assert {"id", "kind", "service", "operations", "embed_text", "content", "tokens", "metadata"} <= set(
            row
        )
    assert rows[1]["id"] == "campaigns-api:ref-linked:POST /campaigns"
    assert rows[1]["operations"] == ["POST /campaigns"]
    assert "9 chunks (3 endpoint, 4 schema, 1 errors, 1 security)" in result.stderr


def test_text_output_shows_chunks_then_summary(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chunk", SPEC, "-s", "fields"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(
        "── campaigns-api:fields:GET /campaigns  [endpoint, 25 tokens]  covers GET /campaigns\n"
    )
    assert "── content:\nGET /campaigns\n{" in out
    assert out.rstrip().endswith(
        "3 chunks (3 endpoint) from 1 services, 3 operations [strategy fields: size 1000000, overlap 0, "
        "tokenizer minilm]\n"
        "tokens per chunk: mean 32.0, max 41 (returned content: mean 224.0); 0 over the model's 254\n"
        "chunks per operation: mean 1.0, max 1; 0 operations in no chunk"
    )


def test_summary_only_as_json(runner: CliRunner) -> None:
    result = runner.invoke(
        cli, ["chunk", SPEC, "-s", "whole", "--size", "50", "--overlap", "10", "--summary", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["strategy"] == "whole"
    assert summary["params"] == {"size": 50, "overlap": 10, "tokenizer": "minilm"}
    assert summary["tokens_max"] <= 50 and summary["over_limit"] == 0 and summary["operations"] == 3


def test_clean_passes_through_to_loading(runner: CliRunner) -> None:
    plain = runner.invoke(cli, ["chunk", SPEC, "-s", "endpoint", "--json"])
    cleaned = runner.invoke(cli, ["chunk", SPEC, "-s", "endpoint", "--json", "--clean", "examples"])
    assert "Spring sale" in plain.stdout and "Spring sale" not in cleaned.stdout
    bad = runner.invoke(cli, ["chunk", SPEC, "--clean", "nope"])
    assert bad.exit_code == 2 and "Unknown cleaning step 'nope'" in bad.output


def test_bad_strategy_and_parameters_are_usage_errors(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["chunk", SPEC, "-s", "nope"])
    assert result.exit_code == 2
    assert (
        "Valid strategies: whole, json, endpoint, thin, fields, endpoint-json, ref-inline, ref-linked"
        in result.output
    )
    result = runner.invoke(cli, ["chunk", SPEC, "-s", "thin", "--depth", "1"])
    assert result.exit_code == 2 and "takes no parameter depth" in result.output
    result = runner.invoke(cli, ["chunk", SPEC, "-s", "whole", "--size", "10", "--overlap", "20"])
    assert result.exit_code == 2 and "size must be larger than overlap" in result.output


def test_a_failed_document_is_reported_and_exits_1(runner: CliRunner, tmp_path) -> None:
    (tmp_path / "good.yaml").write_text((FIXTURES / "campaigns.yaml").read_text())
    (tmp_path / "bad.json").write_text('{"openapi": "3.0.0", "info": {}}')
    result = runner.invoke(cli, ["chunk", str(tmp_path), "-s", "endpoint", "--summary"])
    assert result.exit_code == 1
    assert "FAILED" in result.stderr and "bad.json" in result.stderr
    assert "3 chunks (3 endpoint) from 1 services" in result.stdout


def test_bench_chunk_reports_time_sizes_and_memory(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["bench", "chunk", SPEC, "--strategy", "ref-linked", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["chunks"] == 9 and report["operations"] == 3 and report["over_limit"] == 0
    assert report["tokens_max"] <= report["limit"] == 254
    assert report["chunk_seconds"] >= 0 and report["peak_rss_mb"] > 0
    text = runner.invoke(cli, ["bench", "chunk", SPEC])
    assert (
        text.exit_code == 0
        and "chunked 3 operations of 1 services (0 failed) with ref-linked in" in text.stdout
    )
