"""Chunking: strategies that turn loaded services into `Chunk`s to embed and return.

A chunk has the text that is embedded (`embed_text`), the text returned to the user or an LLM
(`content`) and metadata (operations covered, kind, schemas, parts). Strategies come by name
from a registry and take `size` and `overlap` in tokens of the embedding model's tokenizer
(MiniLM by default, whose input is 256 tokens, 254 of them text).

Token-based, Table I of Pesl et al., "Retrieval-Augmented Generation for Service Discovery:
Chunking Strategies and Benchmarking":

    whole          the document in token windows (default 100, 0)
    json           the document flattened to `path.to.key: value` lines, in windows (100, 0)
    endpoint       one chunk per operation: `METHOD /path` and its JSON (windows when too long)
    thin           endpoint without requestBody and examples
    fields         embeds title, service description, method, path, summary, description
    endpoint-json  endpoint flattened like json

Reference-aware:

    ref-inline     one readable chunk per operation with schemas expanded (depth 2)
    ref-linked     endpoint chunks naming their schemas + schema, error and security chunks

    >>> from openapi_rag.chunking import chunk_services
    >>> chunks = chunk_services(services, "ref-inline", depth=1)  # doctest: +SKIP
"""

from openapi_rag.chunking.base import Strategy, TextUnit, input_limit, resolve_tokenizer
from openapi_rag.chunking.document import JsonStrategy, WholeStrategy
from openapi_rag.chunking.endpoint import (
    EndpointJsonStrategy,
    EndpointStrategy,
    FieldsStrategy,
    ThinStrategy,
    endpoint_json,
)
from openapi_rag.chunking.ref_inline import RefInlineStrategy
from openapi_rag.chunking.ref_linked import RefLinkedStrategy
from openapi_rag.chunking.registry import (
    STRATEGIES,
    chunk_services,
    get_strategy,
    list_strategies,
    register_strategy,
)
from openapi_rag.chunking.stats import chunk_summary

__all__ = [
    "STRATEGIES",
    "EndpointJsonStrategy",
    "EndpointStrategy",
    "FieldsStrategy",
    "JsonStrategy",
    "RefInlineStrategy",
    "RefLinkedStrategy",
    "Strategy",
    "TextUnit",
    "ThinStrategy",
    "WholeStrategy",
    "chunk_services",
    "chunk_summary",
    "endpoint_json",
    "get_strategy",
    "input_limit",
    "list_strategies",
    "register_strategy",
    "resolve_tokenizer",
]
