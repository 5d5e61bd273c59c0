"""Fold copies of one operation that several services of a catalog carry word for word.

Catalogs hold the same API more than once: the realworld corpus has Slack's, Jira's and OpenAI's
descriptions both as JSON and as YAML, and SendGrid's email-activity API three times. Every copy
then ranks side by side (`slack-web-api POST /pins.add`, `slack-web-api-2 POST /pins.add`), and
half of a top 10 repeats the other half. An operation whose best chunk reads exactly like that of a
better-ranked operation with the same `METHOD /path` is folded into it: the first copy stays, and
names the others' services in `also_in`.

Near-copies (`similarity` < 1): versions and renamings of one API carry the same `METHOD /path`
with a line that differs in a word or two and in the API's title (Twilio's Chat and its older
name IP Messaging; an API's v1 and v2 documents; an SDK variant). Then what follows `METHOD /path:`
in the two texts is compared as sets of words, and an operation folds into a better-ranked one
whose words overlap its own by at least `similarity` (Jaccard).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

from openapi_rag.search.results import OperationHit

_WORD = re.compile(r"\w+")


def fold_duplicates(
    operations: Sequence[OperationHit], text_of: Callable[[str], str | None], similarity: float = 1.0
) -> list[OperationHit]:
    """`operations` (best first) with copies folded into the first.

    Args:
        operations: ranked operations.
        text_of: a chunk id -> the text it matched on (None when unknown: never folded).
        similarity: 1: word-for-word copies only; below 1: near-copies too, whose words after
            `METHOD /path:` overlap by at least this much (see the module docstring).
    """
    first: dict[tuple[str, str], int] = {}  # (METHOD /path, text) -> its index in `kept`
    near: dict[str, list[tuple[int, str]]] = {}  # METHOD /path -> (index in `kept`, text), kept ones
    words = functools.cache(_body_words)  # read only where two operations share a METHOD /path
    kept: list[OperationHit] = []
    copies: dict[int, list[str]] = {}  # index in `kept` -> the services of its copies
    for op in operations:  # each (service, METHOD /path) comes once
        text = text_of(op.chunk_ids[0]) if op.chunk_ids else None
        if text is None:
            kept.append(op)
            continue
        original = first.get((op.id, text))
        if original is None and similarity < 1.0:
            original = next(
                (
                    i
                    for i, other in near.get(op.id, ())
                    if _overlap(words(text, op.id), words(other, op.id)) >= similarity
                ),
                None,
            )
        if original is not None:
            copies.setdefault(original, []).append(op.service)
        else:
            first[op.id, text] = len(kept)
            near.setdefault(op.id, []).append((len(kept), text))
            kept.append(op)
    for index, services in copies.items():
        kept[index] = kept[index].with_copies(tuple(services))
    return kept


def _body_words(text: str, operation: str) -> frozenset[str]:
    """The words of `text` after `METHOD /path:` (all of it where the id is not in it): the API's
    title and tags, which differ between versions and renamings, are left out."""
    at = text.find(f"{operation}:")
    return frozenset(_WORD.findall((text[at + len(operation) + 1 :] if at >= 0 else text).lower()))


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 1.0
