"""Which operations' path templates a piece of text contains.

The paper credits a window of a whole document with every operation whose path is a substring
of it, so `/` matches every window and `/users` every window that shows `/users/{id}`. Here a path
counts only where it stands as a whole: not glued to a longer path (no letter, digit, `_`, `-`,
`/`, `{`, `}`, `~` or `%` just before or after it), and not the start of a longer known path at the
same place (`/users` inside `/users.json` when that is a path too). The edges of the text count as
boundaries: a window that ends in the middle of `/users/{id}` right after `/users` contains `/users`.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable

_GLUE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-/{}~%")


def _glued(char: str) -> bool:
    return char in _GLUE or (not char.isascii() and char.isalnum())


def paths_in(text: str, paths: Iterable[str]) -> set[str]:
    """The paths of `paths` that `text` contains as whole paths."""
    return PathIndex(text, paths).paths_in(0, len(text))


class PathIndex:
    """Occurrences of many paths in one long text, for asking about many slices of it.

    Finding every occurrence once and answering each window from a sorted list keeps a document
    of thousands of windows and hundreds of paths fast.
    """

    def __init__(self, text: str, paths: Iterable[str]) -> None:
        self.text = text
        found: list[tuple[int, int, str]] = []
        for path in set(p for p in paths if p):
            start = text.find(path)
            while start != -1:
                found.append((start, start + len(path), path))
                start = text.find(path, start + 1)
        found.sort()
        self._found = found
        self._starts = [s for s, _, _ in found]

    def paths_in(self, start: int, end: int) -> set[str]:
        """Paths standing whole inside `text[start:end]` (the slice's edges are boundaries)."""
        text = self.text
        lo = bisect.bisect_left(self._starts, start)
        hi = bisect.bisect_left(self._starts, end)
        best: dict[int, tuple[int, str]] = {}  # occurrence start -> longest whole path there
        for s, e, path in self._found[lo:hi]:
            if e > end:
                continue
            if s > start and _glued(text[s - 1]):
                continue
            if e < end and _glued(text[e]):
                continue
            if s not in best or e > best[s][0]:
                best[s] = (e, path)
        return {path for _, path in best.values()}
