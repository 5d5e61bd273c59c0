"""`openapi-rag bench serve` for real on the small index: wrk on loopback, a rebuild mid-run (a few seconds)."""

from __future__ import annotations

import json
import re
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
    assert set(report["overhead"]) >= {"index_search_ms", "http_overhead_ms", "http_deployed_overhead_ms", "mcp_overhead_ms"}
    # The layers server-side (from the workers' Server-Timing) and like for like client-side.
    over = report["overhead"]
    assert over["direct_threads"] == 1  # two workers, one thread each: the direct baseline too
    server = over["http_server"]
    assert 0 < server["layer_ms"]["median"] <= server["layer_ms"]["p95"] and server["search_ms"] > 0
    assert over["http_overhead_ms"] == server["layer_ms"]["median"]
    assert 0 < over["mcp_server"]["layer_cpu_ms"]["median"]
    assert over["mcp_streamable_http"]["median"] <= over["mcp_streamable_http"]["p95"]
    assert set(over["http_client"]) == {"http.client", "httpx", "outside_app", "search_minus_direct"}
    # Every answer was paired with its request on the client; the split covers the whole run.
    tail = report["tail"]
    assert report["unmatched"] == 0 and tail["matched"] == report["requests"]
    assert sum(step["requests"] for step in tail["timeline"]) == report["requests"]
    assert tail["inside_rebuild"]["requests"] + tail["outside_rebuild"]["requests"] == report["requests"]
    assert abs(tail["all"]["max_ms"] - report["max_ms"]) <= 2  # the same requests wrk timed
    assert len(report["workers_load"]["connections_early"]) == 2
    assert sum(report["workers_load"]["connections_after_reload"]) == 4
    assert report["embedder_batches"]["texts"] >= report["embedder_batches"]["runs"] > 0


def test_answers_carry_back_a_plain_request_id(index_dir: Path):
    import asyncio

    import httpx

    from openapi_rag.serve.http_app import create_app
    from openapi_rag.serve.service import IndexHolder, SearchService
    from openapi_rag.serve.settings import ServeSettings

    app = create_app(SearchService(IndexHolder(index_dir)), ServeSettings(index_dir=index_dir))

    async def ask(request_id: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return await client.get("/healthz", headers={"X-Request-Id": request_id})

    assert asyncio.run(ask("2-417")).headers["x-request-id"] == "2-417"
    assert "x-request-id" not in asyncio.run(ask("a b;\"<script>")).headers  # never echoed raw


def test_bench_show_sizes_every_operation(index_dir: Path):
    result = CliRunner().invoke(cli, ["bench", "show", "--index", str(index_dir), "--json", "--top", "2"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["operations"] == 45 and report["over_budget"] == 0
    assert report["sized_tokens"]["max"] <= 3000
    largest = report["largest_full"]
    assert len(largest) == 2 and largest[0]["full_chars"] >= largest[1]["full_chars"] > 3000 * 4


def test_the_cli_imports_neither_numpy_nor_faiss_to_print_help():
    """`openapi-rag --help` stays light: the heavy libraries load when a command needs them."""
    import subprocess
    import sys

    from tests.serve.conftest import cli_env

    probe = "import sys, openapi_rag.cli; print(sorted(m for m in ('numpy', 'faiss', 'onnxruntime') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=cli_env(), check=True)
    assert out.stdout.strip() == "[]"


def test_bench_startup_times_help_and_an_mcp_servers_first_answer(index_dir: Path):
    result = CliRunner().invoke(cli, ["bench", "startup", "--index", str(index_dir), "--runs", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["help"]["runs"] == 1 and report["help"]["median_s"] > 0
    mcp = report["mcp_first_answer"]
    assert 0 < mcp["handshake_median_s"] <= mcp["median_s"]


def test_a_server_that_does_not_start_is_reported_by_its_first_line(tmp_path: Path, monkeypatch):
    """`bench serve`'s servers are started by `start_cli_server`: a refused start names its cause."""
    from openapi_rag.errors import OpenAPIRagError
    from openapi_rag.serve.cli_process import start_cli_server
    from tests.serve.conftest import cli_env

    monkeypatch.setenv("PYTHONPATH", cli_env()["PYTHONPATH"])
    missing = tmp_path / "no-index"
    refused = f"the MCP server did not start: Error: No index found at {missing}"
    with pytest.raises(OpenAPIRagError, match=re.escape(refused)):
        start_cli_server(["mcp", "--index", str(missing), "--transport", "http", "--port", "0"], "the MCP server")
