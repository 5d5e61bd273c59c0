"""Run cleaning steps over a bundled OpenAPI 3 document and count the tokens each removed."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from openapi_rag.clean._walk import copy_tree, dump, map_strings
from openapi_rag.clean.registry import CLEAN_STEPS, SELECTION_WORDS, parse_steps, unknown_step
from openapi_rag.clean.urls import UrlDeny, make_url_cleaner

TokenCounter = Callable[[str], int]

_TOKEN = re.compile(r"\w+|[^\w\s]")


def count_tokens_simple(text: str) -> int:
    """Words and punctuation marks: a tokenizer-free stand-in for an embedding model's tokenizer."""
    return len(_TOKEN.findall(text))


def clean_document(
    doc: dict[str, Any],
    steps: Iterable[str],
    count_tokens: TokenCounter | None = None,
    *,
    url_deny: UrlDeny | None = None,
) -> tuple[dict[str, Any], dict[str, int]]:
    """Clean a bundled OpenAPI 3 document with the named steps.

    The steps run in registry order (document steps, then text steps), whatever order they are
    given in. The savings are measured on the compact JSON (`ensure_ascii=False`) of what each
    step changed: `count_tokens` of the members a document step removed (with their commas), or of
    the old minus the new JSON strings a text step rewrote. That equals the difference between
    counting the whole document before and after the step, up to tokens merging across the edges
    of the changed pieces, at a fraction of the cost of re-serialising a multi-megabyte document.

    Args:
        doc: the bundled document; it is not modified.
        steps: step names from `CLEAN_STEPS` (a selection string such as `"default,-urls"` is
            passed through `parse_steps`).
        count_tokens: the embedding model's token counter; `count_tokens_simple` when None. It must
            count without truncating.
        url_deny: the `urls` step's deny-list (host names, or `"all"`); the default drops link
            shorteners and Postman links.

    Returns:
        A new document, and the tokens each selected step removed, keyed by step name in run order.

    Raises:
        ValueError: an unknown step name, or a bad `url_deny`.
    """
    names = parse_steps(steps) if isinstance(steps, str) else _check(steps)
    count = count_tokens or count_tokens_simple
    url_cleaner = make_url_cleaner(url_deny) if url_deny is not None else None
    work = copy_tree(doc)
    removed: dict[str, int] = {}

    text_steps: list[tuple[str, Callable[[str], str]]] = []
    for name in names:
        step = CLEAN_STEPS[name]
        if step.apply is not None:
            members = step.apply(work)
            removed[name] = count(",".join(members) + ",") if members else 0
        elif step.transform is not None:
            transform = url_cleaner if name == "urls" and url_cleaner else step.transform
            text_steps.append((name, transform))

    if text_steps:
        # All text steps share one walk: each string passes through them in order, and every
        # rewrite is booked to the step that made it.
        before: dict[str, list[str]] = {name: [] for name, _ in text_steps}
        after: dict[str, list[str]] = {name: [] for name, _ in text_steps}

        def clean_text(text: str) -> str:
            current = text
            for name, transform in text_steps:
                new = transform(current)
                if new is not current and new != current:
                    before[name].append(current)
                    after[name].append(new)
                    current = new
            return current

        map_strings(work, clean_text)
        for name, _ in text_steps:
            old, new = before[name], after[name]
            removed[name] = count(",".join(map(dump, old))) - count(",".join(map(dump, new))) if old else 0
    return work, {name: removed[name] for name in names}


def _check(steps: Iterable[str]) -> list[str]:
    wanted: set[str] = set()
    for name in steps:
        if name in CLEAN_STEPS:
            wanted.add(name)
        elif name in SELECTION_WORDS:
            wanted.update(parse_steps(name))
        else:
            raise unknown_step(name)
    return [name for name in CLEAN_STEPS if name in wanted]
