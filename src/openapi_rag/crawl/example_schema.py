"""Schemas from a page's examples, typed by what the page states.

One example literal cannot tell a number from an integer (`0`), and documentation often quotes
numbers (`"300"`): the scalar types the page's schema sections state for a field name retype what
an example shows.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.convert.infer import infer_schema
from openapi_rag.crawl.tables import FieldRow

SCALARS = {"string", "integer", "number", "boolean"}


def stated_types(named: dict[str, list[FieldRow]]) -> dict[str, str]:
    """Field name → the scalar type the page's schema sections state for it, where they all agree."""
    seen: dict[str, set[str]] = {}
    for rows in named.values():
        for row in rows:
            if row.type in SCALARS:
                seen.setdefault(row.name, set()).add(row.type)
    return {name: types.pop() for name, types in seen.items() if len(types) == 1}


def schema_from_example(value: Any, stated: dict[str, str]) -> dict[str, Any]:
    """The schema an example shows, with the scalar types the page states for its fields: one literal
    cannot tell a number from an integer (`0`), and documentation often quotes numbers (`"300"`)."""
    schema = infer_schema(value)
    if stated:
        _restate(schema, stated)
    return schema


def _restate(schema: Any, stated: dict[str, str], depth: int = 0) -> None:
    if depth > 16 or not isinstance(schema, dict):
        return
    for name, child in (schema.get("properties") or {}).items():
        if isinstance(child, dict):
            if child.get("type") in SCALARS and stated.get(name, child["type"]) != child["type"]:
                child["type"] = stated[name]
                child.pop("format", None)
            _restate(child, stated, depth + 1)
    _restate(schema.get("items"), stated, depth + 1)
