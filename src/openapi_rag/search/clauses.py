"""Splitting a multi-intent query into clauses.

"Retrieve the status of all equipment, access active alerts, and submit the integration status"
asks for three operations; one embedding of the whole sentence lands between them. Each clause is
searched on its own as well (`Searcher`), and an operation keeps its best score over the whole
query and the clauses, so every intent gets its own top results.

Clauses are cut at commas followed by a space (not inside 120,000), semicolons, sentence ends and
"then", at the connectives "along with", "as well as" and "while" (`SPLIT_CONNECTIVES`: "a summary
of all orders along with the status of the machinery" asks for two operations), and at "and"
where the words on both sides make clauses of their own (`SPLIT_AND`);
pieces shorter than `MIN_WORDS` words ("e.g. solar") are dropped. So "movies and TV shows of
Tom Hanks" stays whole, and "make a playlist of three songs and name it Love" is two intents.
The whole query is always searched too, so a needless cut adds candidates but loses none.
"""

from __future__ import annotations

import re

MIN_WORDS = 3
_CUT = re.compile(r",\s+(?:and\s+|then\s+)?|;\s*|(?<=[.!?])\s+|\s+(?:and\s+)?then\s+")
_AND = re.compile(r"\s+and\s+")
_CONNECTIVE = re.compile(r"\s+(?:along with|as well as|while)\s+", re.IGNORECASE)
SPLIT_AND = True
"""Also cut at "and" between two clauses (see the module docstring)."""
SPLIT_CONNECTIVES = True
"""Also cut at "along with", "as well as" and "while"."""


def split_clauses(query: str, *, min_words: int = MIN_WORDS) -> list[str]:
    """The query's clauses, or [] when it has fewer than two (nothing to search separately).

    Example:
        >>> split_clauses("Get all alerts, and create a new alert threshold for a sector")
        ['Get all alerts', 'create a new alert threshold for a sector']
        >>> split_clauses("Who directed Titanic?")
        []
    """
    parts = [part.strip() for part in _CUT.split(query)]
    if SPLIT_CONNECTIVES:
        parts = [piece.strip() for part in parts for piece in _CONNECTIVE.split(part)]
    if SPLIT_AND:
        parts = [piece for part in parts for piece in _split_and(part, min_words)]
    clauses = [part for part in parts if len(part.split()) >= min_words]
    return clauses if len(clauses) > 1 else []


def _split_and(text: str, min_words: int) -> list[str]:
    """Cut at "and" where both sides are clauses of their own (at least `min_words` words)."""
    pieces = _AND.split(text)
    out = [pieces[0]]
    for piece in pieces[1:]:
        if len(piece.split()) >= min_words and len(out[-1].split()) >= min_words:
            out.append(piece)
        else:
            out[-1] = f"{out[-1]} and {piece}"
    return out
