"""Prometheus metrics: requests by route and status, latency histograms, index size.

With several workers, prometheus_client's multiprocess mode is used (each worker writes its
samples to files under PROMETHEUS_MULTIPROC_DIR, which the parent creates before forking), so
`/metrics` from any worker reports the whole server.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from typing import Any

from openapi_rag.serve.security import ASGIApp, Message, Receive, Scope, Send

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
# Search latency on two cores is 5–50 ms; the buckets resolve that range and the tail.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The server's metrics in their own registry (tests may build many servers in one process)."""

    def __init__(self, stats: Callable[[], dict[str, Any]]):
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.multiprocess = bool(os.environ.get(MULTIPROC_ENV))
        # In multiprocess mode, samples live in files; a per-process registry only collects them.
        self.registry = CollectorRegistry(auto_describe=True)
        register_to = None if self.multiprocess else self.registry
        self.requests = Counter(
            "openapi_rag_requests",
            "HTTP requests by route and status.",
            ["route", "status"],
            registry=register_to,
        )
        self.latency = Histogram(
            "openapi_rag_request_seconds",
            "HTTP request latency by route.",
            ["route"],
            buckets=BUCKETS,
            registry=register_to,
        )
        # Batch sizes reached by the embedder (`batching.py`): texts / batches is the mean.
        self.embed_batches = Counter(
            "openapi_rag_embed_batches", "Runs of the embedder for search requests.", registry=register_to
        )
        self.embedded_texts = Counter(
            "openapi_rag_embedded_texts", "Texts embedded for search requests.", registry=register_to
        )
        self.stats = stats

    def observe_embed_batch(self, texts: int) -> None:
        self.embed_batches.inc()
        self.embedded_texts.inc(texts)

    def render(self) -> tuple[bytes, str]:
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        registry = self.registry
        if self.multiprocess:
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
        body = generate_latest(registry) + self._index_lines()
        return body, CONTENT_TYPE_LATEST

    def _index_lines(self) -> bytes:
        """Index size gauges, read at scrape time from the index this worker serves."""
        stats = self.stats()
        lines = []
        for name, help_text in (
            ("operations", "Operations in the served index."),
            ("chunks", "Chunks in the served index."),
            ("services", "Services in the served index."),
            ("reloads", "Times this worker swapped in a rebuilt index."),
        ):
            metric = f"openapi_rag_index_{name}"
            lines += [f"# HELP {metric} {help_text}", f"# TYPE {metric} gauge", f"{metric} {stats[name]}"]
        return ("\n".join(lines) + "\n").encode()


_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:-]{1,64}")


def _request_id(scope: Scope) -> bytes | None:
    """The request's `X-Request-Id` when it is a short plain token, else None (never echoed)."""
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id":
            return value if _REQUEST_ID.fullmatch(value) else None
    return None


class MetricsMiddleware:
    """ASGI middleware counting every response, the 401s and 429s of the guard included. It also
    hands a request's `X-Request-Id` back on its answer, so that a client (`bench serve`) can pair
    answers with requests."""

    def __init__(self, app: ASGIApp, metrics: Metrics, route_of: Callable[[Scope], str]):
        self.app = app
        self.metrics = metrics
        self.route_of = route_of

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        recorded = False

        def record() -> None:
            nonlocal recorded
            if not recorded:
                recorded = True
                route = self.route_of(scope)
                self.metrics.requests.labels(route, str(status)).inc()
                self.metrics.latency.labels(route).observe(time.perf_counter() - start)

        request_id = _request_id(scope)

        async def send_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                if request_id is not None:
                    message = {**message, "headers": [*message.get("headers", []), (b"x-request-id", request_id)]}
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                # Counted before the last bytes go out: once a client has its answer, /metrics
                # (from any worker) already counts it.
                record()
            await send(message)

        try:
            await self.app(scope, receive, send_status)
        finally:
            record()
