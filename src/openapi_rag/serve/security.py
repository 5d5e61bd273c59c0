"""API keys and rate limits, as one ASGI middleware shared by the HTTP API and the MCP server.

Keys arrive as `Authorization: Bearer KEY` or `X-API-Key: KEY` and are compared with
`hmac.compare_digest` against every configured key (no early exit), so timing tells nothing about
how much of a key was right. Keys are never logged; a client is identified in metrics and limits
by a short hash of its key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from openapi_rag.serve.settings import ServeSettings

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Routes a load balancer or monitor reads without a key: they reveal nothing about the catalog.
OPEN_PATHS = frozenset({"/healthz"})


def key_id(key: str) -> str:
    """A name for a key that is safe to log and to use as a metrics label."""
    return hashlib.sha256(key.encode()).hexdigest()[:8]


def match_key(given: str, keys: tuple[str, ...]) -> str | None:
    """The configured key equal to `given`, compared in constant time against all of them."""
    found = None
    for key in keys:
        if hmac.compare_digest(given.encode(), key.encode()):
            found = key
    return found


class RateLimiter:
    """A token bucket per client: `rate` requests per second on average, bursts up to `burst`."""

    def __init__(self, rate: float, burst: int):
        self.rate = rate
        self.burst = float(max(1, burst))
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, last time)
        self._lock = threading.Lock()

    def allow(self, client: str, now: float | None = None) -> float:
        """0 when the request may go ahead, else the seconds to wait before the next one."""
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= 1:
                self._buckets[client] = (tokens - 1, now)
                return 0.0
            self._buckets[client] = (tokens, now)
            return (1 - tokens) / self.rate if self.rate > 0 else 60.0


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def given_key(scope: Scope) -> str | None:
    auth = _header(scope, b"authorization")
    if auth and auth[:7].lower() == "bearer ":
        return auth[7:].strip()
    return _header(scope, b"x-api-key")


async def send_json(
    send: Send, status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]]
) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
            + headers,
        }
    )
    await send({"type": "http.response.body", "body": data})


class Guard:
    """ASGI middleware: API key (where configured), per-key rate limit and request body size."""

    def __init__(self, app: ASGIApp, settings: ServeSettings):
        self.app = app
        self.keys = settings.keys
        self.max_body = settings.limits.max_body_bytes
        limits = settings.limits
        limited = bool(settings.keys) or settings.rate_limit_loopback
        # Each worker sees about 1/N of the traffic: its share of the rate keeps the whole near it.
        share = max(1, settings.workers)
        self.limiter = (
            RateLimiter(limits.rate_per_second / share, max(1, limits.rate_burst // share))
            if limited
            else None
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = "local"
        if self.keys and scope.get("path") not in OPEN_PATHS:
            key = match_key(given_key(scope) or "", self.keys)
            if key is None:
                await send_json(
                    send,
                    401,
                    {
                        "error": "unauthorized",
                        "detail": "missing or wrong API key (Authorization: Bearer KEY)",
                    },
                    [(b"www-authenticate", b"Bearer")],
                )
                return
            client = key_id(key)
        scope.setdefault("state", {})["client"] = client
        if self.limiter is not None and scope.get("path") not in OPEN_PATHS:
            wait = self.limiter.allow(client)
            if wait:
                await send_json(
                    send,
                    429,
                    {"error": "rate_limited", "detail": f"too many requests; retry in {wait:.2f} s"},
                    [(b"retry-after", str(max(1, round(wait))).encode())],
                )
                return
        length = _header(scope, b"content-length")
        if length is not None:
            if not length.isdigit() or int(length) > self.max_body:
                await _body_too_large(send, self.max_body)
                return
            await self.app(scope, receive, send)
            return
        # No length given (chunked, or no body): read it here, up to the limit, then replay it.
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            more = bool(message.get("more_body"))
            if len(body) > self.max_body:
                await _body_too_large(send, self.max_body)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _body_too_large(send: Send, limit: int) -> None:
    await send_json(
        send,
        413,
        {"error": "body_too_large", "field": "body", "detail": f"request body over {limit} bytes"},
        [],
    )
