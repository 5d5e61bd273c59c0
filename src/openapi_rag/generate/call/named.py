"""Values a request names in words rather than writes as values: enum members, on/off flags,
identifiers without digits after their noun ("user smedjan"), and the currency of an amount."""

from __future__ import annotations

import re
from typing import Any

from openapi_rag.generate.call.fields import Assignment, Field
from openapi_rag.generate.call.values import Value, words
from openapi_rag.generate.call.vocabulary import ANTONYMS, GENERIC, NEGATIONS, field_words, key, stem

__all__ = ["boolean_assignments", "currency_assignments", "enum_assignments", "named_words"]


def _norm(text: str) -> str:
    return " ".join(words(text))


def _enum_position(text: str, value: str) -> int:
    """Where an enum value is named in the (normalised) request, singular or plural; -1 when not."""
    name = _norm(value)
    for form in (name, f"{name}s", f"{name}es"):
        at = text.find(f" {form} ")
        if at >= 0:
            return at
    return -1


def enum_assignments(fields: list[Field], request: str, taken: set[tuple[str, str]]) -> list[Assignment]:
    """Enum values named in the request ("rate it as urgent", "in progress", "weekly")."""
    text = f" {_norm(request)} "
    out = []
    for f in fields:
        if key(f) in taken or not f.enum:
            continue
        named = [e for e in f.enum if isinstance(e, str) and _norm(e) and _enum_position(text, e) >= 0]
        if not named:
            continue
        # Of several, the one named nearest the field's own words (or the first written).
        named.sort(key=lambda e: _enum_position(text, e))
        value: Any = named if f.type == "array" else named[0]
        out.append(Assignment(f, value, score=3.0))
        taken.add(key(f))
    return out


def boolean_assignments(fields: list[Field], request: str, taken: set[tuple[str, str]]) -> list[Assignment]:
    tokens = words(request)
    out = []
    for f in fields:
        if key(f) in taken or f.type != "boolean":
            continue
        keys = field_words(f) - {"is", "has", "allow", "enable", "include", "should"}
        # Words this flag shares with another flag ("alerts" in billingAlerts and usageAlerts) decide nothing.
        others = {w for g in fields if g is not f and g.type == "boolean" for w in field_words(g)}
        keys = (keys - others) or keys
        value = None
        for i, token in enumerate(tokens):
            if stem(token) in keys:
                window = tokens[max(0, i - 3) : i]
                # The nearest switch word decides: "turn on billing but turn off usage".
                switches = [
                    t for t in window if t in NEGATIONS or t in ("on", "enable", "enabled", "activate")
                ]
                value = not (switches and switches[-1] in NEGATIONS)
            elif ANTONYMS.get(token) in keys:
                value = False
        if value is not None:
            out.append(Assignment(f, value, score=2.0))
            taken.add(key(f))
    return out


_KIND_NOUNS = {"category", "type", "sector", "mode", "kind", "format", "status", "level", "genre", "region"}
_PLAIN_ID_STOP = {
    "a", "an", "the", "my", "to", "for", "and", "with", "from", "in", "on", "of", "id", "named", "called",
    "that", "this", "which", "who", "is", "as", "by", "me", "it", "all", "its", "their", "please", "so",
    "new", "details", "information", "data", "settings", "profile", "report", "be", "any", "some", "each",
}  # fmt: skip


def named_words(
    fields: list[Field], request: str, taken: set[tuple[str, str]], values: list[Value]
) -> list[Assignment]:
    """Path ids written as plain words after their noun ("user smedjan" → `user_id`): no pattern
    of `values` catches an identifier without digits, but its noun says what it is."""
    out = []
    spans = [(v.start, v.end) for v in values]
    for f in fields:
        if key(f) in taken or f.type != "string" or f.enum or f.schema.get("format"):
            continue
        if f.location == "body" and not f.required:
            continue
        nouns = [w for w in f.name_words if w not in GENERIC]
        for noun in nouns:
            after = rf"\b{re.escape(noun)}s?\s+(?:id\s+|named\s+|called\s+|to\s+|of\s+)?([A-Za-z][\w.-]*[\w])"
            before = rf"\b(?:the|a|an)\s+([A-Za-z][\w-]*)\s+{re.escape(noun)}\b"
            patterns = [after] + ([before] if noun in _KIND_NOUNS else [])
            for match in (m for pattern in patterns for m in re.finditer(pattern, request, re.IGNORECASE)):
                word = match.group(1)
                if word.lower() in _PLAIN_ID_STOP or any(s <= match.start(1) < e for s, e in spans):
                    continue
                out.append(Assignment(f, word, score=1.0))
                taken.add(key(f))
                break
            if key(f) in taken:
                break
    return out


def currency_assignments(
    fields: list[Field], values: list[Value], taken: set[tuple[str, str]]
) -> list[Assignment]:
    """A `currency` field takes the currency an amount was written in ("€30" → EUR)."""
    currencies = [v for v in values if v.kind == "amount" and v.currency]
    out = []
    for f in fields:
        if key(f) in taken or "currency" not in f.name_words or f.type != "string" or not currencies:
            continue
        code = currencies[0].currency
        if f.enum and code not in f.enum:
            continue
        out.append(Assignment(f, code, (currencies[0],), 1.0))
        taken.add(key(f))
    return out
