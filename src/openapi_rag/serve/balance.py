"""Keep the workers' shares of keep-alive connections even.

The workers accept from one listening socket, and the kernel gives each new connection to
whichever worker is first to accept: a burst of connections (a client pool opening, a load
generator starting) lands mostly on one. Keep-alive connections then stay where they landed, and
since each worker answers its requests one at a time, a request waits behind every other request
of its own worker: `bench serve` measured 27 of 32 connections on one worker and 5 on the other,
the first worker's answers taking about five times as long.

So a worker holding more than its share (the ceiling of all workers' connections over the number
of workers) asks the client to reconnect: its next answer says `Connection: close` (HTTP/1.1's own
way, which every client handles by opening a new connection for its next request). The new
connection goes to whichever worker accepts first, most often the less busy one, which polls its
socket more often; where it does not, the next answer sheds it again. Each worker writes its own
count of open connections into memory shared by all (set up before the fork).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from openapi_rag.serve.security import ASGIApp, Message, Receive, Scope, Send

REFRESH_S = 0.25  # how often an idle worker's count is written (a busy one writes at each answer)


class ConnectionCounts:
    """One count of open connections per worker, in memory shared across the fork."""

    def __init__(self, workers: int):
        from multiprocessing.sharedctypes import RawArray

        self.counts: Any = RawArray("i", workers)  # an int per worker, no lock: each writes its own

    def __len__(self) -> int:
        return len(self.counts)

    def share(self) -> int:
        """Connections one worker should hold: all of them over the workers, rounded up."""
        return -(-sum(self.counts) // len(self.counts))


class ConnectionBalancer:
    """ASGI middleware of one worker: `Connection: close` on answers while it holds more than its share.

    Args:
        app: the application.
        counts: every worker's open connections.
        slot: this worker's place in `counts`.
        open_connections: this worker's open connections now (uvicorn's server state).
    """

    def __init__(
        self, app: ASGIApp, counts: ConnectionCounts, slot: int, open_connections: Callable[[], int]
    ):
        self.app = app
        self.counts = counts
        self.slot = slot
        self.open_connections = open_connections
        self.shed = 0  # connections this worker asked to reconnect

    def start_refresh(self) -> None:
        """Write this worker's count every `REFRESH_S`, so that an idle worker's stays true."""

        def loop() -> None:
            while True:
                self.counts.counts[self.slot] = self.open_connections()
                time.sleep(REFRESH_S)

        threading.Thread(target=loop, name="connection-count", daemon=True).start()

    def _should_shed(self) -> bool:
        mine = self.open_connections()
        self.counts.counts[self.slot] = mine
        if mine <= self.counts.share():
            return False
        self.counts.counts[self.slot] = mine - 1  # closing now: the others see it at once
        self.shed += 1
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or len(self.counts) < 2:
            await self.app(scope, receive, send)
            return

        async def send_balanced(message: Message) -> None:
            if message["type"] == "http.response.start" and self._should_shed():
                headers = [h for h in message.get("headers", []) if h[0].lower() != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, send_balanced)
