"""Splitting a request into the intents it names.

"Retrieve the status of all equipment, access active alerts, and submit the integration status"
asks for three operations; one embedding of the whole sentence lands between them. Each clause is
searched on its own as well (`Searcher`), and an operation keeps its best score over the whole
query and the clauses, so every intent gets its own top results.

Clauses are cut at commas followed by a space (not inside 120,000), semicolons, sentence ends and
"then", at the connectives "along with", "as well as" and "while" (`connectives`: "a summary of all
orders along with the status of the machinery" asks for two operations), and at "and" where the
words on both sides make clauses of their own (`split_and`); pieces shorter than `MIN_WORDS`
words ("e.g. solar") are dropped. So "movies and TV shows of Tom Hanks" stays whole, and "make a
playlist of three songs and name it Love" is two intents.

A piece that only gives an identifier, a preference or context is not an intent (`context.py`,
`intents_only`): in "I want to cancel my contract 1234 right away. My account ID is 0123. Please
make sure it is done today." only the first sentence asks for an operation; searched alone, the
others pull in account operations the request does not want. The whole query is always searched
too, so a needless cut adds candidates but loses none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openapi_rag.errors import InvalidQuery
from openapi_rag.search.context import CONTEXT_RULES, is_context, is_detail, opens_with_action, own_words

__all__ = [
    "CONTEXT_RULES",
    "QueryLimits",
    "check_query",
    "conversational",
    "intents",
    "is_context",
    "single_intent",
    "split_clauses",
]

MIN_WORDS = 3
_CUT = re.compile(r",\s+(?:and\s+|then\s+)?|;\s*|(?<=[.!?])\s+|\s+(?:and\s+)?then\s+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_INNER_CUT = re.compile(r"(,\s+(?:and\s+|then\s+)?|;\s*|\s+(?:and\s+)?then\s+)")
_AND = re.compile(r"\s+and\s+")
_CONNECTIVE = re.compile(r"\s+(?:along with|as well as|while)\s+", re.IGNORECASE)


def intents(
    query: str,
    *,
    min_words: int = MIN_WORDS,
    split_and: bool = True,
    connectives: bool = True,
    intents_only: bool = True,
    context_rule: str = "statement",
    sentence_units: bool = False,
    wish_requirements: bool = False,
    join_details: bool = False,
) -> list[str]:
    """The pieces of a request that ask for an action, however many (`split_clauses` keeps them
    only when there are several).

    With `sentence_units`, a conversational request (several sentences, one of them context) is
    cut within a sentence only before a piece that opens with an action of its own ("..., and
    also provide the rate for July"): there commas and "and" join dates, lists and names ("from
    January 1, 2023, to ...", "some fun, useless facts"), while a request that only lists its
    steps uses them to separate the steps. `wish_requirements`: as `context.is_context` takes it.
    With `join_details`, a piece that only adds a detail to the intent before it (`context.is_detail`:
    "Create a build hook. Call it cms-publish.") is joined to that intent.

    Example:
        >>> intents("We closed that account last month. Please cancel feed connection fc-77.")
        ['Please cancel feed connection fc-77.']
    """

    def context(piece: str) -> bool:
        return is_context(piece, context_rule, wish_requirements=wish_requirements)

    if sentence_units and conversational(query, context_rule=context_rule, wish_requirements=wish_requirements):
        parts = [
            piece
            for sentence in _sentences(query)
            for piece in _cut_before_actions(sentence, split_and, connectives, context_rule)
        ]
    else:
        parts = [part.strip() for part in _CUT.split(query)]
        if connectives:
            parts = [piece.strip() for part in parts for piece in _CONNECTIVE.split(part)]
        if split_and:
            parts = [piece for part in parts for piece in _split_and(part, min_words)]
    clauses = [part for part in parts if len(part.split()) >= min_words]
    if not intents_only:
        return clauses
    kept: list[str] = []
    after_intent = False  # whether the piece before is an intent (a detail joins only to one)
    for clause in clauses:
        if context(clause):
            after_intent = False
        elif join_details and after_intent and is_detail(clause):
            kept[-1] = f"{kept[-1]} {clause}"
        else:
            kept.append(clause)
            after_intent = True
    return kept


def split_clauses(
    query: str,
    *,
    min_words: int = MIN_WORDS,
    split_and: bool = True,
    connectives: bool = True,
    intents_only: bool = True,
    context_rule: str = "statement",
    sentence_units: bool = False,
    wish_requirements: bool = False,
    join_details: bool = False,
) -> list[str]:
    """The query's intents, or [] when it names fewer than two (nothing to search separately).

    Example:
        >>> split_clauses("Get all alerts, and create a new alert threshold for a sector")
        ['Get all alerts', 'create a new alert threshold for a sector']
        >>> split_clauses("Who directed Titanic?")
        []
        >>> split_clauses("Cancel my contract 1234 right away. My account ID is 0123.")
        []
    """
    clauses = intents(
        query,
        min_words=min_words,
        split_and=split_and,
        connectives=connectives,
        intents_only=intents_only,
        context_rule=context_rule,
        sentence_units=sentence_units,
        wish_requirements=wish_requirements,
        join_details=join_details,
    )
    return clauses if len(clauses) > 1 else []


def conversational(query: str, *, context_rule: str = "statement", wish_requirements: bool = False) -> bool:
    """Whether a request is written as a conversation: several sentences, one of them context
    (`context.is_context`), rather than a list of steps.

    Example:
        >>> conversational("We closed that account. Please cancel its feed.")
        True
        >>> conversational("Get all alerts, then create a threshold. Send a report.")
        False
    """
    sentences = _sentences(query)
    return len(sentences) > 1 and any(
        is_context(s, context_rule, wish_requirements=wish_requirements) for s in sentences
    )


def _sentences(query: str) -> list[str]:
    """The query's sentences (cut after ".", "!" or "?"), blank ones left out."""
    return [s for s in _SENTENCE.split(query.strip()) if s.strip()]


def single_intent(query: str, *, min_own_words: int = 0, **options: object) -> str | None:
    """The one piece of `query` that asks for an action, when it names at least `min_own_words`
    words of its own (`context.own_words`); else None (several intents, none, or one that only
    points back at the context: "I'm curious about the holidays in Australia in 2023. Can you
    fetch the list for me?" is better searched whole). `options`: as `intents` takes them.

    Example:
        >>> single_intent("We closed that account. Please cancel its feed connection fc-77.")
        'Please cancel its feed connection fc-77.'
        >>> single_intent("We need the 2023 holidays. Can you fetch the list?", min_own_words=3) is None
        True
    """
    found = intents(query, **options)  # type: ignore[arg-type]
    if len(found) != 1 or own_words(found[0]) < min_own_words:
        return None
    return found[0]


def _cut_before_actions(sentence: str, split_and: bool, connectives: bool, rule: str) -> list[str]:
    """A sentence's pieces, cut at commas, semicolons, "then" (and the connectives and "and") only
    where the next piece opens with an action of its own."""
    pattern = _INNER_CUT.pattern
    if connectives:
        pattern += r"|(\s+(?:along with|as well as|while)\s+)"
    if split_and:
        pattern += r"|(\s+and\s+)"
    cut = re.compile(pattern, re.IGNORECASE)
    segments = cut.split(sentence)  # text, then each group of a cut and the text after it
    step = 1 + cut.groups
    pieces = [segments[0] or ""]
    for i in range(1, len(segments), step):
        separator = next((g for g in segments[i : i + cut.groups] if g), "")
        text = segments[i + cut.groups] or ""
        if opens_with_action(text, rule) or "then" in separator.lower():
            pieces.append(text)
        else:
            pieces[-1] += separator + text
    return [piece.strip() for piece in pieces if piece.strip()]


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


@dataclass(frozen=True)
class QueryLimits:
    """Bounds on one query, so that a pasted document cannot make a search run for minutes.

    Every clause is embedded and searched on its own, so the work grows with the clause count.
    The defaults sit far above real requests (the longest of the 267 RestBench and SOCBench-D
    queries has 757 characters and 10 clauses) and keep the worst query to seconds, not minutes.

    Attributes:
        max_chars: longest query, in characters (`--max-query-chars`).
        max_clauses: most clauses (`split_clauses`) one query may have (`--max-clauses`).
    """

    max_chars: int = 8_000
    max_clauses: int = 32

    def __post_init__(self) -> None:
        if self.max_chars < 1 or self.max_clauses < 1:
            raise ValueError("query limits must be positive")


def check_query(query: object, limits: QueryLimits | None = None) -> None:
    """Refuse a query that cannot be searched meaningfully or would take too long.

    Raises:
        InvalidQuery: `query` is not text, is blank or has no letter or digit, or exceeds `limits`.
    """
    limits = limits or QueryLimits()
    if not isinstance(query, str):
        raise InvalidQuery(f"the query must be text, not {type(query).__name__}")
    if not any(ch.isalnum() for ch in query):
        shown = "empty" if not query.strip() else f"{query.strip()[:20]!r}, which has no words"
        raise InvalidQuery(f'the query is {shown}: say what the API should do, e.g. "create a playlist"')
    if len(query) > limits.max_chars:
        raise InvalidQuery(
            f"the query is {len(query):,} characters long, over the limit of {limits.max_chars:,} "
            "(--max-query-chars): shorten it or raise the limit"
        )
    clauses = len(split_clauses(query))
    if clauses > limits.max_clauses:
        raise InvalidQuery(
            f"the query has {clauses} clauses, over the limit of {limits.max_clauses} (--max-clauses): "
            "search for fewer tasks at once or raise the limit"
        )
