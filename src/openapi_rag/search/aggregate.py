"""Chunk hits → operation hits.

An operation appears once, at the score of its best chunk. A chunk covering several operations
(a document window) credits each of them. Chunks that are not about operations (kinds `schema`,
`errors`, `security`, or chunks listing no operation) are returned separately as linked hits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openapi_rag.model import Chunk
from openapi_rag.search.results import Hit, OperationHit

LINK_KINDS = frozenset({"schema", "errors", "security"})
"""Chunk kinds that describe a service's parts rather than operations."""


def summary_of(chunk: Chunk | None, op_id: str) -> str:
    """An operation's summary from chunk metadata.

    Chunkers record it as `metadata["summaries"][op_id]` (any chunk) or `metadata["summary"]`
    (a chunk covering exactly one operation).
    """
    if chunk is None:
        return ""
    summaries = chunk.metadata.get("summaries")
    # `type is dict` first: an ABC's isinstance check costs more than the rest of this function
    if summaries is not None and (type(summaries) is dict or isinstance(summaries, Mapping)) and summaries.get(op_id):
        return str(summaries[op_id])
    if len(chunk.operations) == 1 and chunk.metadata.get("summary"):
        return str(chunk.metadata["summary"])
    return ""


def _best(current: float | None, new: float | None) -> float | None:
    if new is None:
        return current
    return new if current is None else max(current, new)


def aggregate_operations(
    hits: Sequence[Hit], chunks: Mapping[str, Chunk] | None = None, *, summaries: bool = True
) -> tuple[list[OperationHit], list[Hit]]:
    """Group ranked chunk hits by operation.

    Args:
        hits: chunk hits, any order.
        chunks: the hits' chunks by id, for operation summaries (optional).
        summaries: False: every summary left empty, for `with_summaries` to fill in for the few
            operations a search returns out of the hundreds it ranks.

    Returns:
        `(operations, linked)`: operations by score descending, then service and `METHOD /path`;
        linked (non-operation) hits by score descending, then chunk id.
    """
    chunks = chunks or {}
    ordered = sorted(hits, key=lambda h: (-h.score, h.chunk_id))
    # Per operation: [score, summary, chunk ids, dense score, bm25 score] (a list, not a dict or
    # record: this loop runs over every chunk hit of every query).
    grouped: dict[tuple[str, str], list] = {}
    linked: list[Hit] = []
    for hit in ordered:
        ops = hit.operations
        if hit.kind in LINK_KINDS or not ops:  # a link kind, or no operation: a linked hit
            linked.append(hit)
            continue
        if len(ops) > 1:
            ops = dict.fromkeys(ops)  # type: ignore[assignment]
        for op_id in ops:
            entry = grouped.get((hit.service, op_id))
            if entry is None:  # the first (best) chunk for this operation
                summary = summary_of(chunks.get(hit.chunk_id), op_id) if summaries else ""
                grouped[(hit.service, op_id)] = [
                    hit.score,
                    summary,
                    [hit.chunk_id],
                    hit.dense_score,
                    hit.bm25_score,
                ]
                continue
            entry[2].append(hit.chunk_id)
            if summaries and not entry[1]:
                entry[1] = summary_of(chunks.get(hit.chunk_id), op_id)
            entry[3] = _best(entry[3], hit.dense_score)
            entry[4] = _best(entry[4], hit.bm25_score)
    operations = []
    for (service, op_id), (score, summary, chunk_ids, dense, lexical) in grouped.items():
        method, _, path = op_id.partition(" ")
        operations.append(
            OperationHit.of(
                service=service,
                method=method,
                path=path,
                id=op_id,
                score=score,
                summary=summary,
                chunk_ids=tuple(chunk_ids),
                dense_score=dense,
                bm25_score=lexical,
            )
        )
    operations.sort(key=lambda op: (-op.score, op.service, op.id))
    return operations, linked


def with_summaries(operations: Sequence[OperationHit], chunks: Mapping[str, Chunk]) -> list[OperationHit]:
    """`operations` where each without a summary has the one `aggregate_operations` gives: that of
    the first of its chunks (best first) whose metadata has one."""
    out = []
    for op in operations:
        if not op.summary:
            summary = next((s for c in op.chunk_ids if (s := summary_of(chunks.get(c), op.id))), "")
            op = op.with_summary(summary) if summary else op
        out.append(op)
    return out
