"""Where a search's time goes: wall time per stage, for `openapi-rag bench search --slowest`.

A `Searcher` with a `StageTimes` attached (`searcher.timer = StageTimes()`) adds each stage's
wall time to it; without one (the default) a stage costs entering a shared no-op context (well under a µs). Stages, in order:
`clauses` (splitting the request), `embed` (the model run, tokenizing included), `dense`, `bm25`
and `fusion` (per text), `chunks` (reading the hits' chunk heads), `aggregate` (chunks to
operations), `rescore` (verbs, producers, k="auto"), `settle`, `fold` and `expand`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager


class StageTimes:
    """Milliseconds per stage, summed over the searches since the last `take`."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.ms[name] = self.ms.get(name, 0.0) + (time.perf_counter() - start) * 1000

    def take(self) -> dict[str, float]:
        """The times so far, and start again from zero."""
        out, self.ms = self.ms, {}
        return out
