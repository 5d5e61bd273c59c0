"""Fold copies of one operation that several services of a catalog carry word for word.

Catalogs hold the same API more than once: the realworld corpus has Slack's, Jira's and OpenAI's
descriptions both as JSON and as YAML, and SendGrid's email-activity API three times. Every copy
then ranks side by side (`slack-web-api POST /pins.add`, `slack-web-api-2 POST /pins.add`), and
half of a top 10 repeats the other half. An operation whose best chunk reads exactly like that of a
better-ranked operation with the same `METHOD /path` is folded into it: the first copy stays, and
names the others' services in `also_in`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from openapi_rag.search.results import OperationHit


def fold_duplicates(
    operations: Sequence[OperationHit], text_of: Callable[[str], str | None]
) -> list[OperationHit]:
    """`operations` (best first) with word-for-word copies folded into the first.

    Args:
        operations: ranked operations.
        text_of: a chunk id -> the text it matched on (None when unknown: never folded).
    """
    first: dict[tuple[str, str], int] = {}  # (METHOD /path, text) -> its index in `kept`
    kept: list[OperationHit] = []
    copies: dict[int, list[str]] = {}  # index in `kept` -> the services of its copies
    for op in operations:  # each (service, METHOD /path) comes once
        text = text_of(op.chunk_ids[0]) if op.chunk_ids else None
        if text is None:
            kept.append(op)
        elif (op.id, text) in first:
            copies.setdefault(first[op.id, text], []).append(op.service)
        else:
            first[op.id, text] = len(kept)
            kept.append(op)
    for index, services in copies.items():
        kept[index] = kept[index].with_copies(tuple(services))
    return kept
