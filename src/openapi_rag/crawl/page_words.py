"""The pages' words, which the hallucination filter asks every name it keeps about."""

from __future__ import annotations

import re
from urllib.parse import unquote


class PageWords:
    """The pages' words, for the hallucination filter (`name in words`): a set lookup per name rather
    than a search of the whole text (a 50 MB page of half a million fields spent minutes searching).
    A name that is no word of its own ("movie id") falls back to a text search, a bounded number of
    times; past that it counts as absent and is reported dropped."""

    MAX_SEARCHES = 200

    def __init__(self, text: str) -> None:
        self.text = text
        tokens = set(re.findall(r"[\w$@.\-\[\]]+", text))
        if "%" in text:  # a name shown percent-encoded in a URI template ("critics%2dpick") occurs too
            tokens |= set(re.findall(r"[\w$@.\-\[\]]+", unquote(text)))
        self.words = tokens | {part for token in tokens for part in re.split(r"[.\-\[\]]+", token) if part}
        self.searches = 0

    def __contains__(self, name: object) -> bool:
        if name in self.words:
            return True
        if self.searches >= self.MAX_SEARCHES or not isinstance(name, str):
            return False
        self.searches += 1
        return name in self.text
