"""Reading an index's files with every check a damaged file can fail, each failure one `IndexDamaged`.

A file cut by a full disk, overwritten by another tool or edited by hand must give one line naming
the file and what is wrong with it, never a traceback, and never be served: vectors with NaN
would rank arbitrarily, so they count as damage too.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.errors import IndexDamaged


def read_json(path: Path, expected: type, *, directory: Path | None = None) -> Any:
    """The JSON document in `path`, which must be of type `expected` (dict or list)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise IndexDamaged(path, f"is not UTF-8 text (byte {exc.start})", directory=directory) from exc
    except OSError as exc:
        raise IndexDamaged(path, f"cannot be read ({exc.strerror})", directory=directory) from exc
    if not text.strip():
        raise IndexDamaged(path, "is empty", directory=directory)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise IndexDamaged(
            path, f"is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", directory=directory
        ) from exc
    if not isinstance(data, expected):
        want = "an object" if expected is dict else "a list"
        raise IndexDamaged(path, f"holds a JSON {type(data).__name__}, not {want}", directory=directory)
    return data


def require_fields(
    path: Path, data: dict[str, Any], fields: dict[str, type | tuple[type, ...]], **kw: Any
) -> None:
    """Each of `fields` is present in `data` with the given type (bools are not ints here)."""
    for name, kind in fields.items():
        value = data.get(name)
        if value is None or isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
            raise IndexDamaged(path, f"has no valid {name!r} field", directory=kw.get("directory"))


def load_vectors(
    path: Path, *, rows: int, dimensions: int, mmap: bool, directory: Path | None = None
) -> np.ndarray:
    """`vectors.npy`, checked: readable, float32, shape (rows, dimensions), finite.

    The finiteness check reads every value (about 0.1 s per 100 MB); a mapped file is read once
    for it and then served from the page cache.
    """
    problem = _npy_problem(path)
    if problem:
        raise IndexDamaged(path, problem, directory=directory)
    try:
        vectors = np.load(path, mmap_mode="r" if mmap else None, allow_pickle=False)
    except (ValueError, EOFError, OSError) as exc:
        raise IndexDamaged(path, f"is not a vectors file ({exc})", directory=directory) from exc
    if vectors.dtype != np.float32 or vectors.ndim != 2:
        raise IndexDamaged(
            path, f"holds {vectors.dtype} of shape {vectors.shape}, not float32 rows", directory=directory
        )
    if vectors.shape != (rows, dimensions):
        raise IndexDamaged(
            path,
            f"holds {vectors.shape[0]} vectors of {vectors.shape[1]} dimensions, "
            f"where the store lists {rows} of {dimensions}",
            directory=directory,
        )
    finite = np.isfinite(vectors).all(axis=1)
    if not finite.all():
        bad = int((~finite).sum())
        raise IndexDamaged(
            path,
            f"holds {bad} vector(s) with NaN or infinite values (first at row {int(np.argmin(finite))})",
            directory=directory,
        )
    return vectors


def _npy_problem(path: Path) -> str | None:
    """What is wrong with the .npy file's header or length, read before numpy loads it.

    numpy's own errors for a cut file vary ("No data left", "cannot reshape", "mmap length") and
    an empty file even escapes as EOFError; the header says exactly how long the file must be.
    """
    size = path.stat().st_size
    if size == 0:
        return "is truncated (0 bytes)"
    try:
        with path.open("rb") as f:
            version = np.lib.format.read_magic(f)
            if version == (1, 0):
                shape, _, dtype = np.lib.format.read_array_header_1_0(f)
            elif version == (2, 0):
                shape, _, dtype = np.lib.format.read_array_header_2_0(f)
            else:
                return f"is not a vectors file (.npy format version {version})"
            data_start = f.tell()
    except (ValueError, EOFError, OSError, SyntaxError) as exc:
        return f"is not a vectors file (bad header: {exc})" if size > 16 else "is truncated"
    needed = data_start + int(np.prod(shape)) * dtype.itemsize
    if size < needed:
        return f"is truncated ({size:,} of {needed:,} bytes)"
    return None


def check_chunk_table(
    path: Path, conn: sqlite3.Connection, *, rows: int, directory: Path | None = None
) -> None:
    """The chunk table opens, has the expected columns and holds `rows` chunks."""
    try:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(chunks)")]
        count = int(conn.execute("SELECT count(*) FROM chunks").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        raise IndexDamaged(path, f"is not a readable SQLite database ({exc})", directory=directory) from exc
    if columns[:5] != ["id", "service", "kind", "tags", "data"]:
        raise IndexDamaged(path, "has no chunk table of the expected shape", directory=directory)
    if count != rows:
        raise IndexDamaged(path, f"holds {count} chunks, where the store lists {rows}", directory=directory)
