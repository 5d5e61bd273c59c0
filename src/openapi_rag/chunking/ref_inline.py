"""`ref-inline`: one readable chunk per operation, its schemas expanded in place.

The paper's strategies embed operations with their `$ref`s unresolved, so a request body reads
`{"$ref": "#/components/schemas/CreateCampaignRequest"}` and its fields are never seen. Here the
referenced schemas are written out to `depth` levels (default 2) as text, not JSON, under a
context line naming the API, tags, method, path and summary (see `describe`). An operation too
long for the model is split between parameters, request body and responses, and inside them
between groups of properties, each part headed by the context line and `(part i of n)`.

A description may make an operation's text arbitrarily long (an object of 100,000 properties, each
a reference to one schema), so the work is bounded by `ChunkLimits`: the text of one operation or
schema is cut at `max_unit_chars`, and it makes at most `max_unit_chunks` chunks; each cut is
named in a warning.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openapi_rag.chunking.base import Strategy, TextUnit
from openapi_rag.chunking.describe import operation_blocks
from openapi_rag.chunking.render import SchemaRenderer
from openapi_rag.chunking.split import Block
from openapi_rag.model import Chunk, Service
from openapi_rag.spec.limits import env_name, limits_from_env
from openapi_rag.tokens import Tokenizer

logger = logging.getLogger(__name__)

DEFAULT_DEPTH = 2


@dataclass(frozen=True)
class ChunkLimits:
    """Bounds on the reference-aware chunkers' work, far above what real descriptions need.

    On the realworld corpus the longest operation text is 22,000 characters (Discord, schemas
    inlined) and makes 46 chunks; the most schemas in one service is 1,422 (OpenAI).

    Args:
        max_unit_chars: characters of one operation's or schema's text; the rest is cut.
        max_unit_chunks: chunks one operation or schema makes.
        max_schema_chunks: schemas of one service given their own chunk (`ref-linked`); the
            most used ones are kept.
    """

    max_unit_chars: int = 100_000
    max_unit_chunks: int = 100
    max_schema_chunks: int = 3_000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ChunkLimits:
        """Defaults, then `OPENAPI_RAG_MAX_UNIT_CHARS` (etc.) from the environment, then `overrides`."""
        return limits_from_env(cls, environ, **overrides)


def bounded_blocks(service: Service, what: str, blocks: list[Block], max_chars: int) -> list[Block]:
    """`blocks` cut after `max_chars` characters of items, the cut said in a last item and a warning."""
    used = 0
    out: list[Block] = []
    for block in blocks:
        used += len(block.head)
        items = []
        for item in block.items:
            used += len(item) + len(block.sep)
            if used > max_chars:
                items.append(f"… (cut: limit max_unit_chars={max_chars})")
                out.append(Block(block.head, items, block.sep))
                logger.warning(
                    "%s: %s: text cut at %d characters (limit max_unit_chars; raise it with %s)",
                    service.file, what, max_chars, env_name("max_unit_chars"),
                )
                return out
            items.append(item)
        out.append(Block(block.head, items, block.sep))
    return out


class RefInlineStrategy(Strategy):
    """One chunk per operation with its schemas inlined as readable text.

    Args:
        depth: schema references expanded along any path (0 names every schema).
        limits: bounds on text and chunks per operation (`ChunkLimits`).
    """

    name = "ref-inline"
    depth_default = DEFAULT_DEPTH

    def __init__(
        self,
        *,
        size: int | None = None,
        overlap: int | None = None,
        tokenizer: Tokenizer | str | None = None,
        depth: int | None = None,
        limits: ChunkLimits | None = None,
    ) -> None:
        super().__init__(size=size, overlap=overlap, tokenizer=tokenizer)
        self.limits = limits or ChunkLimits.from_env()
        self.depth = self.depth_default if depth is None else depth
        if self.depth < 0:
            raise ValueError(f"depth must be 0 or more, got {self.depth}")

    @property
    def params(self) -> dict[str, Any]:
        return {**super().params, "depth": self.depth}

    def endpoint_units(self, service: Service) -> list[TextUnit]:
        renderer = SchemaRenderer(service.schemas, self.depth)
        units = []
        for op in service.operations:
            header, blocks = operation_blocks(service, op, renderer)
            blocks = bounded_blocks(service, op.id, blocks, self.limits.max_unit_chars)
            units.append(
                TextUnit(op.id, "endpoint", header, blocks, [op.id], self.operation_metadata(service, op))
            )
        return units

    def chunk_service(self, service: Service) -> list[Chunk]:
        return self.fit_units(service, self.endpoint_units(service), self.limits.max_unit_chunks)
