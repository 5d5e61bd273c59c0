"""What every chunking strategy shares: parameters, the tokenizer, chunk ids and metadata.

A strategy is an object with a `name`, its `params`, and `chunk(services) -> list[Chunk]`
(`chunk_service(service)` for one service). Chunk ids are `service:strategy:what`, where `what`
is `METHOD /path`, `schema:Name`, `errors`, `security` or `document`, with `#part` appended when
a text was cut into several chunks (`#1`, `#2`, ...); they depend only on the input, never on
the order of a run, so an index can cache embeddings by id and content and update incrementally.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from openapi_rag.chunking.render import short_description
from openapi_rag.chunking.split import Block, fit_blocks, measure
from openapi_rag.model import Chunk, Operation, Service
from openapi_rag.spec.limits import env_name
from openapi_rag.tokens import Tokenizer, get_tokenizer

logger = logging.getLogger(__name__)

DEFAULT_TOKENIZER = "minilm"


def resolve_tokenizer(tokenizer: Tokenizer | str | None) -> Tokenizer:
    """A tokenizer object from a name, an object, or None (the default embedder's, MiniLM)."""
    if tokenizer is None:
        return get_tokenizer(DEFAULT_TOKENIZER)
    return get_tokenizer(tokenizer) if isinstance(tokenizer, str) else tokenizer


def input_limit(tokenizer: Tokenizer) -> int:
    """The most text tokens the tokenizer's model embeds (its special tokens left out)."""
    return tokenizer.max_length - tokenizer.special_tokens


@dataclass
class TextUnit:
    """One logical unit of a readable text (an operation, a schema) before it is fitted to size."""

    what: str  # the id suffix: `METHOD /path`, `schema:Name`, ...
    kind: str
    header: str
    blocks: list[Block]
    operations: list[str]
    metadata: dict[str, Any]


class Strategy(ABC):
    """Base class of chunking strategies.

    Args:
        size: most tokens per chunk (the paper's `s`); the strategy's default when None.
        overlap: tokens shared by consecutive windows (the paper's `l`); default when None.
        tokenizer: counts tokens; a name from `openapi_rag.tokens`, an object, or None for MiniLM.

    Raises:
        ValueError: unless `size > overlap >= 0`.
    """

    name: ClassVar[str] = ""
    # None: as many tokens as the embedding model takes (the tokenizer's limit).
    default_size: ClassVar[int | None] = None
    default_overlap: ClassVar[int] = 0

    def __init__(
        self, *, size: int | None = None, overlap: int | None = None, tokenizer: Tokenizer | str | None = None
    ) -> None:
        self.tokenizer = resolve_tokenizer(tokenizer)
        self.limit = input_limit(self.tokenizer)
        self.size = size if size is not None else (self.default_size or self.limit)
        self.overlap = overlap if overlap is not None else self.default_overlap
        if not self.size > self.overlap >= 0:
            raise ValueError(
                f"chunk size must be larger than overlap >= 0, got size={self.size}, overlap={self.overlap}"
            )
        if size is not None and self.size > self.limit:
            logger.warning(
                "Warning: chunk size %d is more than the %s model's input of %d tokens; the embedder "
                "truncates longer chunks",
                self.size,
                self.tokenizer.name,
                self.limit,
            )

    @property
    def params(self) -> dict[str, Any]:
        """The parameters this strategy runs with (for reports and index manifests)."""
        return {"size": self.size, "overlap": self.overlap, "tokenizer": self.tokenizer.name}

    def chunk(self, services: Iterable[Service]) -> list[Chunk]:
        """Chunks of every service, service by service in the order given."""
        return [c for service in services for c in self.chunk_service(service)]

    @abstractmethod
    def chunk_service(self, service: Service) -> list[Chunk]:
        """Chunks of one service."""

    # ---- helpers for subclasses ---------------------------------------------------------
    def chunk_id(self, service: Service, what: str) -> str:
        return f"{service.id}:{self.name}:{what}"

    def base_metadata(self, service: Service) -> dict[str, Any]:
        return {"strategy": self.name, "title": service.title}

    def operation_metadata(self, service: Service, op: Operation) -> dict[str, Any]:
        meta = self.base_metadata(service)
        meta.update(tags=list(op.tags), summary=short_description(op), schemas=list(op.schema_refs))
        if op.operation_id:
            meta["operation_id"] = op.operation_id
        return meta

    def parts(
        self,
        service: Service,
        what: str,
        texts: list[tuple[str, int]],
        *,
        kind: str,
        operations: list[str],
        metadata: dict[str, Any],
        content: str | None = None,
    ) -> list[Chunk]:
        """Chunks for the pieces `(embed_text, tokens)` of one logical unit (an operation, a schema).

        With more than one piece, ids get `#i` and metadata `part`, `parts` and `parent` (the id
        without the suffix). `content` defaults to each piece's own text.
        """
        base = self.chunk_id(service, what)
        n = len(texts)
        chunks = []
        for i, (text, tokens) in enumerate(texts, 1):
            meta = dict(metadata)
            if n > 1:
                meta.update(part=i, parts=n, parent=base)
            chunks.append(
                Chunk(
                    id=f"{base}#{i}" if n > 1 else base,
                    kind=kind,
                    service=service.id,
                    operations=list(operations),
                    embed_text=text,
                    content=text if content is None else content,
                    file=service.file,
                    tokens=tokens,
                    metadata=meta,
                )
            )
        return chunks

    def fit_units(
        self, service: Service, units: list[TextUnit], max_parts: int | None = None
    ) -> list[Chunk]:
        """Chunks of readable texts: one per unit, or several split at block boundaries when too long
        (at most `max_parts` per unit when given; the rest is dropped with a warning)."""
        totals = measure([(u.header, u.blocks) for u in units], self.tokenizer)
        chunks: list[Chunk] = []
        for unit, total in zip(units, totals, strict=True):
            pieces = fit_blocks(unit.header, unit.blocks, total, self.size, self.tokenizer)
            if max_parts is not None and len(pieces) > max_parts:
                logger.warning(
                    "%s: %s: %d chunks cut to %d (limit max_unit_chunks=%d; raise it with %s)",
                    service.file, unit.what, len(pieces), max_parts, max_parts, env_name("max_unit_chunks"),
                )
                pieces = pieces[:max_parts]
            chunks += self.parts(
                service, unit.what, pieces, kind=unit.kind, operations=unit.operations, metadata=unit.metadata
            )
        return chunks
