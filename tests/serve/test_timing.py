"""The layers' timing: Server-Timing from a real server, the answer bytes the models would give, the
MCP dispatch's split, and a direct baseline opened with the workers' thread counts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
import httpx
import pytest

from openapi_rag.serve.timing import parse_server_timing

# What Server-Timing may carry: names and durations, nothing else (no key, no query, no path).
ONLY_DURATIONS = re.compile(r"(?:[a-z-]+;dur=\d+\.\d{3})(?:, [a-z-]+;dur=\d+\.\d{3})*")


def test_a_search_answer_times_the_app_and_the_search_inside_it(http_server):
    base = http_server.url
    answer = httpx.get(f"{base}/search", params={"q": "create a playlist for a user", "k": 5})
    header = answer.headers["server-timing"]
    assert ONLY_DURATIONS.fullmatch(header), header
    timing = parse_server_timing(header)
    assert set(timing) == {"search", "app", "search-cpu", "app-cpu"}
    # The search (an ONNX run and Index.search) is inside the request and takes real time.
    assert 0 < timing["search"] < timing["app"] and 0 < timing["search-cpu"] < timing["app-cpu"]
    batch = httpx.post(f"{base}/search", json={"queries": ["my top artists", "price estimate"], "k": 2})
    assert 0 < parse_server_timing(batch.headers["server-timing"])["search"]

    health = httpx.get(f"{base}/healthz")
    assert set(parse_server_timing(health.headers["server-timing"])) == {"app", "app-cpu"}
    refused = httpx.get(f"{base}/search", params={"q": "a", "k": 0})
    assert refused.status_code == 422 and "search" not in parse_server_timing(refused.headers["server-timing"])


def test_search_answers_are_the_bytes_the_response_models_give(index_dir: Path):
    """The routes encode their answers themselves; pydantic through the documented model (what
    FastAPI did before) gives the same bytes, non-ASCII text included."""
    from pydantic import TypeAdapter

    from openapi_rag.serve.http_app import create_app
    from openapi_rag.serve.service import IndexHolder, SearchService
    from openapi_rag.serve.settings import ServeSettings

    app = create_app(SearchService(IndexHolder(index_dir)), ServeSettings(index_dir=index_dir))
    models = {
        (route.path, method): route.response_model
        for route in app.fastapi.routes
        if getattr(route, "response_model", None) is not None
        for method in route.methods
    }

    async def ask() -> list[tuple[httpx.Response, object]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            out = []
            for query in ("créer une playlist « été »", "播放列表 playlist", "price estimate for a ride"):
                out.append((await client.get("/search", params={"q": query, "k": 7}), models["/search", "GET"]))
            batch = {"queries": ["top artists", "ride"], "k": 3}
            out.append((await client.post("/search", json=batch), models["/search", "POST"]))
            return out

    for response, model in anyio.run(ask):
        assert response.status_code == 200 and response.headers["content-type"] == "application/json"
        adapter = TypeAdapter(model)
        assert response.content == adapter.dump_json(adapter.validate_python(response.json()))


def test_the_mcp_dispatch_is_timed_apart_from_the_search(index_dir: Path):
    from mcp import Client

    from openapi_rag.serve.mcp_server import build_mcp
    from openapi_rag.serve.service import IndexHolder, SearchService
    from openapi_rag.serve.timing import McpCallTiming

    server = build_mcp(SearchService(IndexHolder(index_dir)))
    timing = McpCallTiming()
    server.middleware.insert(0, timing)

    async def call() -> None:
        async with Client(server) as client:
            await client.call_tool("search_endpoints", {"query": "price estimate for a ride", "k": 3})
            await client.call_tool("list_services", {})

    anyio.run(call)
    (search_call, search), (list_call, listing) = timing.calls
    assert 0 < search.search < search_call[0] and 0 < search.search_cpu < search_call[1]
    assert listing.search == 0 and list_call[0] > 0


def test_the_direct_baseline_uses_the_workers_threads(index_dir: Path):
    faiss = pytest.importorskip("faiss")
    from openapi_rag.serve.overhead import like_the_workers, spread

    before = faiss.omp_get_max_threads()
    with like_the_workers(index_dir, workers=2) as holder:
        assert faiss.omp_get_max_threads() == 1
        assert holder.current.index.embedder._threads == 1
        assert holder.current.index.search("my top artists", k=3, expand=False)
    assert faiss.omp_get_max_threads() == before
    assert spread([1.0, 2.0, 3.0, 4.0, 50.0]) == {"median": 3.0, "p95": 50.0}
    assert json.dumps(spread([0.5]))  # one query is enough to report


def test_a_non_finite_score_is_encoded_as_the_model_would_never_a_500():
    from openapi_rag.serve.http_app import encoded

    assert encoded({"query": "x", "results": [{"score": float("nan")}]}).body == b'{"query":"x","results":[{"score":null}]}'
