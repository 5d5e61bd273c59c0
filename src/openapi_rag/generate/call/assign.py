"""Assign the values a request states to an operation's fields, by name, description, type and position.

Every (field, value) pair gets a score: how well the value's type fits the field's schema (a date
into a `format: date` field, an amount into a number, an identifier into a path id), plus how well
the words written around the value match the field's name and description ("playlist 3cEY…" →
`playlist_id`, "from account 1234" → `from_account`). Pairs are taken best first, each field and
each value once. Optional fields need evidence in the words (or a value of a kind only they take);
required fields may be filled by type and reading order alone, and one that stays empty gets the
schema's own example or default and a `problems` entry instead of an invented value.
"""

from __future__ import annotations

import re
from typing import Any

from openapi_rag.generate.call.fields import Assignment, Field
from openapi_rag.generate.call.named import (
    boolean_assignments,
    currency_assignments,
    enum_assignments,
    named_words,
)
from openapi_rag.generate.call.values import Value
from openapi_rag.generate.call.vocabulary import (
    MONEY_WORDS,
    RATE_WORDS,
    STRONG_KINDS,
    description_words,
    expanded,
    field_words,
    key,
    stem,
)

__all__ = ["Assignment", "assign_values", "convert", "placeholder"]

_URI_TEMPLATE = re.compile(r"\b([a-z][a-z0-9]*):([a-z]+):[A-Za-z0-9]+")
MIN_OPTIONAL_EVIDENCE = 1.0


def context_score(f: Field, v: Value) -> float:
    """Evidence in the request's words that `v` is meant for `f`."""
    name = field_words(f)
    if not name and f.location == "body" and not f.name:
        name = {"item", "ids", "list"}
    score = 0.0
    for distance, word in enumerate(v.before[:4]):
        if expanded(word) & name:
            score += 3.0 / (1 + 0.6 * distance)
    for word in v.after[:1]:
        if expanded(word) & name:
            score += 1.5
    if v.trigger and (expanded(v.trigger) & name):
        score += 3.0
    desc = description_words(f)
    if desc:
        overlap = {stem(w) for w in v.before[:2]} & desc
        score += min(1.0, 0.5 * len(overlap))
    return score


def _string_fit(f: Field, v: Value, schema: dict[str, Any]) -> float | None:
    fmt = str(schema.get("format") or "")
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return 2.0 if str(v.value) in {str(e) for e in enum} else None
    if fmt == "date":
        return {"date": 2.0, "datetime": 1.0}.get(v.kind)
    if fmt == "date-time":
        return {"datetime": 2.0, "date": 1.2}.get(v.kind)
    if fmt == "email":
        return 2.0 if v.kind == "email" else None
    if fmt in ("uri", "url"):
        return {"url": 2.0, "uri": 1.0}.get(v.kind)
    fits = {"id": 1.0, "code": 1.0, "text": 1.0, "uri": 1.0, "url": 0.7, "email": 0.7, "number": 0.6}
    fits.update({"date": 0.3, "datetime": 0.3, "amount": 0.2, "percent": 0.2})
    fit = fits.get(v.kind)
    if fit is not None and v.kind == "text" and f.location == "path":
        # A path holds an identifier: never an unquoted phrase, and a quoted one only for want of better.
        return 0.2 if v.extra.get("quoted") and not v.trigger else None
    if fit is not None and v.kind == "text" and not v.extra.get("quoted"):
        if set(f.name_words) & {"id", "ids", "number", "code", "key", "uuid"}:
            fit = 0.2  # prose rarely fills an identifier
    return fit


def type_fit(f: Field, v: Value) -> float | None:
    """How well `v`'s kind fits `f`'s schema; None when it cannot go there."""
    kind = f.type
    schema = f.schema
    if kind == "array":
        schema = f.item_schema
        kind = str(schema.get("type") or "string")
    if kind == "integer":
        if v.kind == "number" and isinstance(v.value, int):
            return 1.0
        if v.kind == "id" and v.text.isdigit():
            return 1.0
        if v.kind == "percent" and isinstance(v.value, int):
            return 1.0
        return 0.3 if v.kind == "amount" and isinstance(v.value, int) else None
    if kind == "number":
        return {"amount": 1.5, "number": 1.0, "percent": 1.0}.get(v.kind)
    if kind == "string":
        return _string_fit(f, v, schema)
    return None


def convert(f: Field, v: Value) -> Any:
    """`v` as the field's type wants it (an item of it, for arrays)."""
    schema = f.item_schema if f.type == "array" else f.schema
    kind = str(schema.get("type") or "string") if f.type == "array" else f.type
    if kind == "integer":
        return int(v.value) if isinstance(v.value, int | float) else int(str(v.value))
    if kind == "number":
        return v.value if isinstance(v.value, int | float) else float(str(v.value))
    fmt = schema.get("format")
    if fmt == "date" and v.kind == "datetime":
        return str(v.value)[:10]
    if fmt == "date-time" and v.kind == "date":
        return f"{v.value}T00:00:00Z"
    value = v.value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value)
    if v.kind == "id":
        text = _uri_from_examples(f, v) or text
    return text


def _uri_from_examples(f: Field, v: Value) -> str | None:
    """`spotify:track:ID` when the field's description or example shows URIs of that shape."""
    shown = " ".join(
        str(x) for x in (f.description, f.schema.get("example"), f.item_schema.get("example")) if x
    )
    templates = {(m.group(1), m.group(2)) for m in _URI_TEMPLATE.finditer(shown)}
    if not templates:
        return None
    near = {stem(w) for w in (*v.before[:2], *v.after[:1])}
    for scheme, kind in sorted(templates):
        if stem(kind) in near:
            return f"{scheme}:{kind}:{v.value}"
    return None


def placeholder(f: Field) -> Any:
    """What a required field holds when the request does not say: the schema's example, default or
    first enum value, else an empty value of its type."""
    schema = f.schema
    for keyword in ("example", "default"):
        if keyword in schema and schema[keyword] is not None:
            return schema[keyword]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    if f.enum:
        return [f.enum[0]] if f.type == "array" else f.enum[0]
    fmt = schema.get("format")
    return {
        "integer": 1,
        "number": 1,
        "boolean": False,
        "array": [],
        "object": {},
    }.get(
        f.type, "2024-01-01" if fmt == "date" else "2024-01-01T00:00:00Z" if fmt == "date-time" else "string"
    )


def _adjacent(request: str, a: Value, b: Value) -> bool:
    gap = request[a.end : b.start].strip().lower()
    return gap in ("", ",", "and", ", and", "&", "or", ", or", "/")


def assign_values(fields: list[Field], values: list[Value], request: str) -> list[Assignment]:
    """The fields filled from `values` (and named enums/booleans), in the fields' order."""
    taken: set[tuple[str, str]] = set()
    out = enum_assignments(fields, request, taken)
    out += boolean_assignments(fields, request, taken)
    # Values consumed by enum names are not offered again (a code "USD" named as an enum value).
    pairs: list[tuple[float, int, int, Field, Value, float]] = []
    strong_fields: dict[str, int] = {}
    for f in fields:
        for v in values:
            if v.kind in STRONG_KINDS and (type_fit(f, v) or 0) >= 1.0:
                strong_fields[v.kind] = strong_fields.get(v.kind, 0) + 1
    body_names = {f.name for f in fields if f.location == "body"}
    for fi, f in enumerate(fields):
        if key(f) in taken or f.type in ("object", "boolean"):
            continue
        for vi, v in enumerate(values):
            fit = type_fit(f, v)
            if fit is None:
                continue
            evidence = context_score(f, v)
            if f.location == "path" and v.kind in ("id", "number", "code"):
                fit += 0.5
            if f.location == "query" and (f.name in body_names):
                fit -= 0.5  # the same field in the body: the body is where a write carries it
            words_of_field = set(f.name_words)
            if v.kind == "amount":
                fit += 1.0 if words_of_field & MONEY_WORDS else -0.8 if words_of_field & RATE_WORDS else 0.0
            elif v.kind == "percent":
                fit += 1.0 if words_of_field & RATE_WORDS else -0.8 if words_of_field & MONEY_WORDS else 0.0
            elif v.kind == "text" and v.extra.get("quoted") and f.type == "string" and f.location != "path":
                fit += 0.5  # quoted words are meant as one value, more than a bare code beside them
            unique_kind = v.kind in STRONG_KINDS and strong_fields.get(v.kind, 0) == 1
            if not f.required and evidence < MIN_OPTIONAL_EVIDENCE and not unique_kind:
                continue
            pairs.append((fit + evidence, fi, vi, f, v, evidence))
    # Best score first; on ties reading order keeps "from X to Y" and positional ids in order.
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    used: set[int] = set()
    chosen: dict[tuple[str, str], Assignment] = {}
    for score, _, vi, f, v, _ in pairs:
        if key(f) in taken or vi in used:
            continue
        taken.add(key(f))
        used.add(vi)
        chosen[key(f)] = Assignment(f, None, (v,), score)
    # Lists: an array field (or a comma-separated string) takes the values written beside its first.
    for a in chosen.values():
        many = a.field.type == "array" or "comma" in a.field.description.lower()
        if not many:
            continue
        first = a.sources[0]
        index = values.index(first)
        group = [first]
        for v in values[index + 1 :]:
            if values.index(v) in used or v.kind != first.kind or not _adjacent(request, group[-1], v):
                break
            group.append(v)
            used.add(values.index(v))
        a.sources = tuple(group)
    for a in chosen.values():
        items = [convert(a.field, v) for v in a.sources]
        first = items[0] if items else None
        if (
            len(items) > 1
            and isinstance(first, str)
            and first.endswith(str(a.sources[0].value))
            and first != str(a.sources[0].value)
        ):
            prefix = first[: -len(str(a.sources[0].value))]  # "spotify:track:" for every id of the list
            items = [first] + [
                f"{prefix}{v.value}" if v.kind == "id" else i
                for v, i in zip(a.sources[1:], items[1:], strict=True)
            ]
        if a.field.type == "array":
            a.value = items
        elif len(items) > 1:
            a.value = ",".join(str(i) for i in items)
        else:
            a.value = items[0]
        out.append(a)
    out += currency_assignments(fields, values, taken)
    out += named_words(fields, request, taken, values)
    order = {(f.location, f.name): i for i, f in enumerate(fields)}
    return sorted(out, key=lambda a: order[(a.field.location, a.field.name)])
