"""Search: BM25 with API-aware tokens, dense, hybrid fusion, query clauses, dependency lifting,
chunk → operation aggregation, links."""

from openapi_rag.search.aggregate import LINK_KINDS, aggregate_operations
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.clauses import split_clauses
from openapi_rag.search.dependencies import DependencyGraph
from openapi_rag.search.fusion import RRF_K, minmax_fusion, reciprocal_rank_fusion
from openapi_rag.search.links import expand_links
from openapi_rag.search.results import Hit, OperationHit, SearchResults
from openapi_rag.search.searcher import MODES, Searcher
from openapi_rag.search.tokenize import STOPWORDS, VERB_SYNONYMS, ApiTokenizer

__all__ = [
    "LINK_KINDS",
    "MODES",
    "RRF_K",
    "STOPWORDS",
    "VERB_SYNONYMS",
    "ApiTokenizer",
    "BM25Index",
    "DependencyGraph",
    "Hit",
    "OperationHit",
    "SearchResults",
    "Searcher",
    "aggregate_operations",
    "expand_links",
    "minmax_fusion",
    "reciprocal_rank_fusion",
    "split_clauses",
]
