"""`GeneratedCall`: a call as the issue fixes its JSON shape, and how it is rendered from field values."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from openapi_rag.generate.call.assign import Assignment

__all__ = ["GeneratedCall", "render_endpoint", "set_dotted"]

PATH_SAFE = "-_.~:@!$&'()*+,;="  # RFC 3986 pchar: what a path segment may hold unescaped


@dataclass
class GeneratedCall:
    """One generated API call.

    Attributes:
        operation: {"service", "method", "path"} of the chosen operation, or None when nothing
            matched well enough (`reason` says why).
        method: the HTTP method ("" without an operation).
        endpoint: the filled path with its query string.
        query, headers, body: the parameters sent (body None when the operation takes none).
        problems: what could not be filled or typed.
        candidates: the other operations considered, best first (`{"service", "method", "path", "score"}`).
        llm_tokens: {"prompt", "completion"} spent by LLM generators and policies.
        reason: why `operation` is None.
        execution: the outcome when the call was executed (`status`, `reason`, `attempts`).
    """

    operation: dict[str, str] | None
    method: str = ""
    endpoint: str = ""
    path: str = ""
    query: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    media_type: str | None = None
    problems: list[str] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    llm_tokens: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0})
    reason: str | None = None
    execution: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The issue's JSON shape (plus `reason` when there is no operation, `execution` when executed)."""
        data: dict[str, Any] = {
            "operation": self.operation,
            "method": self.method or None,
            "endpoint": self.endpoint or None,
            "query": self.query,
            "headers": self.headers,
            "body": self.body,
            "problems": list(self.problems),
            "candidates": list(self.candidates),
            "llm_tokens": dict(self.llm_tokens),
        }
        if self.operation is None:
            data["reason"] = self.reason
        if self.execution is not None:
            data["execution"] = self.execution
        return data

    def add_tokens(self, prompt: int, completion: int) -> None:
        self.llm_tokens = {
            "prompt": self.llm_tokens.get("prompt", 0) + prompt,
            "completion": self.llm_tokens.get("completion", 0) + completion,
        }


def query_string(query: dict[str, Any]) -> str:
    """`a=1&ids=x&ids=y`: lists as repeated keys (OpenAPI's default form style, explode true)."""
    pairs: list[tuple[str, str]] = []
    for name, value in query.items():
        for item in value if isinstance(value, list) else [value]:
            pairs.append((name, _text(item)))
    return urlencode(pairs, safe=",:")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_endpoint(
    path_template: str, path_values: dict[str, Any], query: dict[str, Any]
) -> tuple[str, str]:
    """(filled path, path with query string)."""
    path = path_template
    for name, value in path_values.items():
        path = path.replace("{" + name + "}", quote(_text(value), safe=PATH_SAFE))
    qs = query_string(query)
    return path, f"{path}?{qs}" if qs else path


def set_dotted(body: dict[str, Any], dotted: str, value: Any) -> None:
    """body["a"]["b"] = value for "a.b"."""
    parts = dotted.split(".")
    node = body
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value


def build_parts(assignments: list[Assignment]) -> tuple[dict[str, Any], dict[str, Any], dict[str, str], Any]:
    """(path values, query, headers, body) from the filled fields."""
    path: dict[str, Any] = {}
    query: dict[str, Any] = {}
    headers: dict[str, str] = {}
    body: Any = None
    for a in assignments:
        location, name = a.field.location, a.field.name
        if location == "path":
            path[name] = a.value
        elif location == "query":
            query[name] = a.value
        elif location == "header":
            headers[name] = _text(a.value)
        elif name == "":
            body = a.value
        else:
            body = body if isinstance(body, dict) else {}
            set_dotted(body, name, a.value)
    return path, query, headers, body
