"""Infer an OpenAPI 3.0 schema from an example value (a request or response body).

One example says little about what is optional, so inferred schemas never list `required`;
they give types, nested properties and array item types, and a string `format` when the value
plainly has one (date-time, date, uuid, email).
"""

from __future__ import annotations

import re
from typing import Any

# Beyond this many array items the rest add nothing but time (response dumps can be large).
MAX_ARRAY_SAMPLE = 100
MAX_DEPTH = 32
_STRUCTURAL = {"type", "properties", "items", "format", "oneOf", "nullable"}

_FORMATS = (
    ("date-time", re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")),
    ("date", re.compile(r"^\d{4}-\d{2}-\d{2}$")),
    ("uuid", re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")),
    ("email", re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")),
)


def infer_schema(value: Any, *, _depth: int = 0) -> dict[str, Any]:
    """Return an OpenAPI 3.0 schema describing `value`.

    Args:
        value: a JSON value (dict, list, str, int, float, bool or None).

    Returns:
        A schema such as `{"type": "object", "properties": {"id": {"type": "integer"}}}`.
        `None` gives `{"nullable": True}`; an empty list gives `{"type": "array", "items": {}}`.
    """
    if _depth > MAX_DEPTH:
        return {}
    if value is None:
        return {"nullable": True}
    if isinstance(value, bool):  # before int: bool is a subclass of int
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        for name, pattern in _FORMATS:
            if pattern.match(value):
                return {"type": "string", "format": name}
        return {"type": "string"}
    if isinstance(value, dict):
        if not value:
            return {"type": "object"}
        return {
            "type": "object",
            "properties": {str(k): infer_schema(v, _depth=_depth + 1) for k, v in value.items()},
        }
    if isinstance(value, list):
        items: dict[str, Any] | None = None
        for item in value[:MAX_ARRAY_SAMPLE]:
            schema = infer_schema(item, _depth=_depth + 1)
            items = schema if items is None else merge_schemas(items, schema)
        return {"type": "array", "items": items if items is not None else {}}
    return {}


def merge_schemas(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Combine two inferred schemas into one that accepts both examples.

    Objects merge their properties, arrays their item schemas, integer and number give number,
    null makes the other side nullable, and unrelated types end up in a `oneOf`.
    An empty schema `{}` (nothing known, e.g. the items of an empty list) yields the other side.
    """
    if a == b:
        return a
    if not a:
        return b
    if not b:
        return a
    a_null, b_null = _is_null_only(a), _is_null_only(b)
    if a_null or b_null:
        other = dict(b if a_null else a)
        other["nullable"] = True
        return other
    nullable = bool(a.get("nullable") or b.get("nullable"))
    ta, tb = a.get("type"), b.get("type")
    merged: dict[str, Any]
    if ta == tb == "object":
        props = dict(a.get("properties", {}))
        for key, schema in b.get("properties", {}).items():
            props[key] = merge_schemas(props[key], schema) if key in props else schema
        merged = {"type": "object", "properties": props} if props else {"type": "object"}
    elif ta == tb == "array":
        merged = {"type": "array", "items": merge_schemas(a.get("items", {}), b.get("items", {}))}
    elif ta == tb == "string":
        merged = {"type": "string"}
        if a.get("format") == b.get("format") and "format" in a:
            merged["format"] = a["format"]
    elif {ta, tb} == {"integer", "number"}:
        merged = {"type": "number"}
    else:
        unique: list[dict[str, Any]] = []
        for option in (a.get("oneOf") or [a]) + (b.get("oneOf") or [b]):
            option = {k: v for k, v in option.items() if k != "nullable"}
            if option not in unique:
                unique.append(option)
        merged = {"oneOf": unique}
    if nullable:
        merged["nullable"] = True
    if "oneOf" not in merged:  # keep descriptions and x- flags (a's win); oneOf options keep their own
        for key, value in (*b.items(), *a.items()):
            if key not in _STRUCTURAL:
                merged[key] = value
    return merged


def _is_null_only(schema: dict[str, Any]) -> bool:
    return schema == {"nullable": True}
