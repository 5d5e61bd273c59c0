"""Schemas from a page's examples, typed by what the page states.

One example literal cannot tell a number from an integer (`0`), and documentation often quotes
numbers (`"300"`): the scalar types the page's schema sections state for a field name retype what
an example shows. An example whose every string value is a type name (`{"total": "number",
"since": "string (date-time)"}`) is a sketch of the schema, not data: its values are the types.
"""

from __future__ import annotations

import re
from typing import Any

from openapi_rag.convert.infer import infer_schema
from openapi_rag.crawl.tables import SCALARS, FieldRow

_MAX_DEPTH = 16
# A type name as a sketch writes it, a format in parentheses allowed: "string (date-time)".
_TYPE_NAME = re.compile(r"(string|integer|number|boolean|object|array)(?:\s*\([\w.\- ]{1,30}\))?", re.I)
# Keys an example generator writes for a map's entries (`additionalProperties` in the schema), no field:
# "additionalProperties" itself, or Swagger UI's "additionalProp1", "additionalProp2", ….
_MAP_PLACEHOLDER = re.compile(r"additionalProp(?:erties|\d+)")
# Other generators number a map's entries "property1", "property2": placeholders when an object's keys
# are only such, from 1 on (a field may be named "property1" beside others).
_NUMBERED_ENTRY = re.compile(r"property(\d+)")
# A format a sketch writes where the type would be ('"id": "int64"' beside '"name": "string"', since issue 17's
# twenty-second round), and the type it is a format of; a sketch needs one type name besides.
_FORMAT_TYPES = {
    "int32": "integer",
    "int64": "integer",
    "float": "number",
    "double": "number",
    "date": "string",
    "date-time": "string",
    "byte": "string",
    "binary": "string",
    "password": "string",
    "uuid": "string",
    "uri": "string",
    "email": "string",
}
# A value that is a type or format name between angle brackets ("<integer>", "<long>", "<dateTime>"), as an
# example generator writes where the schema gives no example (Postman's converter): a value of that type, in an
# example that may hold real values beside it (the brackets tell the placeholder from data).
_ANGLE_PLACEHOLDER = re.compile(r"<\s*([A-Za-z][\w-]*)\s*>")
_PLACEHOLDER_FORMATS = {"long": "integer", "datetime": "string"}
# A sketch's value for a schema that states no type (""), or the type null ("null"): no type of its own.
_UNTYPED = {"", "null"}
# What stands for each type name in a sketch, so that inference gives that type.
_STAND_INS: dict[str, Any] = {
    "string": "",
    "integer": 0,
    "number": 0.5,
    "boolean": True,
    "object": {},
    "array": [],
}


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
    value = _typed_placeholders(_without_placeholders(value))
    if _is_sketch(value):
        value = _stand_ins(value)
    schema = infer_schema(value)
    if stated:
        _restate(schema, stated)
    return schema


def placeholder_type(text: str) -> str | None:
    """The type a placeholder value names between angle brackets ("<long>": integer), else None."""
    match = _ANGLE_PLACEHOLDER.fullmatch(text.strip())
    if match is None:
        return None
    name = match.group(1).lower()
    if _TYPE_NAME.fullmatch(name):
        return name
    return _FORMAT_TYPES.get(name) or _PLACEHOLDER_FORMATS.get(name)


def _typed_placeholders(value: Any, depth: int = 0) -> Any:
    """The example with each angle-bracket placeholder ("<integer>") replaced by a value of its type."""
    if depth > _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        return {key: _typed_placeholders(child, depth + 1) for key, child in value.items()}
    if isinstance(value, list):
        return [_typed_placeholders(child, depth + 1) for child in value]
    if isinstance(value, str) and (type_name := placeholder_type(value)):
        stand_in = _STAND_INS[type_name]
        return stand_in.copy() if isinstance(stand_in, (dict, list)) else stand_in
    return value


def _restate(schema: Any, stated: dict[str, str], depth: int = 0) -> None:
    if depth > 16 or not isinstance(schema, dict):
        return
    for name, child in (schema.get("properties") or {}).items():
        if isinstance(child, dict):
            shown, says = child.get("type"), stated.get(name, child.get("type"))
            # A literal with a fraction (7.5) is no integer, whatever a schema elsewhere says.
            if shown in SCALARS and says != shown and (shown, says) != ("number", "integer"):
                child["type"] = stated[name]
                child.pop("format", None)
            _restate(child, stated, depth + 1)
    _restate(schema.get("items"), stated, depth + 1)


def _string_leaves(value: Any, depth: int = 0) -> list[str] | None:
    """The string values inside an example (None past the depth bound, which no sketch reaches)."""
    if depth > _MAX_DEPTH:
        return None
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    if children is None:
        return [value] if isinstance(value, str) else []
    out: list[str] = []
    for child in children:
        leaves = _string_leaves(child, depth + 1)
        if leaves is None:
            return None
        out.extend(leaves)
    return out


def _is_sketch(value: Any) -> bool:
    leaves = _string_leaves(value)
    if not leaves or not any(_TYPE_NAME.fullmatch(leaf.strip()) for leaf in leaves):
        return False
    return all(
        _TYPE_NAME.fullmatch(leaf.strip()) or leaf.strip() in _FORMAT_TYPES or leaf.strip() in _UNTYPED
        for leaf in leaves
    )


def _stand_ins(value: Any) -> Any:
    """The sketch with each type name replaced by a value of that type (depth already bounded)."""
    if isinstance(value, dict):
        return {key: _stand_ins(child) for key, child in value.items()}
    if isinstance(value, list):
        return [_stand_ins(child) for child in value]
    if isinstance(value, str):
        if value.strip() in _UNTYPED:
            return None  # a schema of no stated type ("", beside type names), or one stated null
        named = _TYPE_NAME.fullmatch(value.strip())
        type_name = named.group(1).lower() if named else _FORMAT_TYPES.get(value.strip())
        stand_in = _STAND_INS[type_name] if type_name else value
        return stand_in.copy() if isinstance(stand_in, (dict, list)) else stand_in
    return value


def _without_placeholders(value: Any, depth: int = 0) -> Any:
    """The example less the keys a generator writes for a map's entries ("additionalProperties": "string")."""
    if depth > _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        numbers = sorted(int(m.group(1)) for key in value if (m := _NUMBERED_ENTRY.fullmatch(str(key))))
        if len(value) >= 2 and numbers == list(range(1, len(value) + 1)):
            return {}  # "property1", "property2": a map's entries, no fields
        return {
            key: _without_placeholders(child, depth + 1)
            for key, child in value.items()
            if not _MAP_PLACEHOLDER.fullmatch(str(key))
        }
    if isinstance(value, list):
        return [_without_placeholders(child, depth + 1) for child in value]
    return value
