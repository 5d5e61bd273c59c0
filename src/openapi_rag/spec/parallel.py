"""Load many API descriptions at once, one worker process per core.

Reading a description (YAML parsing, `$ref` bundling, cleaning) is pure Python and holds the GIL:
on the realworld corpus it was 55 s of a 285 s index build on two cores, one core busy and the
other idle. Worker processes parse side by side and send back the loaded `Service`s (pickled, much
cheaper than parsing); the caller gets them in the order it asked for, so ids, chunks and vectors
are the same as a one-process load's.

Workers are forked, and only from a process with no other Python thread: a fork copies every
lock as it stands, and a server's threads or a progress bar's may hold one the child would then
wait on forever. The native pools that libraries start on import (OpenBLAS, with numpy) or on
use (ONNX Runtime, OpenMP) are no obstacle: the children run only this package's parsing code,
never those libraries, and glibc's allocator and CPython's own locks are reset in a forked child.
Spawned workers would need none of this but re-run the caller's main module, and a user's script
without an `if __name__ == "__main__"` guard would run again in each of them, side effects and all.
Where a fork is not safe, the descriptions load in the calling process, with the same result.
"""

from __future__ import annotations

import logging
import multiprocessing
import sys
import threading
import warnings
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import repeat

from openapi_rag.errors import SpecError
from openapi_rag.model import Service
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.load import load_service

logger = logging.getLogger(__name__)

MIN_FILES = 4
"""Fewer files than this load in the calling process: a small update (one changed file, a test's
folder) gains nothing from forking and pickling."""


@dataclass(frozen=True)
class LoadFailed:
    """A description that could not be loaded: `SpecError`'s reason and place (exceptions with
    their own constructors do not always survive pickling, so a worker sends this instead)."""

    reason: str
    where: str | None


def load_many(
    entries: Sequence[str],
    *,
    clean: Iterable[str] | None,
    limits: ReadLimits,
    workers: int,
) -> Iterator[tuple[str, Service | LoadFailed]]:
    """Each entry with its loaded `Service` or why it failed, in the order of `entries`.

    The workers start here, before the first result is asked for (a progress bar's thread, started
    after, is then no obstacle to forking).

    Args:
        workers: processes to parse in; 1 (or fewer than `MIN_FILES` entries): this process.
    """
    steps = list(clean or [])
    context = _fork_context() if workers > 1 and len(entries) >= MIN_FILES else None
    if context is None:
        return ((entry, _load(entry, steps, limits)) for entry in entries)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(entries)), mp_context=context)
    try:
        with warnings.catch_warnings():
            # Python 3.12+ warns of any thread at a fork, native pools included (see the docstring)
            warnings.filterwarnings(
                "ignore", message=r".*fork\(\) may lead to deadlocks", category=DeprecationWarning
            )
            outcomes = pool.map(_load, entries, repeat(steps), repeat(limits))  # forks every worker now
    except BaseException:
        pool.shutdown(cancel_futures=True)
        raise
    return _drained(pool, zip(entries, outcomes, strict=True))


def _drained(
    pool: ProcessPoolExecutor, results: Iterator[tuple[str, Service | LoadFailed]]
) -> Iterator[tuple[str, Service | LoadFailed]]:
    try:
        yield from results
    finally:  # also when the caller stops early: no worker outlives the load
        pool.shutdown(cancel_futures=True)


def _fork_context() -> multiprocessing.context.BaseContext | None:
    """The fork context where forking is safe (Linux, no other Python thread), else None."""
    if not sys.platform.startswith("linux"):
        return None
    if threading.active_count() > 1:
        logger.debug("descriptions read in this process: other threads here may hold locks a fork would copy")
        return None
    return multiprocessing.get_context("fork")


def _load(entry: str, clean: list[str], limits: ReadLimits) -> Service | LoadFailed:
    try:
        return load_service(entry, clean=clean, limits=limits)
    except SpecError as exc:
        return LoadFailed(exc.reason, exc.where)
