"""Embedding models behind one interface, selected by name.

    >>> from openapi_rag.embed import get_embedder
    >>> embedder = get_embedder("minilm")          # bundled, offline, 384 dimensions
    >>> embedder.embed_many(["list playlists"]).shape
    (1, 384)

Names: ``minilm`` (default), ``minilm-api`` (adapted to API operations), ``openai:<model>``,
``sentence-transformers:<model>``, and whatever `register_embedder` adds.
"""

from openapi_rag.embed.base import Embedder, normalize_rows
from openapi_rag.embed.cache import EmbeddingCache, default_cache_root, embed_with_cache, openapi_rag_home
from openapi_rag.embed.registry import (
    DEFAULT_EMBEDDER,
    get_embedder,
    list_embedders,
    register_embedder,
    unregister_embedder,
)
from openapi_rag.errors import EmbedderError, MissingDependency, NeedsKey, UnknownEmbedder

__all__ = [
    "DEFAULT_EMBEDDER",
    "Embedder",
    "EmbedderError",
    "EmbeddingCache",
    "MissingDependency",
    "NeedsKey",
    "UnknownEmbedder",
    "default_cache_root",
    "embed_with_cache",
    "get_embedder",
    "list_embedders",
    "normalize_rows",
    "openapi_rag_home",
    "register_embedder",
    "unregister_embedder",
]
