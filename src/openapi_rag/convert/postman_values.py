"""Small readers for Postman collection values that come in several shapes (v2.0 and v2.1)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.errors import ConvertError
from openapi_rag.model import Problem
from openapi_rag.spec.limits import DEFAULT_LIMITS, ReadLimits

# `{{name}}`: a Postman variable reference.
VARIABLE_RE = re.compile(r"\{\{\s*([^{}]+?)\s*\}\}")


@dataclass
class Context:
    """Where the conversion is (source file, item path) and what it found lossy on the way."""

    source: str | None = None
    problems: list[Problem] = field(default_factory=list)
    limits: ReadLimits = DEFAULT_LIMITS

    def warn(self, message: str, where: str | None = None) -> None:
        self.problems.append(Problem(message, where=where or None, file=self.source))

    def error(self, message: str, where: str | None = None) -> ConvertError:
        parts = [p for p in (self.source, where) if p]
        error = ConvertError(f"{': '.join(parts)}: {message}" if parts else message)
        # Same context attributes as SpecError, so callers can turn it into a Problem.
        error.file, error.where, error.reason = self.source, where, message  # type: ignore[attr-defined]
        return error


def text_of(description: Any) -> str:
    """A description is a string, `{content, type, version}`, or absent."""
    if description is None:
        return ""
    if isinstance(description, dict):
        return text_of(description.get("content"))
    return str(description).strip()


def key_values(value: Any, what: str, ctx: Context, where: str) -> list[dict[str, Any]]:
    """Headers, query and form fields: a list of `{key, value, disabled, description}`.

    v2.0 also allows headers as one string of `Key: value` lines.
    """
    if value is None:
        return []
    if isinstance(value, str):
        pairs = []
        for line in value.splitlines():
            key, sep, val = line.partition(":")
            if sep and key.strip():
                pairs.append({"key": key.strip(), "value": val.strip()})
        return pairs
    if not isinstance(value, list):
        raise ctx.error(f"{what} must be a list of key/value objects, got {type(value).__name__}", where)
    entries = []
    for entry in value:
        if not isinstance(entry, dict):
            raise ctx.error(f"{what} entry must be an object, got {type(entry).__name__}", where)
        if entry.get("key") in (None, ""):  # `?=x` without a name, or an empty row
            continue
        entries.append(entry)
    return entries


def header_value(headers: list[dict[str, Any]], name: str) -> str | None:
    """The value of the first enabled header called `name` (case-insensitive)."""
    for header in headers:
        if str(header["key"]).lower() == name.lower() and not header.get("disabled"):
            value = header.get("value")
            return str(value) if value is not None else None
    return None


def media_type_of(content_type: str | None) -> str | None:
    """`application/json; charset=utf-8` → `application/json`; variables and blanks → None."""
    if not content_type or VARIABLE_RE.search(content_type):
        return None
    media = content_type.split(";", 1)[0].strip().lower()
    return media if "/" in media else None


def variable_map(variables: Any) -> dict[str, dict[str, Any]]:
    """Collection or URL variables by name; v2.0 names them `id`, v2.1 `key`."""
    found: dict[str, dict[str, Any]] = {}
    if not isinstance(variables, list):
        return found
    for var in variables:
        if not isinstance(var, dict) or var.get("disabled"):
            continue
        name = var.get("key", var.get("id"))
        if name is not None and str(name) not in found:
            found[str(name)] = var
    return found


def example_text(value: Any) -> str | None:
    """A value usable as an example: present, not empty, not a `{{variable}}` placeholder."""
    if value is None or isinstance(value, (dict, list)):
        return None
    text = str(value)
    if not text or VARIABLE_RE.search(text):
        return None
    return text


def group_by_key(entries: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Fields by name, in first-seen order; a repeated name (`ids=1&ids=2`) is an array."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        groups.setdefault(str(entry["key"]), []).append(entry)
    return groups


def describe_entries(entries: list[dict[str, Any]]) -> str:
    return next((text_of(e.get("description")) for e in entries if text_of(e.get("description"))), "")


def all_disabled(entries: list[dict[str, Any]]) -> bool:
    return all(bool(e.get("disabled")) for e in entries)


def entries_example(entries: list[dict[str, Any]]) -> Any:
    """The example of a field group: a value, a list for repeated names, or None."""
    values = [example_text(e.get("value")) for e in entries if not e.get("disabled")]
    values = [v for v in values if v is not None]
    if not values:
        return None
    return values if len(entries) > 1 else values[0]


def field_parameters(entries: list[dict[str, Any]], location: str) -> list[dict[str, Any]]:
    """Query or header entries → optional parameters.

    Disabled entries are kept (they usually document optional parameters) and flagged with
    `x-postman-disabled: true`; a name given several times becomes an array parameter.
    """
    params = []
    for name, group in group_by_key(entries).items():
        param: dict[str, Any] = {"name": name, "in": location, "required": False}
        description = describe_entries(group)
        if description:
            param["description"] = description
        item = {"type": "string"}
        param["schema"] = {"type": "array", "items": item} if len(group) > 1 else item
        example = entries_example(group)
        if example is not None:
            param["example"] = example
        if all_disabled(group):
            param["x-postman-disabled"] = True
        params.append(param)
    return params
