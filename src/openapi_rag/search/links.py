"""Link expansion: pull in the schema, error and security chunks that hit chunks refer to.

Used with the `ref-linked` chunking strategy, whose endpoint chunks carry `metadata["schemas"]`
(names of the component schemas they reference) instead of inlining them. For every hit whose chunk
has that key, expansion adds, in this order and once each:

1. the service's schema chunks (kind `schema`) whose `metadata["schema"]` is one of those names,
   in the order the names are listed;
2. the service's `errors` chunks, then its `security` chunks.

Linked chunks come after all the hits, grouped by the hit that pulled them in (best hit first),
each with that hit's score and `linked_from` set to its chunk id. One level only: a schema chunk's
own references are not followed (the chunker lists the transitive closure if it wants it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.model import Chunk
from openapi_rag.search.aggregate import LINK_KINDS
from openapi_rag.search.results import Hit
from openapi_rag.store.base import VectorStore, read_heads
from openapi_rag.store.filters import ChunkFilter


@dataclass
class _ServiceLinks:
    schemas: dict[str, list[Chunk]] = field(default_factory=dict)
    errors: list[Chunk] = field(default_factory=list)
    security: list[Chunk] = field(default_factory=list)


def _service_links(store: VectorStore, service: str) -> _ServiceLinks:
    links = _ServiceLinks()
    ids = store.select(ChunkFilter.of(services=[service], kinds=LINK_KINDS))
    for chunk in read_heads(store, ids):  # returned as hits: content unread
        if chunk.kind == "schema":
            name = chunk.metadata.get("schema")
            if name:
                links.schemas.setdefault(str(name), []).append(chunk)
        elif chunk.kind == "errors":
            links.errors.append(chunk)
        else:
            links.security.append(chunk)
    return links


def expand_links(
    hits: Sequence[Hit], store: VectorStore, *, cache: dict[str, Any] | None = None
) -> list[Hit]:
    """The hits followed by the chunks they link to (see the module docstring).

    Args:
        hits: ranked hits; their chunks must be in `store`.
        store: where the hits' and the linked chunks live.
        cache: pass the same dict to several calls over an unchanged store to look each service's
            linkable chunks up once.

    Returns:
        `hits` unchanged, then the linked chunks not already among them.
    """
    if not hits:
        return []
    # Only service and metadata are read.
    chunks = {chunk.id: chunk for chunk in read_heads(store, [hit.chunk_id for hit in hits])}
    seen = {hit.chunk_id for hit in hits}
    by_service = cache if cache is not None else {}
    linked: list[Hit] = []
    for hit in hits:
        chunk = chunks[hit.chunk_id]
        names = chunk.metadata.get("schemas")
        if names is None:
            continue
        if chunk.service not in by_service:
            by_service[chunk.service] = _service_links(store, chunk.service)
        links = by_service[chunk.service]
        pulled = [c for name in names for c in links.schemas.get(str(name), [])]
        for target in [*pulled, *links.errors, *links.security]:
            if target.id not in seen:
                seen.add(target.id)
                linked.append(Hit.of(target, hit.score, linked_from=hit.chunk_id))
    return [*hits, *linked]
