"""Atomic replacement of a directory, so an interrupted save never destroys the last good index.

`atomic_dir(target)` yields an empty temporary directory next to `target`; when the block ends
without error, every file in it is fsynced and it is swapped in:

1. `target` is renamed to `.<name>.bak` (the previous version, if any),
2. the temporary directory is renamed to `target`,
3. the parent directory is fsynced and the backup deleted.

A crash before step 1 leaves `target` untouched (the temporary directory is garbage that the next
save removes). A crash between steps 1 and 2 leaves no `target` but a complete `.<name>.bak`:
`resolve_dir(target)` (called by every loader; `resolve_optional_dir` for a folder that may be
absent) renames it back, unless a writer holds the directory's lock (`lock.py`): then the swap is
in progress, not cut off, and the reader reads the complete backup where it lies. Concurrent saves
to one target must hold that lock (`build_index` and `Index.save` do; `save_tables` holds the
index's lock while it swaps the index's `tables/`).
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from openapi_rag.errors import IndexNotFound
from openapi_rag.store.lock import is_being_written

logger = logging.getLogger(__name__)

_TMP_INFIX = ".tmp-"


def backup_path(target: Path) -> Path:
    """Where the previous version of `target` sits during a swap."""
    return target.parent / f".{target.name}.bak"


def _fsync_path(path: Path) -> None:
    # Directories need an fsync too, or a crash can lose the names of files that were written.
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_tree(root: Path) -> None:
    """fsync every file and directory under `root` (inclusive), deepest first."""
    for dirpath, _dirnames, filenames in os.walk(root, topdown=False):
        for name in filenames:
            _fsync_path(Path(dirpath) / name)
        _fsync_path(Path(dirpath))


def _remove_stale_temps(target: Path, keep: Path) -> None:
    for stale in target.parent.glob(f".{target.name}{_TMP_INFIX}*"):
        if stale != keep and stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)


@contextmanager
def atomic_dir(target: str | Path) -> Iterator[Path]:
    """Write a directory atomically.

    Example:
        >>> with atomic_dir("my-index") as tmp:   # doctest: +SKIP
        ...     (tmp / "data.json").write_text("{}")

    Args:
        target: the directory to create or replace.

    Yields:
        An empty directory on the same file system as `target`; write everything into it.
    """
    target = Path(target).absolute()
    target.parent.mkdir(parents=True, exist_ok=True)
    # os.mkdir, unlike tempfile.mkdtemp (0700), honours the umask, so the swapped-in directory
    # gets the same permissions as one made by mkdir.
    tmp = target.parent / f".{target.name}{_TMP_INFIX}{os.getpid()}-{secrets.token_hex(4)}"
    os.mkdir(tmp)
    try:
        yield tmp
        fsync_tree(tmp)
        backup = backup_path(target)
        if target.exists():
            if backup.exists():
                # Left by a crash after a completed swap; `target` is the newer copy.
                shutil.rmtree(backup)
            os.rename(target, backup)
        os.rename(tmp, target)
        _fsync_path(target.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(backup, ignore_errors=True)
    _remove_stale_temps(target, keep=target)


def resolve_dir(
    directory: str | Path, *, required: tuple[str, ...] = (), locked_by: str | Path | None = None
) -> Path:
    """The directory to load from, restoring the backup of a save that was cut off mid-swap.

    Args:
        directory: the directory a store or index was saved to.
        required: file names that must exist in it.
        locked_by: the directory whose writer lock its writers hold (default: `directory` itself;
            an index's `tables/` is swapped under the index's lock).

    Raises:
        IndexNotFound: neither the directory nor a backup of it exists, or a required file is missing.
    """
    path = Path(directory)
    backup = backup_path(path.absolute())
    if not path.exists() and backup.is_dir():
        if is_being_written(path if locked_by is None else locked_by):
            return _check_required(backup, required)  # mid-swap: the backup is the last complete copy
        logger.warning("restoring %s from %s (an earlier save was interrupted)", path, backup)
        try:
            os.rename(backup, path)
        except OSError:  # another reader restored it first, or a writer swapped in a new copy
            pass
    if not path.is_dir():
        raise IndexNotFound(f"No index found at {path}: build one with `openapi-rag index`")
    return _check_required(path, required)


def resolve_optional_dir(directory: str | Path, *, locked_by: str | Path | None = None) -> Path | None:
    """`resolve_dir` for a folder an index may lack (its `tables/`): None when neither the folder
    nor the backup of a cut-off swap of it exists."""
    path = Path(directory)
    if not path.exists() and backup_path(path.absolute()).is_dir():
        return resolve_dir(path, locked_by=locked_by)
    return path if path.is_dir() else None


def _check_required(path: Path, required: tuple[str, ...]) -> Path:
    missing = [name for name in required if not (path / name).exists()]
    if missing:
        raise IndexNotFound(
            f"{path} is not a complete index (missing {', '.join(missing)}): "
            "rebuild it with `openapi-rag index`"
        )
    return path
