"""Figures about a set of chunks: how many, how long, how they cover the operations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from openapi_rag.model import Chunk, Service
from openapi_rag.tokens import Tokenizer


def chunk_summary(
    chunks: Sequence[Chunk],
    services: Iterable[Service],
    *,
    limit: int | None = None,
    tokenizer: Tokenizer | None = None,
) -> dict[str, Any]:
    """Number of chunks, tokens per chunk (mean, max), chunks per operation, coverage.

    Args:
        chunks: the chunks of `services`.
        services: the services they were made from (for the operations to cover).
        limit: the embedding model's input limit; chunks above it are counted as `over_limit`.
        tokenizer: when given, the returned content is counted too (`content_tokens_mean`): what
            a chunk costs in a prompt, which differs from `tokens` where content is not the
            embedded text (`fields`).
    """
    services = list(services)
    per_op: Counter[tuple[str, str]] = Counter()
    for chunk in chunks:
        for op_id in set(chunk.operations):
            per_op[(chunk.service, op_id)] += 1
    ops = [(s.id, op.id) for s in services for op in s.operations]
    tokens = [c.tokens for c in chunks]
    covered = [per_op[key] for key in ops]
    summary: dict[str, Any] = {
        "services": len(services),
        "operations": len(ops),
        "chunks": len(chunks),
        "kinds": dict(Counter(c.kind for c in chunks)),
        "tokens_mean": round(sum(tokens) / len(tokens), 1) if tokens else 0.0,
        "tokens_max": max(tokens, default=0),
        "tokens_total": sum(tokens),
        "chunks_per_operation": round(sum(covered) / len(ops), 2) if ops else 0.0,
        "chunks_per_operation_max": max(covered, default=0),
        "uncovered_operations": sum(1 for n in covered if n == 0),
    }
    if tokenizer is not None:
        differ = [c.content for c in chunks if c.content != c.embed_text]
        counted = iter(tokenizer.count_many(differ))
        content = [next(counted) if c.content != c.embed_text else c.tokens for c in chunks]
        summary["content_tokens_mean"] = round(sum(content) / len(content), 1) if content else 0.0
    if limit is not None:
        summary["limit"] = limit
        summary["over_limit"] = sum(1 for t in tokens if t > limit)
    return summary
