"""LLM agents and multi-view retrieval over an index.

- `DiscoveryAgent`: an LLM that searches an index for the endpoints a task needs.
- `craft_vote`: CRAFT's multi-view voting over ranked lists.
- `SelfRAGFilter`, `CoRAG`: retrieval policies from the RAG-variants study (filter by LLM-judged
  relevance; iterate sub-queries until the LLM judges the information sufficient).
"""

from openapi_rag.agents.craft import craft_vote
from openapi_rag.agents.discovery import (
    DiscoveryAgent,
    DiscoveryResult,
    normalize_endpoint,
    parse_json_action,
)
from openapi_rag.agents.policies import CoRAG, PolicyResult, SelfRAGFilter

__all__ = [
    "CoRAG",
    "DiscoveryAgent",
    "DiscoveryResult",
    "PolicyResult",
    "SelfRAGFilter",
    "craft_vote",
    "normalize_endpoint",
    "parse_json_action",
]
