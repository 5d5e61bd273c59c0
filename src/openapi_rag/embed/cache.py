"""On-disk cache of embeddings, keyed by model and the sha256 of the text.

One SQLite file per model under ``$OPENAPI_RAG_HOME/cache/embeddings/<model-slug>/vectors.sqlite``
(``OPENAPI_RAG_HOME`` defaults to ``~/.cache/openapi-rag``). Writes are transactions, so an
interrupted run keeps every batch it finished and never leaves a half-written vector.
"""

from __future__ import annotations

import functools
import hashlib
import re
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from openapi_rag.embed.base import Embedder, progress_bar
from openapi_rag.errors import EmbedderError
from openapi_rag.paths import openapi_rag_home

__all__ = ["EmbeddingCache", "default_cache_root", "embed_with_cache", "file_digest", "openapi_rag_home"]

_FORMAT = "1"
_SQL_VARS = 900  # stay under SQLite's oldest host-parameter limit (999)
_FLUSH_EVERY = 512  # vectors per write transaction in embed_with_cache


def default_cache_root() -> Path:
    return openapi_rag_home() / "cache" / "embeddings"


def _slug(model_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", model_id).strip("._") or "model"


@functools.cache
def file_digest(path: Path) -> str:
    """A model file's content in 16 hex digits (read once a process): what names the vectors or
    graphs made from it, so that a retrained or replaced file is never served the old one's."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def _digest(text: str) -> bytes:
    # surrogatepass: texts decoded from JSON can hold lone surrogates, which strict UTF-8 refuses.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class EmbeddingCache:
    """Vectors of one model, stored by text hash.

    Args:
        model_id: the embedder's ``cache_key`` (see `EmbeddingCache.for_embedder`).
        root: directory holding one sub-directory per model; defaults to `default_cache_root()`.

    Example::

        cache = EmbeddingCache.for_embedder(embedder)
        vectors = embed_with_cache(embedder, texts, cache)  # second run: no model calls
    """

    def __init__(self, model_id: str, *, root: str | Path | None = None) -> None:
        self.model_id = model_id
        self.directory = Path(root) if root is not None else default_cache_root()
        self.directory = self.directory / _slug(model_id)
        self.path = self.directory / "vectors.sqlite"
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        # WAL: readers never block the writer; NORMAL sync keeps every committed batch across a
        # crash of the process (only a power cut can lose the last ones, which a cache can afford).
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS vectors"
                " (hash BLOB PRIMARY KEY, vector BLOB NOT NULL) WITHOUT ROWID"
            )
            self._db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('model_id', ?), ('format', ?)", (model_id, _FORMAT)
            )
        meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        if meta["model_id"] != model_id:
            self._db.close()
            raise EmbedderError(
                f"{self.path} caches {meta['model_id']!r}, not {model_id!r}: remove the directory"
            )
        self.dimensions: int | None = int(meta["dimensions"]) if "dimensions" in meta else None

    @classmethod
    def for_embedder(cls, embedder: Embedder, *, root: str | Path | None = None) -> EmbeddingCache:
        """The cache of ``embedder`` (keyed by its ``cache_key``)."""
        return cls(embedder.cache_key, root=root)

    def get_many(self, texts: Sequence[str]) -> tuple[dict[int, np.ndarray], list[int]]:
        """``({index: vector} for cached texts, [indices of texts not cached])``."""
        digests = [_digest(t) for t in texts]
        unique = list(dict.fromkeys(digests))
        stored: dict[bytes, bytes] = {}
        with self._lock:
            for start in range(0, len(unique), _SQL_VARS):
                part = unique[start : start + _SQL_VARS]
                marks = ",".join("?" * len(part))
                rows = self._db.execute(f"SELECT hash, vector FROM vectors WHERE hash IN ({marks})", part)
                stored.update(rows.fetchall())
        found: dict[int, np.ndarray] = {}
        missing: list[int] = []
        for i, digest in enumerate(digests):
            blob = stored.get(digest)
            if blob is None:
                missing.append(i)
            else:
                found[i] = np.frombuffer(blob, dtype=np.float32).copy()
        return found, missing

    def put_many(self, texts: Sequence[str], vectors: np.ndarray | Sequence[np.ndarray]) -> None:
        """Store ``vectors[i]`` as the vector of ``texts[i]``, in one transaction."""
        array = np.asarray(vectors, dtype=np.float32)
        if len(texts) == 0:
            return
        if array.ndim != 2 or array.shape[0] != len(texts):
            raise ValueError(f"put_many needs one vector per text: {len(texts)} texts, shape {array.shape}")
        dims = int(array.shape[1])
        if self.dimensions is not None and dims != self.dimensions:
            raise EmbedderError(
                f"{self.path} holds {self.dimensions}-dimensional vectors of {self.model_id}, got {dims}"
            )
        rows = [(_digest(t), np.ascontiguousarray(v).tobytes()) for t, v in zip(texts, array, strict=True)]
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            if self.dimensions is None:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('dimensions', ?)", (str(dims),))
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
        self.dimensions = dims

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM vectors").fetchone()[0])

    def clear(self) -> None:
        """Forget every vector."""
        with self._lock, self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM vectors")
            self._db.execute("DELETE FROM meta WHERE key = 'dimensions'")
        self.dimensions = None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EmbeddingCache({self.model_id!r}, path={str(self.path)!r})"


def embed_with_cache(
    embedder: Embedder,
    texts: Iterable[str],
    cache: EmbeddingCache | None,
    *,
    show_progress: bool = False,
) -> np.ndarray:
    """Vectors of ``texts`` in order, embedding only those ``cache`` lacks (each distinct text once).

    New vectors are stored every few hundred, and on the way out of an error or Ctrl-C, so an
    interrupted run loses almost nothing. ``cache=None`` embeds everything.
    """
    texts = list(texts)
    if cache is None:
        return embedder.embed_many(texts, show_progress=show_progress)
    if cache.model_id != embedder.cache_key:
        raise EmbedderError(f"cache of {cache.model_id!r} used with embedder {embedder.cache_key!r}")
    found, missing = cache.get_many(texts)
    owners: dict[str, list[int]] = {}
    for i in missing:
        owners.setdefault(texts[i], []).append(i)
    todo = list(owners)

    out: np.ndarray | None = None

    def place(indices: Iterable[int], vector: np.ndarray) -> None:
        nonlocal out
        if out is None:
            out = np.empty((len(texts), vector.shape[0]), dtype=np.float32)
        elif vector.shape[0] != out.shape[1]:
            raise EmbedderError(
                f"{embedder.model_id}: {vector.shape[0]}-dimensional vector among {out.shape[1]}-dimensional "
                f"ones; clear the cache at {cache.directory}"
            )
        out[list(indices)] = vector

    for i, vector in found.items():
        place([i], vector)
    pending_texts: list[str] = []
    pending_vectors: list[np.ndarray] = []
    try:
        with progress_bar(len(todo), show_progress) as advance:
            for indices, vectors in embedder.iter_batches(todo):
                for j, vector in zip(indices, vectors, strict=True):
                    place(owners[todo[j]], vector)
                    pending_texts.append(todo[j])
                    pending_vectors.append(vector)
                if len(pending_texts) >= _FLUSH_EVERY:
                    cache.put_many(pending_texts, np.stack(pending_vectors))
                    pending_texts, pending_vectors = [], []
                advance(len(indices))
    finally:
        if pending_texts:
            cache.put_many(pending_texts, np.stack(pending_vectors))
    if out is None:
        return np.empty((0, embedder.dimensions or cache.dimensions or 0), dtype=np.float32)
    return out
