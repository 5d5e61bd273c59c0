"""What the HTTP and MCP layers add to `Index.search`, per query, measured two ways (`bench serve`).

Server-side, the layers' own cost: the running server's worker reports, in each answer's
`Server-Timing` header, how long the request took from the moment uvicorn handed it over to its
complete response (`app`) and how much of that was the search (`search`: embedding and
`Index.search`), so `app - search` is what routing, validation, limits, metrics, batching and
encoding cost, in the process that serves; the same split of the serving thread's CPU time
(`layer_cpu_ms`) leaves out the moments a busy machine took the core away. For MCP the same split comes from a middleware on
the SDK's dispatch (`timing.McpCallTiming`) of an in-memory session's server.

Client-side, like for like: `Index.search` called here, on an index opened as the server's
workers open it (the same embedder and FAISS thread counts: one each when there are several
workers), interleaved with the same query sent to the running server. The difference is what a
client sees: the layer, the loopback round trip, the scheduling of two processes and the client's
own CPU (stdlib `http.client`, and httpx, each on one keep-alive connection). Each stdlib request
is split exactly into wall - app (outside the application: loopback, uvicorn's parsing and writes,
waking the worker, the client), app - search (the layer) and search - direct (the same search in
the worker against the one here: other caches, another process to schedule). For MCP, the SDK's
in-memory client session against calling the search directly (both SDK sides, no transport), and
the SDK's client against `openapi-rag mcp --transport http` (one process, default threads, like
the direct index it is compared with): what an agent connected over streamable HTTP sees.
"""

from __future__ import annotations

import http.client
import statistics
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx

from openapi_rag.serve.cli_process import start_cli_server, stop_process
from openapi_rag.serve.load_trace import percentile
from openapi_rag.serve.timing import parse_server_timing


@contextmanager
def like_the_workers(index_dir: Path, workers: int) -> Iterator[Any]:
    """An `IndexHolder` over `index_dir` opened as each worker of a `workers`-process server
    opens it: the same embedder threads, the same FAISS threads (restored on exit), warmed."""
    import faiss

    from openapi_rag.serve.runner import embedder_for_workers
    from openapi_rag.serve.service import IndexHolder, warm_embedder

    before = faiss.omp_get_max_threads()
    try:
        if workers > 1:
            faiss.omp_set_num_threads(1)
        holder = IndexHolder(index_dir, embedder=embedder_for_workers(index_dir) if workers > 1 else None)
        warm_embedder(holder.current.index)
        yield holder
    finally:
        faiss.omp_set_num_threads(before)


def spread(values: list[float]) -> dict[str, float]:
    """Median and 95th percentile (nearest rank), in ms, of per-query figures."""
    ordered = sorted(values)
    return {
        "median": round(statistics.median(ordered), 3),
        "p95": round(percentile(ordered, 95), 3),
    }


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def measure_overhead(
    index_dir: Path, queries: list[str], k: int, mode: str, *, base: str, workers: int
) -> dict[str, Any]:
    """Per-query figures of both layers; `base` is the running server's URL, `workers` its count."""
    import anyio

    from openapi_rag.serve.service import SearchService

    with like_the_workers(index_dir, workers) as holder:
        index = holder.current.index
        http_figures = _http_times(index, queries, k, mode, base)
        mcp_figures = anyio.run(_mcp_times, SearchService(holder), index, queries, k)
    with like_the_workers(index_dir, workers=1) as holder, mcp_http_server(index_dir) as url:
        mcp_http = anyio.run(_mcp_http_times, url, holder.current.index, queries, k)
    direct = http_figures.pop("direct")
    return {
        "queries": len(queries),
        "direct_threads": 1 if workers > 1 else "default",
        "index_search_ms": round(statistics.median(direct), 2),
        # The headline figures: medians, in ms.
        "http_overhead_ms": http_figures["server"]["layer_ms"]["median"],
        "http_deployed_overhead_ms": http_figures["client"]["http.client"]["median"],
        "mcp_overhead_ms": mcp_figures["session"]["median"],
        "http_server": http_figures["server"],
        "http_client": http_figures["client"],
        "mcp_server": mcp_figures["server"],
        "mcp_session": mcp_figures["session"],
        "mcp_streamable_http": mcp_http,
    }


def _http_times(index: Any, queries: list[str], k: int, mode: str, base: str) -> dict[str, Any]:
    """Each query: direct, the stdlib client, direct again, httpx; every answer's Server-Timing."""
    parts = urlsplit(base)
    stdlib = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=30)
    direct: list[float] = []
    extra: dict[str, list[float]] = {"http.client": [], "httpx": []}
    layer, layer_cpu, app, search = [], [], [], []
    # The stdlib client's extra time, split per request: wall - direct = outside + layer + gap.
    outside: list[float] = []  # wall - app: loopback, uvicorn's parsing and writes, the client
    gap: list[float] = []  # search - direct: the same search in the worker against the one here

    def search_directly() -> float:
        start = time.perf_counter()
        index.search(query, k=k, mode=mode, expand=False)
        direct.append(_ms(start))
        return direct[-1]

    def read_timing(header: str | None) -> None:
        timing = parse_server_timing(header or "")
        if "app" not in timing:
            raise RuntimeError("the server sent no Server-Timing header")
        app.append(timing["app"])
        search.append(timing.get("search", 0.0))
        layer.append(timing["app"] - search[-1])
        layer_cpu.append(timing["app-cpu"] - timing.get("search-cpu", 0.0))

    with httpx.Client(base_url=base, timeout=30) as client:
        for query in queries:
            target = f"/search?{urlencode({'q': query, 'k': k, 'mode': mode})}"
            alone = search_directly()
            start = time.perf_counter()
            stdlib.request("GET", target)
            answer = stdlib.getresponse()
            answer.read()
            wall = _ms(start)
            extra["http.client"].append(wall - alone)
            if answer.status != 200:
                raise RuntimeError(f"GET {target}: {answer.status}")
            read_timing(answer.getheader("server-timing"))
            outside.append(wall - app[-1])
            gap.append(search[-1] - alone)
            alone = search_directly()
            start = time.perf_counter()
            response = client.get(target)
            extra["httpx"].append(_ms(start) - alone)
            response.raise_for_status()
            read_timing(response.headers.get("server-timing"))
    stdlib.close()
    return {
        "direct": direct,
        "server": {
            "layer_ms": spread(layer),
            "layer_cpu_ms": spread(layer_cpu),
            "app_ms": round(statistics.median(app), 2),
            "search_ms": round(statistics.median(search), 2),
        },
        "client": {
            **{name: spread(values) for name, values in extra.items()},
            # The parts of the http.client figure, request by request (their medians need not add up).
            "outside_app": spread(outside),
            "search_minus_direct": spread(gap),
        },
    }


async def _mcp_times(service: Any, index: Any, queries: list[str], k: int) -> dict[str, Any]:
    """Each query: direct, then `search_endpoints` (a hybrid search) through the SDK's in-memory
    client session."""
    from mcp import Client

    from openapi_rag.serve.mcp_server import build_mcp
    from openapi_rag.serve.timing import McpCallTiming

    server = build_mcp(service)
    timing = McpCallTiming()
    server.middleware.insert(0, timing)  # outermost: the SDK's own middleware counts as layer
    async with Client(server) as client:
        session = await _tool_extra_ms(client, index, queries, k)
    wall = [(total - record.search) * 1000 for (total, _), record in timing.calls]
    cpu = [(total - record.search_cpu) * 1000 for (_, total), record in timing.calls]
    return {"server": {"layer_ms": spread(wall), "layer_cpu_ms": spread(cpu)}, "session": spread(session)}


@contextmanager
def mcp_http_server(index_dir: Path) -> Iterator[str]:
    """`openapi-rag mcp --transport http` on 127.0.0.1 and a free port; its /mcp URL."""
    args = ["mcp", "--index", str(index_dir), "--transport", "http", "--host", "127.0.0.1", "--port", "0"]
    process, url = start_cli_server(args, "the MCP server")
    try:
        yield url
    finally:
        stop_process(process)


async def _mcp_http_times(url: str, index: Any, queries: list[str], k: int) -> dict[str, float]:
    """Each query: direct, then `search_endpoints` through the SDK's streamable HTTP client."""
    from mcp import Client

    async with Client(url) as client:
        # The server starts its embedder in a thread while clients connect: not timed.
        await client.call_tool("search_endpoints", {"query": queries[0], "k": k})
        return spread(await _tool_extra_ms(client, index, queries, k))


async def _tool_extra_ms(client: Any, index: Any, queries: list[str], k: int) -> list[float]:
    """Each query: direct, then `search_endpoints` (a hybrid search) through `client`; the
    tool call's extra milliseconds over the direct search."""
    extra = []
    for query in queries:
        start = time.perf_counter()
        index.search(query, k=k, mode="hybrid", expand=False)
        alone = _ms(start)
        start = time.perf_counter()
        result = await client.call_tool("search_endpoints", {"query": query, "k": k})
        extra.append(_ms(start) - alone)
        if result.is_error:
            raise RuntimeError(f"search_endpoints {query!r}: {result.content}")
    return extra
