"""Operations a page lists in its navigation but draws nowhere else.

A page's list of operations (a sidebar, a table of contents) may draw each entry as its path and then its method
after a label (`/auth/1/websudo`, `HTTP Method: DEL`), the method perhaps shortened as badges shorten it (`DEL`).
Where a renderer draws the operations' own sections only for the first ones (lazily, the rest left as empty
placeholders), such an entry is all the page says of the others. An entry is read as an operation only when the
page documents no operation of that method and path elsewhere, and only in a list most of whose entries name
operations the page documents (so the list is the page's own operations, not paths of another kind). Issue 17's
fortieth round, on dev3.
"""

from __future__ import annotations

import re

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import is_method, is_path, split_url

# "HTTP Method: DEL", "Method: get", "Verb: POST": a run stating a method after a label.
_METHOD_LABEL = re.compile(r"^\s*(?:http\s+)?(?:method|verb)\s*:\s*(\w+)\s*$", re.I)
# How badges shorten methods.
_SHORT = {"DEL": "DELETE", "OPT": "OPTIONS", "OPTS": "OPTIONS"}


def entry_method(text: str) -> str | None:
    """The method a run states after a label, in full or shortened as a badge shortens it."""
    named = _METHOD_LABEL.match(text)
    if not named:
        return None
    word = named.group(1).upper()
    return is_method(word) or _SHORT.get(word)


def navigation_entries(blocks: list[Block]) -> list[tuple[int, str, str]]:
    """(position, method, path) for each run that is a path alone followed by a run stating a method after a
    label: an entry of a list of operations."""
    entries = []
    for i, block in enumerate(blocks[:-1]):
        after = blocks[i + 1]
        if block.kind != "text" or after.kind != "text":
            continue
        path = is_path(block.text)
        if not path or split_url(path)[0] or not (method := entry_method(after.text)):
            continue
        entries.append((i, method, "".join(path.split())))
    return entries


def unlisted_entries(
    entries: list[tuple[int, str, str]], keys: set[tuple[str, str]]
) -> list[tuple[int, str, str]]:
    """The entries naming an operation no key names, where most entries name one a key names (a path that ends
    the other's counts as the same: a key may hold the server's base path)."""
    if not entries:
        return []

    def known(method: str, path: str) -> bool:
        return any(m == method and (p.endswith(path) or path.endswith(p)) for m, p in keys)

    found = [known(method, path) for _, method, path in entries]
    if sum(found) * 2 <= len(entries):
        return []
    return [entry for entry, seen in zip(entries, found, strict=True) if not seen]
