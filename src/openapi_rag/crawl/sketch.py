"""A service sketch: the few facts of a needed service an LLM is asked for, turned into OpenAPI here.

A small local model (SmolLM2-135M, the floor) does not write a valid OpenAPI document: asked for
YAML it wrote prose. Asked for a small JSON object under a JSON-schema grammar (llama.cpp builds
one from `response_format`), it writes one that parses every time, and the document is then
built by rules, so it is valid by construction. A strong model gets the same schema as structured
output (or in the prompt, where its server has none); the sketch bounds every list, so a looping
model cannot run past the token limit and leave broken JSON.
"""

from __future__ import annotations

import re
from typing import Any

_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"]
_TYPES = ["string", "integer", "number", "boolean", "array", "object"]
_NAME = {"type": "string", "minLength": 1, "maxLength": 40}
_FIELD = {
    "type": "object",
    "properties": {
        "name": _NAME,
        "type": {"enum": _TYPES},
        "description": {"type": "string", "maxLength": 120},
    },
    "required": ["name", "type"],
}
SKETCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 1, "maxLength": 80},
        "description": {"type": "string", "maxLength": 300},
        "operations": {
            "type": "array",
            "minItems": 1,
            "maxItems": 8,
            "items": {
                "type": "object",
                "properties": {
                    "method": {"enum": _METHODS},
                    "path": {"type": "string", "minLength": 1, "maxLength": 80},
                    "summary": {"type": "string", "minLength": 1, "maxLength": 120},
                    "parameters": {
                        "type": "array",
                        "maxItems": 6,
                        "items": {
                            "type": "object",
                            "properties": {
                                "name": _NAME,
                                "in": {"enum": ["path", "query", "header"]},
                                "type": {"enum": _TYPES[:4]},
                                "required": {"type": "boolean"},
                            },
                            "required": ["name", "in", "type"],
                        },
                    },
                    "body_fields": {"type": "array", "maxItems": 8, "items": _FIELD},
                    "response_fields": {"type": "array", "maxItems": 10, "items": _FIELD},
                },
                "required": ["method", "path", "summary"],
            },
        },
    },
    "required": ["title", "operations"],
}
SKETCH_PROMPT = (
    "Describe the API of the service as one JSON object: title, description, and operations (1 to 8), "
    'each {"method": GET|POST|PUT|PATCH|DELETE, "path": "/things/{id}", "summary": "...", '
    '"parameters": [{"name", "in": path|query|header, "type", "required"}], '
    '"body_fields": [{"name", "type", "description"}], "response_fields": [{"name", "type", "description"}]}. '
    "Answer with the JSON object only."
)
_PATH_PARAM = re.compile(r"{([^{}/]+)}")
_SEGMENT = re.compile(r"[^A-Za-z0-9_.~{}-]+")


def is_sketch(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("operations"), list) and "paths" not in data


def sketch_problems(sketch: dict[str, Any]) -> list[str]:
    """What keeps a sketch from becoming a useful document (told to the model for its next try)."""
    usable = [op for op in sketch.get("operations") or [] if _operation_key(op) is not None]
    if not usable:
        return ["the sketch names no operation with a method (GET, POST, ...) and a path"]
    return []


def sketch_to_openapi(sketch: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI 3.0.3 document from a sketch: every operation keeps its method and path (cleaned to a
    template), path parameters follow the template, and odd values fall back to strings."""
    paths: dict[str, dict[str, Any]] = {}
    for op in sketch.get("operations") or []:
        key = _operation_key(op)
        if key is None:
            continue
        method, path = key
        item = paths.setdefault(path, {})
        if method in item:
            continue  # the first of two sketches of one operation
        item[method] = _operation(op, path)
    return {
        "openapi": "3.0.3",
        "info": {
            "title": _text(sketch.get("title"), 80) or "Drafted service",
            "version": "0.1.0-draft",
            "description": _text(sketch.get("description"), 300),
        },
        "paths": paths,
    }


def _operation_key(op: Any) -> tuple[str, str] | None:
    if not isinstance(op, dict):
        return None
    method = str(op.get("method") or "").upper()
    raw = str(op.get("path") or "").strip()
    if method not in _METHODS or not raw:
        return None
    segments = [_SEGMENT.sub("-", s).strip("-") for s in raw.split("/")]
    path = "/" + "/".join(s for s in segments if s)
    return method.lower(), path


def _operation(op: dict[str, Any], path: str) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": _text(op.get("summary"), 120) or f"{op['method']} {path}"}
    params: dict[tuple[str, str], dict[str, Any]] = {}
    in_path = _PATH_PARAM.findall(path)
    for name in in_path:
        params[(name, "path")] = {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
    for raw in op.get("parameters") or []:
        if not isinstance(raw, dict) or not _text(raw.get("name"), 40):
            continue
        name = _text(raw.get("name"), 40)
        where = raw.get("in") if raw.get("in") in ("path", "query", "header") else "query"
        if where == "path" and name not in in_path:
            where = "query"  # a path parameter the template does not hold would be invalid
        param = params.setdefault((name, where), {"name": name, "in": where, "schema": {"type": "string"}})
        param["schema"] = _schema(raw.get("type"))
        param["required"] = True if where == "path" else bool(raw.get("required"))
    if params:
        operation["parameters"] = list(params.values())
    body = _object(op.get("body_fields"))
    if body and op["method"].upper() in ("POST", "PUT", "PATCH"):
        operation["requestBody"] = {"content": {"application/json": {"schema": body}}}
    response: dict[str, Any] = {"description": "Success"}
    returned = _object(op.get("response_fields"))
    if returned:
        response["content"] = {"application/json": {"schema": returned}}
    operation["responses"] = {"201" if op["method"].upper() == "POST" else "200": response}
    return operation


def _object(fields: Any) -> dict[str, Any] | None:
    properties: dict[str, Any] = {}
    for field in fields if isinstance(fields, list) else []:
        name = _text(field.get("name"), 40) if isinstance(field, dict) else ""
        if name and name not in properties:
            schema = _schema(field.get("type"))
            if _text(field.get("description"), 120):
                schema["description"] = _text(field.get("description"), 120)
            properties[name] = schema
    return {"type": "object", "properties": properties} if properties else None


def _schema(type_: Any) -> dict[str, Any]:
    type_ = type_ if type_ in _TYPES else "string"
    return {"type": "array", "items": {"type": "string"}} if type_ == "array" else {"type": type_}


def _text(value: Any, limit: int) -> str:
    return " ".join(str(value).split())[:limit] if isinstance(value, str | int | float) else ""
