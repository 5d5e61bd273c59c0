"""Vector stores: the `VectorStore` protocol and its FAISS-on-disk implementation."""

from openapi_rag.store.atomic import atomic_dir, resolve_dir
from openapi_rag.store.base import Ranked, VectorStore, rank
from openapi_rag.store.faiss_store import FaissOptions, FaissStore
from openapi_rag.store.filters import ChunkFilter

__all__ = [
    "ChunkFilter",
    "FaissOptions",
    "FaissStore",
    "Ranked",
    "VectorStore",
    "atomic_dir",
    "rank",
    "resolve_dir",
]
