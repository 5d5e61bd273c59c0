"""The words assignment reads: generic API vocabulary shared by many APIs, never one API's names.

`SYNONYMS` maps a word of a request to words of field names it may stand for ("from" → source,
start; "limit" → max, size); the other sets name words that mark money or rates, negations and
their opposites, and words that never hold a value.
"""

from __future__ import annotations

from openapi_rag.generate.call.fields import Field
from openapi_rag.generate.call.values import words

# Words of a request that stand for words of field names (generic API vocabulary, not one API's).
SYNONYMS: dict[str, set[str]] = {
    "from": {"from", "source", "start", "begin", "origin", "sender", "since", "min"},
    "to": {"to", "destination", "end", "target", "recipient", "until", "max", "dest"},
    "since": {"start", "from", "begin", "since", "after"},
    "until": {"end", "to", "until", "before"},
    "between": {"start", "from"},
    "after": {"start", "from", "after", "since"},
    "before": {"end", "to", "before", "until"},
    "starting": {"start", "from", "begin"},
    "ending": {"end", "to"},
    "limit": {"limit", "max", "size", "count", "number", "per", "page"},
    "top": {"limit", "max", "size", "count"},
    "first": {"limit", "size", "count"},
    "up": {"limit", "max"},
    "page": {"page", "offset"},
    "skip": {"offset", "skip"},
    "email": {"email", "mail"},
    "phone": {"phone", "telephone", "mobile"},
    "user": {"user", "customer", "account", "owner", "member"},
    "customer": {"customer", "user", "client"},
    "price": {"price", "amount", "cost"},
    "amount": {"amount", "value", "total", "sum", "price"},
    "pay": {"amount", "payment"},
    "deposit": {"amount", "deposit"},
    "withdraw": {"amount", "withdrawal"},
    "transfer": {"amount"},
    "quantity": {"quantity", "count", "amount", "units", "qty"},
    "units": {"quantity", "units", "count"},
    "rating": {"rating", "score", "value", "stars"},
    "rate": {"rating", "rate", "value"},
    "symbol": {"symbol", "ticker", "symbols"},
    "stock": {"symbol", "ticker", "stock"},
    "query": {"q", "query", "search", "term", "keyword", "keywords", "text"},
    "search": {"q", "query", "search", "term", "keyword"},
    "find": {"q", "query"},
    "name": {"name", "title", "label"},
    "title": {"title", "name", "subject"},
    "message": {"message", "text", "content", "body", "comment"},
    "note": {"note", "notes", "comment", "description"},
    "comment": {"comment", "text", "feedback", "content"},
    "feedback": {"feedback", "comment", "text", "content"},
    "description": {"description", "details", "summary"},
    "reason": {"reason", "cause", "description"},
    "address": {"address", "location"},
    "year": {"year", "release"},
    "language": {"language", "lang", "locale"},
    "country": {"country", "market", "region"},
    "market": {"market", "country"},
    "located": {"location", "address"},
    "due": {"due", "deadline", "date"},
    "scheduled": {"scheduled", "date", "time", "start"},
    "on": {"date", "day"},
    "tracks": {"uris", "tracks", "ids"},
    "track": {"uris", "tracks", "track", "ids"},
    "position": {"position", "index", "offset", "insert"},
    "duration": {"duration", "length", "minutes", "hours", "days"},
    "days": {"days", "duration", "period"},
    "percent": {"percent", "percentage", "rate", "threshold"},
    "rename": {"name", "title"},
    "describing": {"description", "details"},
    "described": {"description", "details"},
    "results": {"limit", "count", "size"},
    "location": {"location", "region", "city", "destination", "country", "area", "place", "address"},
    "stars": {"rating", "score", "stars"},
    "lasting": {"duration", "days", "length"},
}
# Fields whose names say they hold money, or a rate: amounts and percentages go there first.
MONEY_WORDS = {"amount", "price", "cost", "total", "balance", "payment", "budget", "income", "deposit", "fee",
                "salary", "spend", "expenses", "expense", "value", "loan", "down"}  # fmt: skip
RATE_WORDS = {"rate", "percent", "percentage", "ratio", "interest"}
GENERIC = {
    "id",
    "ids",
    "the",
    "of",
    "a",
    "an",
    "to",
    "for",
    "in",
    "by",
    "is",
    "new",
    "data",
    "info",
    "value",
}
NEGATIONS = {"not", "no", "non", "without", "disable", "disabled", "dont", "don", "never", "off", "stop"}
ANTONYMS = {
    "private": "public",
    "inactive": "active",
    "disabled": "enabled",
    "unread": "read",
    "hidden": "visible",
}
STRONG_KINDS = {"date", "datetime", "email", "url", "amount", "percent", "uri"}


def key(f: Field) -> tuple[str, str]:
    """A field's identity: the same name may be a query parameter and a body field."""
    return (f.location, f.name)


def stem(word: str) -> str:
    """A crude singular: enough to match "tracks" with `track_id` (no library stems API words better)."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def field_words(f: Field) -> set[str]:
    return {stem(w) for w in f.name_words} - GENERIC


def description_words(f: Field) -> set[str]:
    return {stem(w) for w in words(f.description)[:30]} - GENERIC


def expanded(word: str) -> set[str]:
    """A request word and the field-name words it may stand for."""
    out = {stem(w) for w in SYNONYMS.get(word, set())} | {stem(word)}
    if len(word) == 3 and word.endswith("s"):
        out.add(word[:-1])  # "ads" → ad: too short for the general plural rule
    return out
