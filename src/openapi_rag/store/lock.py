"""One writer at a time per index directory; readers are never blocked.

A writer holds an exclusive `fcntl.flock` on `.<name>.lock` beside the directory (beside, not inside:
a save swaps the whole directory, see `atomic.py`, and a lock file inside would be swapped away with
it). The kernel drops the lock when the process dies, even on `kill -9`, so a crashed writer never
leaves a stale lock behind. The holder writes its PID into the file so that a second writer can say
who it is waiting for. Readers take no lock: they read a complete, swapped-in directory.

`fcntl` rather than the `filelock` package because the lock must also tell the waiting process the
holder's PID, which means owning the file's content; `fcntl` is POSIX-only, like the atomic swap.
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from openapi_rag.errors import IndexLocked

# How often a waiting writer retries; short enough that waiting adds little to an update.
_POLL_SECONDS = 0.1


def lock_path(target: str | Path) -> Path:
    """The lock file of the index directory `target`."""
    target = Path(target).absolute()
    return target.parent / f".{target.name}.lock"


def _holder(fd: int) -> str:
    try:
        return os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
    except OSError:
        return "unknown"


@contextmanager
def writer_lock(target: str | Path, *, wait: bool = False, timeout: float | None = None) -> Iterator[None]:
    """Hold the exclusive writer lock of `target` for the duration of the block.

    Args:
        target: the index directory (it need not exist yet).
        wait: wait for another writer to finish instead of failing at once.
        timeout: with `wait`, give up after this many seconds (None: wait as long as it takes).

    Raises:
        IndexLocked: another process is writing `target` (and `wait` is off or timed out).
    """
    path = lock_path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not wait or (deadline is not None and time.monotonic() >= deadline):
                    raise IndexLocked(
                        f"{Path(target)} is being updated by PID {_holder(fd)}: "
                        "wait for it to finish, or pass --wait to queue behind it",
                        directory=Path(target),
                    ) from None
                time.sleep(_POLL_SECONDS)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def is_being_written(target: str | Path) -> bool:
    """True while some process holds the writer lock of `target` (never blocks, never creates files)."""
    path = lock_path(target)
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    finally:
        os.close(fd)
