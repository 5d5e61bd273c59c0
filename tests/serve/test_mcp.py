"""The MCP server with real clients: the SDK's client over stdio and over streamable HTTP, and the
MCP Inspector's CLI (npm) as an independent second client."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import httpx
import pytest

from tests.serve.conftest import SRC, Server, cli_env

REPO = SRC.parent
INSPECTOR_PACKAGE = "@modelcontextprotocol/inspector@0.15.0"
# Where `make` installs the Inspector (see the Makefile); a test installs it there when missing.
INSPECTOR_PREFIX = REPO / ".tools" / "node"


async def _exercise(client) -> dict:
    """Call every tool once; return what came back, for the assertions."""
    tools = await client.list_tools()
    found = await client.call_tool("search_endpoints", {"query": "get a price estimate for a ride", "k": 3})
    first = found.structured_content["results"][0]["id"]
    detail = await client.call_tool("get_endpoint", {"id": first})
    services = await client.call_tool("list_services", {})
    missing = await client.call_tool("get_endpoint", {"id": "../../etc/passwd"})
    too_many = await client.call_tool("search_endpoints", {"query": "x", "k": 1000})
    return {
        "tools": sorted(t.name for t in tools.tools),
        "descriptions": {t.name: t.description for t in tools.tools},
        "found": found,
        "detail": detail,
        "services": services,
        "missing": missing,
        "too_many": too_many,
    }


def _check(result: dict) -> None:
    assert result["tools"] == ["get_endpoint", "list_services", "search_endpoints"]
    assert all(len(d or "") > 150 for d in result["descriptions"].values())
    hits = json.loads(result["found"].content[0].text)["results"]
    assert hits[0] == {"id": "uber-api GET /estimates/price", "summary": "Price Estimates", "score": 1.0}
    assert len(result["found"].content[0].text) < 400  # three hits, compact
    detail = json.loads(result["detail"].content[0].text)
    assert detail["id"] == "uber-api GET /estimates/price" and "parameters" in detail
    assert detail["view"]["tokens"] <= 3000
    services = json.loads(result["services"].content[0].text)["services"]
    assert [s["service"] for s in services] == ["spotify-web-api", "uber-api"]
    assert result["missing"].is_error and "not an endpoint id" in result["missing"].content[0].text
    assert result["too_many"].is_error and "k" in result["too_many"].content[0].text


def test_sdk_client_over_stdio(index_dir):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "openapi_rag", "mcp", "--index", str(index_dir)], env=cli_env()
    )

    async def main() -> dict:
        with anyio.fail_after(180):
            async with Client(params) as client:
                return await _exercise(client)

    _check(anyio.run(main))


def test_sdk_client_over_streamable_http(index_dir):
    from mcp import Client

    server = Server(["mcp", "--index", str(index_dir), "--transport", "http", "--port", "0"])
    try:

        async def main() -> dict:
            with anyio.fail_after(180):
                async with Client(server.url) as client:
                    return await _exercise(client)

        _check(anyio.run(main))
    finally:
        server.stop()


def test_mcp_over_http_needs_the_key_off_loopback_style(index_dir):
    """With a key configured, the MCP endpoint answers 401 without it (the same guard as the HTTP API)."""
    key = "k" * 8 + "e" * 8 + "y" * 8
    server = Server(
        ["mcp", "--index", str(index_dir), "--transport", "http", "--port", "0"],
        env=cli_env(OPENAPI_RAG_API_KEY=key),
    )
    try:
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {"Accept": "application/json, text/event-stream"}
        assert httpx.post(server.url, json=body, headers=headers).status_code == 401
        wrong = httpx.post(server.url, json=body, headers={**headers, "Authorization": "Bearer " + "x" * 24})
        assert wrong.status_code == 401
    finally:
        log = server.stop()
    assert key not in log


def _inspector() -> Path:
    """The Inspector CLI: installed by `make`, or installed now (bounded) when node is there."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node/npm not installed: the MCP Inspector CLI (npm) cannot run here")
    binary = INSPECTOR_PREFIX / "node_modules" / ".bin" / "mcp-inspector"
    if not binary.exists():
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(INSPECTOR_PREFIX),
                INSPECTOR_PACKAGE,
            ],
            check=True,
            timeout=300,
            capture_output=True,
        )
    return binary


def _inspect(binary: Path, target: list[str], *args: str) -> dict:
    done = subprocess.run(
        [str(binary), "--cli", *target, *args], capture_output=True, text=True, timeout=180, env=cli_env()
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_mcp_inspector_cli_lists_and_calls_tools(index_dir):
    """Over streamable HTTP: each Inspector call costs seconds of node start-up, so three calls
    (the SDK tests above call every tool, over stdio too)."""
    binary = _inspector()
    server = Server(["mcp", "--index", str(index_dir), "--transport", "http", "--port", "0"])
    try:
        http = [server.url, "--transport", "http"]
        listed = _inspect(binary, http, "--method", "tools/list")
        assert sorted(t["name"] for t in listed["tools"]) == [
            "get_endpoint",
            "list_services",
            "search_endpoints",
        ]
        call = ["--method", "tools/call", "--tool-name"]
        found = _inspect(
            binary, http, *call, "search_endpoints", "--tool-arg", "query=top tracks of an artist"
        )
        first = found["structuredContent"]["results"][0]["id"]
        assert first == "spotify-web-api GET /artists/{id}/top-tracks"
        detail = _inspect(binary, http, *call, "get_endpoint", "--tool-arg", f"id={first}")
        assert json.loads(detail["content"][0]["text"])["path"] == "/artists/{id}/top-tracks"
    finally:
        server.stop()
