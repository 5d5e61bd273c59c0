"""`openapi-rag mcp`: the index as an MCP server (stdio or streamable HTTP)."""

from __future__ import annotations

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors
from openapi_rag.cli.serve_cmd import http_url, make_settings, require, security_options
from openapi_rag.cli.store_options import index_or_store_options

MCP_EXTRA_HINT = 'the MCP server needs the `mcp` extra: pip install "openapi-rag[mcp]"'


@cli.command()
@index_or_store_options()
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio: the MCP client starts this command; http: streamable HTTP at /mcp.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="With --transport http.")
@click.option("--port", type=int, default=8001, show_default=True, help="With --transport http (0: any).")
@security_options
@handle_errors
def mcp(
    index_dir: str,
    transport: str,
    host: str,
    port: int,
    key_file: str | None,
    rate: float,
    burst: int,
    cors_origins: tuple[str, ...],
) -> None:
    """Serve the index to LLM agents over MCP: search_endpoints, get_endpoint, list_services.

    \b
    Examples:
      openapi-rag mcp --index idx/                          # stdio, for Claude Desktop, IDEs, agent SDKs
      openapi-rag mcp --index idx/ --transport http --port 8001   # http://127.0.0.1:8001/mcp
    """
    require(("mcp", "uvicorn"), MCP_EXTRA_HINT)
    from openapi_rag.serve.mcp_server import run_mcp

    settings = make_settings(index_dir, host, port, 1, key_file, rate, burst, cors_origins)

    def ready(bound_host: str, bound_port: int) -> None:
        err(f"MCP over streamable HTTP at {http_url(bound_host, bound_port)}/mcp")

    run_mcp(settings, transport, on_ready=ready)
