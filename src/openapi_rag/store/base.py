"""The `VectorStore` protocol every backend implements (FAISS on disk now, PostgreSQL + pgvector later)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol, Self, runtime_checkable

import numpy as np

from openapi_rag.model import Chunk
from openapi_rag.store.filters import ChunkFilter

Ranked = list[tuple[str, float]]
"""A ranked list of `(chunk_id, score)`, best first."""


def rank(pairs: Iterable[tuple[str, float]]) -> Ranked:
    """Sort `(id, score)` pairs by score descending, then id, so ties never depend on the backend."""
    return sorted(pairs, key=lambda pair: (-pair[1], pair[0]))


def as_matrix(vectors: np.ndarray, dimensions: int, what: str) -> np.ndarray:
    """`vectors` as a contiguous float32 (n, dimensions) matrix (one vector: one row), checked.

    Raises:
        ValueError: another shape (the one given is named), or NaN or infinite values.
    """
    matrix = np.asarray(vectors, dtype=np.float32)
    if matrix.ndim == 1:
        matrix = matrix[None, :]
    if matrix.ndim != 2 or matrix.shape[1] != dimensions:
        raise ValueError(f"{what} must have shape (n, {dimensions}), got {np.shape(vectors)}")
    if not np.isfinite(matrix).all():
        raise ValueError(f"{what} contain NaN or infinite values")
    return np.ascontiguousarray(matrix)


def normalized(matrix: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (a new array), so inner products are cosine similarities."""
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    # Zero vectors stay zero (score 0 against everything) instead of becoming NaN.
    return np.ascontiguousarray(matrix / np.where(norms == 0, 1, norms), dtype=np.float32)


def read_heads(store: VectorStore, chunk_ids: Sequence[str]) -> list[Chunk]:
    """The chunks without their content where the store offers that (`FaissStore.heads`), else whole:
    for readers of ids, kinds, operations, summaries and texts, never the content."""
    heads = getattr(store, "heads", None)
    return heads(chunk_ids) if heads is not None else store.get(chunk_ids)


class CatalogRow(NamedTuple):
    """What a walk over the whole catalog reads of one chunk (`catalog_rows`)."""

    id: str
    service: str
    kind: str
    operations: tuple[str, ...]
    title: str


def all_heads(store: VectorStore, batch_size: int = 1000) -> Iterator[Chunk]:
    """Every chunk's head (`read_heads`), in the store's id order, read `batch_size` at a time."""
    ids = store.ids()
    for start in range(0, len(ids), batch_size):
        yield from read_heads(store, ids[start : start + batch_size])


def catalog_rows(store: VectorStore, batch_size: int = 1000) -> Iterator[CatalogRow]:
    """Id, service, kind, operations and title of every chunk, in the store's id order: from the
    store's own projection where it has one (`FaissStore.catalog_rows`: SQLite reads five fields
    instead of Python decoding every chunk), else from the chunk heads."""
    fast = getattr(store, "catalog_rows", None)
    if fast is not None:
        yield from fast()
        return
    for chunk in all_heads(store, batch_size):
        title = str(chunk.metadata.get("title", ""))
        yield CatalogRow(chunk.id, chunk.service, chunk.kind, tuple(chunk.operations), title)


@runtime_checkable
class VectorStore(Protocol):
    """Chunks with their vectors, searchable by inner product.

    Vectors are compared by inner product; stores that normalise (the default) return cosine
    similarities. Rankings are deterministic: score descending, then chunk id.
    """

    @property
    def dimensions(self) -> int: ...

    def __len__(self) -> int: ...

    def __contains__(self, chunk_id: object) -> bool: ...

    def ids(self) -> list[str]:
        """Every chunk id, in storage order."""
        ...

    def add(self, ids: Sequence[str], vectors: np.ndarray, chunks: Sequence[Chunk]) -> None:
        """Add new chunks; `ids[i]` must equal `chunks[i].id` and be absent from the store."""
        ...

    def remove(self, ids: Iterable[str]) -> int:
        """Remove chunks by id (unknown ids are ignored); returns how many were removed."""
        ...

    def search(self, query_vectors: np.ndarray, k: int, filter: ChunkFilter | None = None) -> list[Ranked]:
        """The `k` nearest chunks for each query row (a 1-D vector counts as one query)."""
        ...

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks, in the order asked; raises KeyError naming unknown ids."""
        ...

    def get_vectors(self, chunk_ids: Sequence[str]) -> np.ndarray:
        """The stored vectors, one row per id, so rebuilds never re-embed."""
        ...

    def select(self, filter: ChunkFilter) -> list[str]:
        """Ids of the chunks passing `filter`, in storage order."""
        ...

    def save(self, directory: str | Path) -> None:
        """Persist atomically: an interrupted save leaves the previous version loadable."""
        ...

    @classmethod
    def load(cls, directory: str | Path) -> Self:
        """Open a store saved with `save`."""
        ...
