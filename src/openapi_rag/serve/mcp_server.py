"""The MCP server (official `mcp` SDK): three tools over the same `SearchService` as the HTTP API.

An agent searches first (`search_endpoints`, one line per hit), fetches the few operations it will
use (`get_endpoint`, sized to a few thousand tokens) and lists the catalog only when it needs to
know what is there (`list_services`). That is the whole surface: the catalog is never turned into
one tool per operation.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from mcp_types import CallToolResult, TextContent, ToolAnnotations

from openapi_rag import __version__
from openapi_rag.serve.service import BadRequest, NotFound, SearchService
from openapi_rag.serve.settings import ServeSettings

INSTRUCTIONS = (
    "Find the API operations (HTTP endpoints) that accomplish a task, in a catalog of OpenAPI "
    "descriptions. Call search_endpoints with the task in plain words; then get_endpoint for the few "
    "ids you will actually call; list_services only to see which APIs the catalog holds."
)

SEARCH_DESCRIPTION = """Search the API catalog for the endpoints that accomplish a task.

Use this first, with the task in plain words ("send an SMS to a customer", "list the pods of a
namespace"); it is cheap, so search again with other words rather than guessing. Returns up to k
hits, best first, each {id, summary, score}: id is "SERVICE METHOD /path" (pass it to
get_endpoint), summary is one line, score is relative (compare within one answer only).
Pass `service` (an id from list_services) to search one API."""

GET_DESCRIPTION = """Get one endpoint in detail: parameters, request body, success response and
security, with schemas resolved, sized to about max_tokens (default 3000).

Use it for the endpoints you picked from search_endpoints, before you call them. `id` is
"SERVICE METHOD /path" exactly as search_endpoints returned it. The answer's `view.left_out` says
what was cut to fit: ask again with errors=true (error responses), examples=true (examples), a
larger depth (schemas shown as {"x-ref": name}) or a larger max_tokens. {"x-cycle": name} marks a
schema that contains itself."""

LIST_DESCRIPTION = """List the APIs in the catalog: service id, title, version and number of
operations. Use it to learn what the catalog covers or to pick a `service` for search_endpoints;
to find an endpoint, use search_endpoints instead."""


def build_mcp(search_service: SearchService) -> Any:
    """An `MCPServer` with the three tools (their annotations are read by the SDK: module-level types)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    # WARNING: the SDK configures root logging at this level; per-request INFO lines would be noise.
    server = MCPServer(
        name="openapi-rag", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING"
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False, idempotent_hint=True)

    def reply(data: Any) -> CallToolResult:
        # Compact JSON as the text an LLM reads (the SDK would indent it: ~30% more tokens).
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)

    @contextmanager
    def tool_errors() -> Iterator[None]:
        """The service's refusals (bad input, unknown id) as a tool error whose text the agent reads."""
        try:
            yield
        except (BadRequest, NotFound) as exc:
            raise ToolError(str(exc)) from exc

    # A coroutine: the SDK runs a plain function on a worker thread, and the hop there and back
    # cost more than the search's share of the event loop (the HTTP API searches on its loop too).
    @server.tool(description=SEARCH_DESCRIPTION, annotations=read_only)
    async def search_endpoints(query: str, k: int = 10, service: str | None = None) -> CallToolResult:
        with tool_errors():
            hits = await search_service.asearch(query, k=k, service=service, field="query")
        # id already names service, method and path: the rest would only cost the agent tokens.
        return reply({"results": [{"id": h["id"], "summary": h["summary"], "score": h["score"]} for h in hits]})

    @server.tool(description=GET_DESCRIPTION, annotations=read_only)
    def get_endpoint(
        id: str, depth: int = 3, errors: bool = False, examples: bool = False, max_tokens: int = 3000
    ) -> CallToolResult:
        with tool_errors():
            view = search_service.get_endpoint(
                id, depth=depth, errors=errors, examples=examples, max_tokens=max_tokens
            )
        return reply(view)

    @server.tool(description=LIST_DESCRIPTION, annotations=read_only)
    def list_services() -> CallToolResult:
        return reply({"services": search_service.services()})  # refuses nothing: no tool error to map

    return server


def run_mcp(settings: ServeSettings, transport: str, *, on_ready: Any = None) -> None:
    """Serve MCP over stdio (the client starts us) or streamable HTTP at /mcp."""
    from openapi_rag.serve.service import IndexHolder, warm_embedder

    if transport != "stdio":
        settings.check()  # before the index is loaded: a refused start should be quick
    holder = IndexHolder(settings.index_dir)
    # The embedder's session starts while the client runs its handshake (which needs no search):
    # a second or two off the time to the first answer.
    threading.Thread(target=warm_embedder, args=(holder.current.index,), daemon=True).start()
    holder.watch(settings.reload_interval)
    server = build_mcp(SearchService(holder, settings.limits))
    if transport == "stdio":
        server.run("stdio")
        return
    from openapi_rag.serve.runner import bind_socket, uvicorn_server
    from openapi_rag.serve.security import Guard

    app = Guard(server.streamable_http_app(host=settings.host), settings)
    sock = bind_socket(settings.host, settings.port)
    if on_ready:
        on_ready(settings.host, sock.getsockname()[1])
    uvicorn_server(app, settings).run(sockets=[sock])
