"""The fields a call to one operation can fill: path, query and header parameters, and body fields.

Schemas come resolved (named schemas inlined to a bounded depth, cycles cut), and the spelling
quirks real descriptions carry (`required: "true"` as a string, Swagger's `type: file`) are read as
meant. Body fields are the request body's properties, nested objects flattened to dotted names two
levels down: deep enough for what a request states in one sentence, bounded for hostile schemas.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openapi_rag.generate.call.values import words
from openapi_rag.model import Operation, Service
from openapi_rag.refs.inline import inline_schemas

__all__ = ["Assignment", "Field", "body_schema", "operation_fields", "truthy"]

MAX_BODY_DEPTH = 2  # dotted names at most this deep ("contact_info.email")
MAX_FIELDS = 200  # a hostile body schema never makes assignment quadratic in thousands of fields
SCHEMA_DEPTH = 4
JSON_TYPES = ("application/json", "application/*+json", "*/*")


def truthy(value: Any) -> bool:
    """`True` or the string "true" (YAML-1.1-era specs write booleans as strings)."""
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


@dataclass
class Field:
    """One fillable place of a call.

    Attributes:
        location: path | query | header | body.
        name: the parameter name, or the body field's dotted path.
        schema: its JSON schema (resolved).
        required: a call without it is invalid.
        description: its description, for matching words of the request.
    """

    location: str
    name: str
    schema: dict[str, Any]
    required: bool = False
    description: str = ""
    name_words: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not self.name_words:
            self.name_words = tuple(words(self.name))

    @property
    def type(self) -> str:
        kind = self.schema.get("type")
        if isinstance(kind, list):  # OpenAPI 3.1: ["string", "null"]
            kind = next((k for k in kind if k != "null"), "string")
        if kind is None:
            if "properties" in self.schema:
                return "object"
            if "items" in self.schema:
                return "array"
            if "enum" in self.schema and self.schema["enum"]:
                first = self.schema["enum"][0]
                return "integer" if isinstance(first, int) else "string"
        return str(kind or "string")

    @property
    def item_schema(self) -> dict[str, Any]:
        items = self.schema.get("items")
        return items if isinstance(items, dict) else {}

    @property
    def enum(self) -> list[Any]:
        values = self.schema.get("enum") or self.item_schema.get("enum") or []
        return [v for v in values if v is not None] if isinstance(values, list) else []


@dataclass
class Assignment:
    """A field and what fills it: the typed value, the request's values it came from, and how sure."""

    field: Field
    value: Any
    sources: tuple[Any, ...] = ()  # `values.Value`s
    score: float = 0.0
    placeholder: bool = False


def _merged(schema: Any) -> dict[str, Any]:
    """One object schema out of `allOf` parts (properties and required merged); others unchanged."""
    if not isinstance(schema, dict):
        return {}
    parts = schema.get("allOf")
    if not isinstance(parts, list):
        for key in ("oneOf", "anyOf"):  # a request names one variant; the first is the usual one
            options = schema.get(key)
            if isinstance(options, list) and options and "properties" not in schema:
                return _merged(options[0])
        return schema
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    props: dict[str, Any] = dict(merged.get("properties") or {})
    required: list[str] = (
        list(merged.get("required") or []) if isinstance(merged.get("required"), list) else []
    )
    for part in parts:
        part = _merged(part)
        props.update(part.get("properties") or {})
        if isinstance(part.get("required"), list):
            required += part["required"]
        for key in ("type", "description"):
            merged.setdefault(key, part.get(key))
    merged["properties"] = props
    merged["required"] = required
    return merged


def body_schema(op: Operation, service: Service) -> tuple[dict[str, Any] | None, str | None, bool]:
    """(schema, media type, required) of the operation's request body, schemas inlined."""
    body = op.request_body
    if not isinstance(body, dict):
        return None, None, False
    content = body.get("content") or {}
    if not isinstance(content, dict) or not content:
        return None, None, False
    media = next((m for m in JSON_TYPES if m in content), None) or next(
        (m for m in content if "json" in m), next(iter(content))
    )
    media_obj = content.get(media) or {}
    schema = inline_schemas(media_obj.get("schema") or {}, service.schemas, SCHEMA_DEPTH)
    return _merged(schema), media, truthy(body.get("required"))


def _body_fields(schema: dict[str, Any], prefix: str, required: bool, depth: int, out: list[Field]) -> None:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return
    needed = set(schema.get("required") or []) if isinstance(schema.get("required"), list) else set()
    for name, sub in props.items():
        if len(out) >= MAX_FIELDS:
            return
        sub = _merged(sub)
        if truthy(sub.get("readOnly")):
            continue  # the server writes it; a request never sends it
        dotted = f"{prefix}{name}"
        is_required = required and name in needed
        if "properties" in sub and depth < MAX_BODY_DEPTH:
            _body_fields(sub, f"{dotted}.", is_required, depth + 1, out)
            continue
        out.append(
            Field(
                location="body",
                name=dotted,
                schema=sub,
                required=is_required,
                description=str(sub.get("description") or sub.get("title") or ""),
            )
        )


def operation_fields(op: Operation, service: Service) -> tuple[list[Field], str | None]:
    """Every fillable field of `op` (parameters first, then body fields) and the body's media type."""
    fields: list[Field] = []
    for param in inline_schemas(op.raw.get("parameters") or [], service.schemas, SCHEMA_DEPTH):
        if not isinstance(param, dict) or param.get("in") not in ("path", "query", "header"):
            continue
        name = str(param.get("name") or "")
        if not name or (
            param["in"] == "header" and name.lower() in ("authorization", "content-type", "accept")
        ):
            continue
        schema = param.get("schema")
        if not isinstance(schema, dict):  # OpenAPI `content` parameters; Swagger 2 leftovers
            schema = {k: param[k] for k in ("type", "format", "enum", "items") if k in param} or {}
        fields.append(
            Field(
                location=param["in"],
                name=name,
                schema=_merged(schema),
                required=param["in"] == "path" or truthy(param.get("required")),
                description=str(param.get("description") or schema.get("description") or ""),
            )
        )
    schema, media, required = body_schema(op, service)
    if schema:
        if "properties" in schema:
            _body_fields(schema, "", True, 1, fields)
        elif schema.get("type") == "array" or "items" in schema:
            # A body that is a bare list: one field holding the list, named after the operation's noun.
            fields.append(Field("body", "", schema, required, str(schema.get("description") or "")))
    return fields, media
