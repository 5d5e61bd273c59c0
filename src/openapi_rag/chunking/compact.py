"""`compact`: a short readable line to embed, a fuller field text for BM25, one chunk per operation.

A small embedder (MiniLM reads 256 tokens) matches a query best against a short statement of what
an operation does, not against its JSON: the embedded text is

    API title – tags – METHOD /path: summary. First sentence of the description. Parameters: a, b.

BM25 has no input limit and profits from every identifier and description, so the chunk carries a
separate lexical text in `metadata["bm25_text"]` (`BM25Index.from_chunks` indexes it instead of
`embed_text`): `METHOD /path`, summary, tags, the whole description, and each parameter's name and
description. Each field counts once: repeating the path and summary to weight them (2x, 3x)
moved recall by less than .01 on RestBench and SOCBench-D. The chunk's `content` (what search
returns) is the operation without its request body and examples, as with `thin`.
"""

from __future__ import annotations

import json
import re

from openapi_rag.chunking.endpoint import EndpointStrategy, thin_operation
from openapi_rag.chunking.render import collapse
from openapi_rag.model import Chunk, Operation, Service
from openapi_rag.search.bm25 import BM25_TEXT

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def first_sentence(text: str) -> str:
    """The first sentence of `text` with whitespace collapsed ("" for no text)."""
    return _SENTENCE_END.split(collapse(text), maxsplit=1)[0]


def compact_text(service: Service, op: Operation) -> str:
    """The short line embedded for `op` (see the module docstring)."""
    head = " – ".join(part for part in (collapse(service.title), ", ".join(op.tags)) if part)
    summary = collapse(op.summary)
    sentence = first_sentence(op.description)
    if sentence.lower() == summary.lower():  # many specs repeat the summary as description
        sentence = ""
    body = ". ".join(part for part in (summary, sentence) if part)
    text = f"{head} – {op.id}: {body}" if head else f"{op.id}: {body}"
    names = ", ".join(p.name for p in op.parameters)
    return f"{text} Parameters: {names}." if names else text


def lexical_text(op: Operation) -> str:
    """The fuller text BM25 indexes for `op` (see the module docstring)."""
    params = " ".join(f"{p.name} {collapse(p.description)}".strip() for p in op.parameters)
    parts = (op.id, collapse(op.summary), " ".join(op.tags), collapse(op.description), params)
    return " ".join(part for part in parts if part)


class CompactStrategy(EndpointStrategy):
    """One chunk per operation: a short line embedded, a fuller text for BM25, thin JSON returned."""

    name = "compact"

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        return [(compact_text(service, op), "") for op in ops]

    def contents(self, service: Service, ops: list[Operation]) -> list[str] | None:
        return [
            f"{op.id}\n{json.dumps(thin_operation(op.raw), ensure_ascii=False, default=str)}" for op in ops
        ]

    def chunk_service(self, service: Service) -> list[Chunk]:
        chunks = super().chunk_service(service)
        lexical = {op.id: lexical_text(op) for op in service.operations}
        for chunk in chunks:
            chunk.metadata[BM25_TEXT] = lexical[chunk.operations[0]]
        return chunks
