"""LLM agents and multi-view retrieval over an index.

- `DiscoveryAgent`: an LLM that searches an index for the endpoints a task needs.
- `craft_vote`: CRAFT's multi-view voting over ranked lists.
"""

from openapi_rag.agents.craft import craft_vote
from openapi_rag.agents.discovery import (
    DiscoveryAgent,
    DiscoveryResult,
    normalize_endpoint,
    parse_json_action,
)

__all__ = ["DiscoveryAgent", "DiscoveryResult", "craft_vote", "normalize_endpoint", "parse_json_action"]
