"""Server-side timing of each request: the whole app and the search inside it, in `Server-Timing`.

The layers' own cost (`bench serve`) is `app - search` per request, measured where it happens: a
client's wall time adds the loopback round trip and the client's CPU, and a search in the
measuring process is not the search the worker runs. The outermost ASGI middleware starts the
clock when uvicorn hands it the parsed request and stops it when the response is complete (the
start message is held until the last body message, so the header can carry the full duration);
`SearchService` adds the time it spends embedding and in `Index.search` to the request's record
through a context variable. Each is timed twice: wall time, and CPU time of the serving thread
(`*-cpu`), which a busy machine does not inflate the way it stretches wall time when it takes the
core away mid-request. The header carries durations only, in milliseconds:
`Server-Timing: search;dur=6.112, app;dur=6.391, search-cpu;dur=6.050, app-cpu;dur=6.280`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from openapi_rag.serve.security import ASGIApp, Message, Receive, Scope, Send


class RequestTiming:
    """Seconds a request has spent searching (embedding and `Index.search`), summed: wall time
    and the serving thread's CPU time."""

    __slots__ = ("search", "search_cpu")

    def __init__(self) -> None:
        self.search = 0.0
        self.search_cpu = 0.0


class Stopwatch:
    """Wall and thread CPU time since it was made."""

    __slots__ = ("wall", "cpu")

    def __init__(self) -> None:
        self.wall = time.perf_counter()
        self.cpu = time.thread_time()

    def elapsed(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.thread_time() - self.cpu


# The record of the request this task is serving; None outside a timed request (the library, tests).
CURRENT: ContextVar[RequestTiming | None] = ContextVar("openapi_rag_request_timing", default=None)


@contextmanager
def timed_request() -> Iterator[tuple[Stopwatch, RequestTiming]]:
    """A started clock and a new record, the record made the one this task serves for the block
    (an HTTP request in `ServerTimingMiddleware`, an MCP tool call in `McpCallTiming`)."""
    clock = Stopwatch()
    record = RequestTiming()
    token = CURRENT.set(record)
    try:
        yield clock, record
    finally:
        CURRENT.reset(token)


def add_search_time(elapsed: tuple[float, float], record: RequestTiming | None = None) -> None:
    """Count (wall, CPU) seconds of search work to `record`, or to the request this task serves."""
    record = record if record is not None else CURRENT.get()
    if record is not None:
        record.search += elapsed[0]
        record.search_cpu += elapsed[1]


def server_timing(app: tuple[float, float], record: RequestTiming) -> bytes:
    """The header's value from the app's (wall, CPU) seconds: `search` only where it searched."""
    wall = [f"search;dur={record.search * 1000:.3f}"] if record.search else []
    cpu = [f"search-cpu;dur={record.search_cpu * 1000:.3f}"] if record.search else []
    return ", ".join([*wall, f"app;dur={app[0] * 1000:.3f}", *cpu, f"app-cpu;dur={app[1] * 1000:.3f}"]).encode()


def parse_server_timing(value: str) -> dict[str, float]:
    """{name: milliseconds} from a `Server-Timing` header (metrics without `dur` are left out)."""
    out = {}
    for metric in value.split(","):
        name, _, params = metric.strip().partition(";")
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key == "dur":
                try:
                    out[name.strip()] = float(number)
                except ValueError:
                    pass
    return out


class ServerTimingMiddleware:
    """Outermost ASGI middleware: times each HTTP request and reports it in `Server-Timing`."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: Message | None = None
        with timed_request() as (clock, record):

            async def send_timed(message: Message) -> None:
                nonlocal held
                kind = message["type"]
                if kind == "http.response.start":
                    held = message  # sent with the body, once the duration is known
                    return
                if kind == "http.response.body" and held is not None:
                    header = (b"server-timing", server_timing(clock.elapsed(), record))
                    start_message: dict[str, Any] = {**held, "headers": [*held.get("headers", []), header]}
                    held = None
                    await send(start_message)
                await send(message)

            await self.app(scope, receive, send_timed)


class McpCallTiming:
    """MCP server middleware (the SDK's context tier): times each `tools/call` from the SDK's
    dispatch (lookup, argument validation, the tool, result conversion) and the search inside it.

    `calls` collects ((wall, CPU) seconds in the call, its search record); `bench serve` reads them. The MCP
    protocol has no header to carry them, so the server does not install it.
    """

    def __init__(self) -> None:
        self.calls: list[tuple[tuple[float, float], RequestTiming]] = []

    async def __call__(self, ctx: Any, call_next: Any) -> Any:
        if ctx.method != "tools/call":
            return await call_next(ctx)
        with timed_request() as (clock, record):
            try:
                return await call_next(ctx)
            finally:
                self.calls.append((clock.elapsed(), record))
