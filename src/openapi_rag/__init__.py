"""openapi-rag: endpoint discovery over OpenAPI descriptions.

    >>> from openapi_rag import Index, load_services
    >>> index = Index.build(load_services(["specs/"]).services)     # doctest: +SKIP
    >>> [hit.id for hit in index.search("create a playlist", k=3)]  # doctest: +SKIP

Names are imported on first use, so `import openapi_rag` stays fast (no FAISS, ONNX or bm25s).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Chunk": "openapi_rag.model",
    "Embedder": "openapi_rag.embed",
    "Index": "openapi_rag.index",
    "OpenAPIRagError": "openapi_rag.errors",
    "Operation": "openapi_rag.model",
    "OperationHit": "openapi_rag.search",
    "Schema": "openapi_rag.model",
    "Service": "openapi_rag.model",
    "SpecError": "openapi_rag.errors",
    "build_index": "openapi_rag.index",
    "chunk_services": "openapi_rag.chunking",
    "get_embedder": "openapi_rag.embed",
    "load_service": "openapi_rag.spec",
    "load_services": "openapi_rag.spec",
}

__all__ = sorted([*_EXPORTS, "__version__"])


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'openapi_rag' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return __all__
