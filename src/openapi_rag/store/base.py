"""The `VectorStore` protocol every backend implements (FAISS on disk now, PostgreSQL + pgvector later)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol, Self, runtime_checkable

import numpy as np

from openapi_rag.model import Chunk
from openapi_rag.store.filters import ChunkFilter

Ranked = list[tuple[str, float]]
"""A ranked list of `(chunk_id, score)`, best first."""


def rank(pairs: Iterable[tuple[str, float]]) -> Ranked:
    """Sort `(id, score)` pairs by score descending, then id, so ties never depend on the backend."""
    return sorted(pairs, key=lambda pair: (-pair[1], pair[0]))


def read_heads(store: VectorStore, chunk_ids: Sequence[str]) -> list[Chunk]:
    """The chunks without their content where the store offers that (`FaissStore.heads`), else whole:
    for readers of ids, kinds, operations, summaries and texts, never the content."""
    heads = getattr(store, "heads", None)
    return heads(chunk_ids) if heads is not None else store.get(chunk_ids)


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
