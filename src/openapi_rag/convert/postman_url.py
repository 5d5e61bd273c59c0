"""Postman request URLs → OpenAPI servers, path templates and path/query parameters.

A URL is a string (`{{baseUrl}}/users/:id?limit=10`) or an object with `raw`, `protocol`, `host`,
`port`, `path`, `query` and `variable`. The part before the path (`{{baseUrl}}`,
`https://api.example.com`) becomes a server; `:id` and `{{id}}` in the path become `{id}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote_plus

from openapi_rag.convert.postman_values import (
    VARIABLE_RE,
    Context,
    example_text,
    key_values,
    text_of,
    variable_map,
)
from openapi_rag.spec.limits import DEFAULT_LIMITS, ReadLimits

_MAX_CHARS = DEFAULT_LIMITS.max_variable_chars

_SCHEME_RE = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*|\{\{[^{}]+\}\})://")
# Postman variable types (`string`, `number`, `boolean`, `any`, ...) → schema type.
_VARIABLE_TYPES = {"number": "number", "boolean": "boolean", "integer": "integer"}
# An undefined variable standing first in a server URL holds scheme and host (or, before `://`,
# the scheme): give it a usable default. Elsewhere (`https://{{region}}.example.com`) the default
# is the variable's name, a visible placeholder.
_LEADING_DEFAULT = "http://localhost"


@dataclass
class RequestUrl:
    base: str | None  # scheme + host + port as written (`{{baseUrl}}`), None for a relative URL
    segments: list[str]
    query: list[dict[str, Any]]
    variables: dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Server:
    url: str
    variables: tuple[tuple[str, str, str], ...] = field(default=())  # (name, default, description)

    def to_openapi(self) -> dict[str, Any]:
        server: dict[str, Any] = {"url": self.url}
        if self.variables:
            server["variables"] = {
                name: {"default": default, "description": description}
                for name, default, description in self.variables
            }
        return server


def read_url(url: Any, ctx: Context, where: str) -> RequestUrl:
    """Read a v2.0/v2.1 URL (string or object) into its parts."""
    if isinstance(url, str):
        return _parse_raw(url, ctx, where)
    if not isinstance(url, dict):
        raise ctx.error(f"request url must be a string or an object, got {type(url).__name__}", where)
    raw = url.get("raw")
    if url.get("host") is None and url.get("path") is None:
        parsed = _parse_raw(raw if isinstance(raw, str) else "", ctx, where)
    else:
        parsed = RequestUrl(_base_of(url, ctx, where), _segments_of(url.get("path"), ctx, where), [], {})
    if "query" in url:
        parsed.query = key_values(url.get("query"), "url.query", ctx, where)
    parsed.variables = variable_map(url.get("variable"))
    return parsed


def _parse_raw(raw: str, ctx: Context, where: str) -> RequestUrl:
    # Same split as Postman: [protocol://]host[:port]/path?query#hash; no protocol and no leading
    # slash means the first part is the host (`{{baseUrl}}/users`).
    text = raw.strip().split("#", 1)[0]
    text, _, query = text.partition("?")
    scheme = _SCHEME_RE.match(text)
    rest = text[scheme.end() :] if scheme else text
    base: str | None = None
    if scheme or not rest.startswith("/"):
        host, _, rest = rest.partition("/")
        host = host.rsplit("@", 1)[-1]  # drop user:password@
        base = (scheme.group(0) if scheme else "") + host if host else None
    pairs = []
    for part in query.split("&"):
        if part:
            key, eq, value = part.partition("=")
            pairs.append({"key": unquote_plus(key), "value": unquote_plus(value) if eq else None})
    return RequestUrl(base, rest.split("/"), key_values(pairs, "url.query", ctx, where), {})


def _base_of(url: dict[str, Any], ctx: Context, where: str) -> str | None:
    host = url.get("host")
    if isinstance(host, list):
        host = ".".join(str(part) for part in host)
    elif host is not None and not isinstance(host, str):
        raise ctx.error(f"url.host must be a string or a list, got {type(host).__name__}", where)
    if not host:
        return None
    protocol = url.get("protocol")
    base = f"{protocol}://{host}" if protocol else host
    port = url.get("port")
    return f"{base}:{port}" if port not in (None, "") else base


def _segments_of(path: Any, ctx: Context, where: str) -> list[str]:
    if path is None:
        return []
    if isinstance(path, str):
        return path.split("/")
    if not isinstance(path, list):
        raise ctx.error(f"url.path must be a string or a list, got {type(path).__name__}", where)
    # v2.1 also allows `{type, value}` objects as segments.
    return [str(s.get("value", "")) if isinstance(s, dict) else str(s) for s in path]


def build_server(
    base: str, collection_vars: dict[str, dict[str, Any]], *, max_chars: int = _MAX_CHARS
) -> Server | None:
    """`{{baseUrl}}` → the variable's value when the collection defines it, else `{baseUrl}` with a
    server variable; `api.example.com` → `http://api.example.com` (Postman's default scheme)."""
    resolved = resolve_variables(base, collection_vars, max_chars=max_chars).rstrip("/")
    if not resolved:
        return None
    variables: dict[str, tuple[str, str, str]] = {}

    def to_template(match: re.Match[str]) -> str:
        name = match.group(1)
        if match.start() == 0:
            scheme_only = resolved.startswith("://", match.end())
            default = "https" if scheme_only else _LEADING_DEFAULT
        else:
            default = name  # a visible placeholder
        description = f"Postman variable {{{{{name}}}}}, not defined in the collection"
        variables.setdefault(name, (name, default, description))
        return "{" + name + "}"

    url = VARIABLE_RE.sub(to_template, resolved)
    if not _SCHEME_RE.match(url) and not url.startswith(("/", "{")):
        url = "http://" + url
    return Server(url, tuple(variables.values()))


def resolve_variables(
    text: str, variables: dict[str, dict[str, Any]], depth: int = 0, *, max_chars: int = _MAX_CHARS
) -> str:
    """Substitute defined variables, following variables inside values a few levels deep.

    What substitution adds is bounded by `max_chars` (counted as it is built, so a variable that
    names itself twenty times fails at once instead of building gigabytes).

    Raises:
        LimitExceeded: the substituted values exceed `max_chars` (`ReadLimits.max_variable_chars`).
    """
    added = 0

    def substitute(match: re.Match[str]) -> str:
        nonlocal added
        var = variables.get(match.group(1))
        value = var.get("value") if var else None
        if depth >= 5 or value is None or value == "" or isinstance(value, (dict, list)):
            return match.group(0)
        piece = resolve_variables(str(value), variables, depth + 1, max_chars=max_chars)
        added += len(piece)
        if added > max_chars:
            raise ReadLimits(max_variable_chars=max_chars).exceeded(
                "max_variable_chars",
                f"variable {match.group(0)} expands to more than {max_chars:,} characters",
            )
        return piece

    return VARIABLE_RE.sub(substitute, text)


def build_path(
    segments: list[str],
    url_vars: dict[str, dict[str, Any]],
    collection_vars: dict[str, dict[str, Any]],
) -> tuple[str, list[dict[str, Any]]]:
    """Postman path segments → an OpenAPI path template and its path parameters.

    `:id` (a whole segment) and `{{id}}` (anywhere in a segment) become `{id}`. Descriptions and
    examples come from the URL's `variable` list, then from the collection's variables.
    Empty segments (`//`, a trailing `/`) are dropped.
    """
    parts: list[str] = []
    params: dict[str, dict[str, Any]] = {}

    def add(name: str) -> str:
        if name not in params:
            params[name] = _path_parameter(name, url_vars.get(name) or collection_vars.get(name))
        return "{" + name + "}"

    for segment in segments:
        if not segment:
            continue
        if segment.startswith(":") and len(segment) > 1:
            parts.append(add(segment[1:]))
        else:
            parts.append(VARIABLE_RE.sub(lambda m: add(m.group(1)), segment))
    return "/" + "/".join(parts), list(params.values())


def _path_parameter(name: str, var: dict[str, Any] | None) -> dict[str, Any]:
    var = var or {}
    param: dict[str, Any] = {"name": name, "in": "path", "required": True}
    description = text_of(var.get("description"))
    if description:
        param["description"] = description
    param["schema"] = {"type": _VARIABLE_TYPES.get(str(var.get("type")), "string")}
    example = example_text(var.get("value"))
    if example is not None:
        param["example"] = example
    return param
