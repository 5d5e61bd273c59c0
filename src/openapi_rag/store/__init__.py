"""Vector stores: the `VectorStore` protocol and its FAISS-on-disk implementation.

The names load on first use (PEP 562): the CLI imports `store.pg_target` to parse its options, and
importing this package eagerly pulled numpy and FAISS (~0.4 s) into every command, `--help` too.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openapi_rag.store.atomic import atomic_dir, resolve_dir
    from openapi_rag.store.base import Ranked, VectorStore, rank
    from openapi_rag.store.faiss_store import FaissOptions, FaissStore
    from openapi_rag.store.filters import ChunkFilter

_MODULES = {
    "ChunkFilter": "filters",
    "FaissOptions": "faiss_store",
    "FaissStore": "faiss_store",
    "Ranked": "base",
    "VectorStore": "base",
    "atomic_dir": "atomic",
    "rank": "base",
    "resolve_dir": "atomic",
}

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


def __getattr__(name: str) -> Any:
    if name not in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULES[name]}"), name)
