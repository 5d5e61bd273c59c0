"""How index-time LLM work runs: a model loaded once on first use, operations asked over a worker pool.

Shared by the LLM strategies (`llm_strategies`), the view writer (`llm_views`) and the evaluation's
agent and policy retrievers (`bench.agent_retrievers`), so the three load and map alike.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from openapi_rag.llm.base import LLM
from openapi_rag.llm.registry import get_llm

__all__ = ["LazyLLM", "map_ops"]

T = TypeVar("T")
R = TypeVar("R")


class LazyLLM:
    """A model loaded on the first `get()` (building an index may never need it), and only once.

    Args:
        spec: a name or config mapping for `get_llm`, None for the configured model, or an `LLM`,
            used as given (never wrapped in the reply cache).
        cache: `get_llm`'s `cache` (True: the on-disk reply cache) for a model loaded by name.
    """

    def __init__(self, spec: str | Mapping[str, Any] | LLM | None, *, cache: bool = False) -> None:
        self.spec = spec
        self.cache = cache
        self._llm: LLM | None = spec if isinstance(spec, LLM) else None
        self._lock = threading.Lock()

    def get(self) -> LLM:
        # Under a lock: worker threads ask at the same time, and each would otherwise load the model
        # and open the reply cache (SQLite refuses the race).
        with self._lock:
            if self._llm is None:
                self._llm = get_llm(self.spec, cache=self.cache)
            return self._llm


def map_ops(fn: Callable[[T], R], ops: Sequence[T], workers: int) -> list[R]:
    """`fn` of each of `ops`, in order: in this thread for one worker or one operation, else on a
    pool of `workers` threads (a remote server answers several at once; a local model serialises
    its calls itself)."""
    if workers <= 1 or len(ops) <= 1:
        return [fn(op) for op in ops]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, ops))
