"""Postman request bodies and saved responses → OpenAPI media types with schema and example."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from openapi_rag.convert.infer import infer_schema
from openapi_rag.convert.postman_values import (
    Context,
    all_disabled,
    describe_entries,
    entries_example,
    group_by_key,
    header_value,
    key_values,
    media_type_of,
)

# `options.raw.language` and `_postman_previewlanguage` → media type.
_LANGUAGES = {
    "json": "application/json",
    "xml": "application/xml",
    "html": "text/html",
    "javascript": "application/javascript",
    "text": "text/plain",
}
# An unquoted `{{var}}` in value position (`"age": {{age}}`), which Postman sends but JSON rejects.
_BARE_VARIABLE = re.compile(r"([:\[,]\s*)(\{\{[^{}]+\}\})")
_PHRASES = {status.phrase.lower(): status.value for status in HTTPStatus}


@dataclass
class Content:
    """One media type of a body: schema, an optional example and (form data) part encodings."""

    media_type: str
    schema: dict[str, Any]
    example: Any = None
    has_example: bool = False
    encoding: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class SavedResponse:
    code: str  # "200", ..., or "default"
    name: str
    content: Content | None


def is_json(media_type: str) -> bool:
    return media_type == "application/json" or media_type.endswith("+json")


def parse_json_example(text: str) -> tuple[bool, Any]:
    """Parse a JSON body as Postman users write them: `{{var}}` placeholders and comments allowed."""
    try:
        return True, json.loads(text)
    except ValueError:
        pass
    try:
        return True, json.loads(_BARE_VARIABLE.sub(r'\1"\2"', _strip_comments(text)))
    except ValueError:
        return False, None


def _strip_comments(text: str) -> str:
    out: list[str] = []
    i, n, in_string = 0, len(text), False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif ch == '"':
                in_string = False
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            in_string = ch == '"'
            out.append(ch)
        i += 1
    return "".join(out)


def text_content(media_type: str | None, text: str, ctx: Context, where: str, what: str) -> Content:
    """A body given as text: JSON media types get a parsed example and an inferred schema.

    Without a media type, a body that parses as a JSON object or array is JSON, anything else text.
    """
    if media_type is None:
        ok, value = parse_json_example(text)
        if ok and isinstance(value, (dict, list)):
            return Content("application/json", infer_schema(value), value, True)
        media_type = "text/plain"
    elif is_json(media_type):
        ok, value = parse_json_example(text)
        if ok:
            return Content(media_type, infer_schema(value), value, True)
        ctx.warn(f"{what} is declared as JSON but does not parse; kept without a schema", where)
        return Content(media_type, {})
    return Content(media_type, {"type": "string"}, text, True)


def request_content(body: Any, headers: list[dict[str, Any]], ctx: Context, where: str) -> Content | None:
    """A Postman request `body` → the request body's content, or None when there is none."""
    if body is None:
        return None
    if not isinstance(body, dict):
        raise ctx.error(f"request body must be an object, got {type(body).__name__}", where)
    if body.get("disabled"):
        return None
    mode = body.get("mode")
    declared = media_type_of(header_value(headers, "Content-Type"))
    if mode == "raw":
        raw = body.get("raw")
        if not isinstance(raw, str) or not raw.strip():
            return None
        options = body.get("options")
        raw_options = options.get("raw") if isinstance(options, dict) else None
        language = raw_options.get("language") if isinstance(raw_options, dict) else None
        media_type = declared or _LANGUAGES.get(str(language))
        return text_content(media_type, raw, ctx, where, "request body")
    if mode in ("urlencoded", "formdata"):
        fields = key_values(body.get(mode), f"body.{mode}", ctx, where)
        if not fields:
            return None
        default = "application/x-www-form-urlencoded" if mode == "urlencoded" else "multipart/form-data"
        return _form_content(declared or default, fields, files=mode == "formdata")
    if mode == "file":
        return Content(declared or "application/octet-stream", {"type": "string", "format": "binary"})
    if mode == "graphql":
        return _graphql_content(body.get("graphql"), ctx, where)
    if mode is not None:
        ctx.warn(f"request body mode {mode!r} is not supported; body left out", where)
    return None


def _form_content(media_type: str, fields: list[dict[str, Any]], *, files: bool) -> Content:
    # Disabled fields stay in the schema (they document optional fields), flagged, out of the example.
    properties: dict[str, Any] = {}
    example: dict[str, Any] = {}
    encoding: dict[str, dict[str, Any]] = {}
    for name, entries in group_by_key(fields).items():
        is_file = files and any(e.get("type") == "file" for e in entries)
        item: dict[str, Any] = {"type": "string", "format": "binary"} if is_file else {"type": "string"}
        schema: dict[str, Any] = {"type": "array", "items": item} if len(entries) > 1 else dict(item)
        description = describe_entries(entries)
        if description:
            schema["description"] = description
        if all_disabled(entries):
            schema["x-postman-disabled"] = True
        properties[name] = schema
        value = None if is_file else entries_example(entries)
        if value is not None:
            example[name] = value
        part_type = next((e["contentType"] for e in entries if e.get("contentType")), None)
        if files and part_type:
            encoding[name] = {"contentType": str(part_type)}
    return Content(media_type, {"type": "object", "properties": properties}, example, bool(example), encoding)


def _graphql_content(graphql: Any, ctx: Context, where: str) -> Content | None:
    if not isinstance(graphql, dict) or not str(graphql.get("query") or "").strip():
        return None
    example: dict[str, Any] = {"query": str(graphql["query"])}
    variables = graphql.get("variables")
    if isinstance(variables, str) and variables.strip():
        ok, parsed = parse_json_example(variables)
        if not ok:
            ctx.warn("graphql variables do not parse as JSON; kept as text", where)
        example["variables"] = parsed if ok else variables
    elif isinstance(variables, dict):
        example["variables"] = variables
    return Content("application/json", infer_schema(example), example, True)


def saved_response(response: Any, ctx: Context, where: str) -> SavedResponse:
    """One saved example response → status code, name and content."""
    if not isinstance(response, dict):
        raise ctx.error(f"saved response must be an object, got {type(response).__name__}", where)
    name = str(response.get("name") or "").strip()
    code = _status_code(response.get("code"), response.get("status"))
    headers = key_values(response.get("header"), "response header", ctx, where)
    body = response.get("body")
    content = None
    if isinstance(body, str) and body.strip():
        language = _LANGUAGES.get(str(response.get("_postman_previewlanguage")))
        media_type = media_type_of(header_value(headers, "Content-Type")) or language
        label = f"saved response {name!r}" if name else "saved response"
        content = text_content(media_type, body, ctx, where, label)
    return SavedResponse(code, name, content)


def _status_code(code: Any, status: Any) -> str:
    if isinstance(code, str) and code.strip().isdigit():
        code = int(code)
    if isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599:
        return str(code)
    phrase = _PHRASES.get(str(status or "").strip().lower())
    return str(phrase) if phrase else "default"
