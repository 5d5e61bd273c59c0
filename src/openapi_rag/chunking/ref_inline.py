"""`ref-inline`: one readable chunk per operation, its schemas expanded in place.

The paper's strategies embed operations with their `$ref`s unresolved, so a request body reads
`{"$ref": "#/components/schemas/CreateCampaignRequest"}` and its fields are never seen. Here the
referenced schemas are written out to `depth` levels (default 2) as text, not JSON, under a
context line naming the API, tags, method, path and summary (see `describe`). An operation too
long for the model is split between parameters, request body and responses, and inside them
between groups of properties, each part headed by the context line and `(part i of n)`.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.chunking.base import Strategy, TextUnit
from openapi_rag.chunking.describe import operation_blocks
from openapi_rag.chunking.render import SchemaRenderer
from openapi_rag.model import Chunk, Service
from openapi_rag.tokens import Tokenizer

DEFAULT_DEPTH = 2


class RefInlineStrategy(Strategy):
    """One chunk per operation with its schemas inlined as readable text.

    Args:
        depth: schema references expanded along any path (0 names every schema).
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
    ) -> None:
        super().__init__(size=size, overlap=overlap, tokenizer=tokenizer)
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
            units.append(
                TextUnit(op.id, "endpoint", header, blocks, [op.id], self.operation_metadata(service, op))
            )
        return units

    def chunk_service(self, service: Service) -> list[Chunk]:
        return self.fit_units(service, self.endpoint_units(service))
