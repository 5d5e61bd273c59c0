"""Chunk texts and metadata in SQLite, beside the vectors.

SQLite rather than JSONL so that opening a large index reads nothing but the columns a query
needs: `get` fetches a handful of rows by primary key and filters read three short columns, where
JSONL would parse every chunk's text at load. A saved table is opened read-only and copied into
memory only when it is first modified.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from openapi_rag.model import Chunk
from openapi_rag.store.filters import chunk_tags

_SCHEMA = """
CREATE TABLE chunks (
    id TEXT PRIMARY KEY,
    service TEXT NOT NULL,
    kind TEXT NOT NULL,
    tags TEXT NOT NULL,  -- JSON list, copied out of metadata for filters
    data TEXT NOT NULL   -- Chunk.to_dict() as JSON
) WITHOUT ROWID
"""

# What `heads` leaves out of a stored chunk (JSON paths for SQLite's json_remove).
_HEADLESS = "'$.content', '$.file', '$.metadata.bm25_text'"

# Stay under SQLite's bound-parameter limit (999 in old builds).
_BATCH = 500


def _batches(items: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), _BATCH):
        yield items[start : start + _BATCH]


class ChunkTable:
    """A table of chunks keyed by id; in memory until saved, read-only after loading until modified."""

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", check_same_thread=False)
        self._conn.execute(_SCHEMA)
        self._readonly = False

    @classmethod
    def open(cls, path: str | Path) -> ChunkTable:
        """Open a saved table read-only (no copy is made until the first write)."""
        table = cls.__new__(cls)
        uri = Path(path).absolute().as_uri() + "?mode=ro"
        table._conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        table._readonly = True
        return table

    def _make_writable(self) -> None:
        if self._readonly:
            memory = sqlite3.connect(":memory:", check_same_thread=False)
            self._conn.backup(memory)
            self._conn.close()
            self._conn = memory
            self._readonly = False

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT count(*) FROM chunks").fetchone()[0])

    def insert(self, chunks: Iterable[Chunk]) -> None:
        """Insert new chunks; an id already present raises sqlite3.IntegrityError."""
        self._make_writable()
        rows = []
        for chunk in chunks:
            try:
                data = json.dumps(chunk.to_dict(), ensure_ascii=False)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"chunk {chunk.id!r} has metadata that is not JSON: {exc}") from exc
            rows.append((chunk.id, chunk.service, chunk.kind, json.dumps(chunk_tags(chunk)), data))
        with self._conn:
            self._conn.executemany("INSERT INTO chunks VALUES (?, ?, ?, ?, ?)", rows)

    def delete(self, ids: Sequence[str]) -> None:
        self._make_writable()
        with self._conn:
            for batch in _batches(ids):
                marks = ",".join("?" * len(batch))
                self._conn.execute(f"DELETE FROM chunks WHERE id IN ({marks})", list(batch))

    def get(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """The chunks found among `ids`, by id (missing ids are simply absent)."""
        return self._select("data", ids, {})

    def heads(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """Like `get`, with each chunk's `content`, `file` and BM25 text left out (empty): what a
        search reads. SQLite drops those fields before Python decodes the rest, which is a fifth of
        each record on the realworld index (`content` holds the operation's whole JSON)."""
        return self._select(f"json_remove(data, {_HEADLESS})", ids, {"content": ""})

    def _select(self, column: str, ids: Sequence[str], fill: dict[str, str]) -> dict[str, Chunk]:
        found: dict[str, Chunk] = {}
        for batch in _batches(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(batch))
            query = f"SELECT id, {column} FROM chunks WHERE id IN ({marks})"
            for chunk_id, data in self._conn.execute(query, list(batch)):
                found[chunk_id] = Chunk.from_dict({**json.loads(data), **fill})
        return found

    def catalog_fields(self) -> dict[str, tuple[str, str, tuple[str, ...], str]]:
        """`id -> (service, kind, operations, title)` for every chunk: the catalog walk's fields,
        picked out by SQLite (`store.base.catalog_rows`)."""
        rows = self._conn.execute(
            "SELECT id, service, kind, json_extract(data, '$.operations'), "
            "json_extract(data, '$.metadata.title') FROM chunks"
        )
        return {
            chunk_id: (
                service,
                kind,
                tuple(json.loads(operations or "[]")),
                "" if title is None else str(title),
            )
            for chunk_id, service, kind, operations, title in rows
        }

    def filter_fields(self) -> dict[str, tuple[str, str, list[str]]]:
        """`id -> (service, kind, tags)` for every chunk, the input of filter postings."""
        rows = self._conn.execute("SELECT id, service, kind, tags FROM chunks")
        return {chunk_id: (service, kind, json.loads(tags)) for chunk_id, service, kind, tags in rows}

    def write(self, path: str | Path) -> None:
        """Copy the whole table into a new SQLite file at `path`."""
        target = sqlite3.connect(path)
        try:
            self._conn.backup(target)
        finally:
            target.close()

    def close(self) -> None:
        self._conn.close()
