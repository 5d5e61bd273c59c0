"""Search: BM25 with API-aware tokens, dense, hybrid fusion, query clauses, dependency lifting,
chunk → operation aggregation, links.

Names are imported on first use (as in the top-level package), so importing one light module of
this package (`search.clauses` for the query limits the CLI's options show) does not load numpy,
bm25s and FAISS: `openapi-rag --help` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "LINK_KINDS": "openapi_rag.search.aggregate",
    "aggregate_operations": "openapi_rag.search.aggregate",
    "BM25Index": "openapi_rag.search.bm25",
    "split_clauses": "openapi_rag.search.clauses",
    "DependencyGraph": "openapi_rag.search.dependencies",
    "RRF_K": "openapi_rag.search.fusion",
    "minmax_fusion": "openapi_rag.search.fusion",
    "reciprocal_rank_fusion": "openapi_rag.search.fusion",
    "expand_links": "openapi_rag.search.links",
    "Hit": "openapi_rag.search.results",
    "OperationHit": "openapi_rag.search.results",
    "SearchResults": "openapi_rag.search.results",
    "MODES": "openapi_rag.search.searcher",
    "Searcher": "openapi_rag.search.searcher",
    "STOPWORDS": "openapi_rag.search.tokenize",
    "VERB_SYNONYMS": "openapi_rag.search.tokenize",
    "ApiTokenizer": "openapi_rag.search.tokenize",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'openapi_rag.search' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return __all__
