"""The operation as an LLM should read it: sized to a token budget, with a note on what was left out.

`resolved_operation` (`inline.py`) expands every schema to a depth limit; on a large API that is far
too much for a prompt (Stripe-style request bodies reach megabytes at depth 3). `operation_view`
walks the same operation once with limits, so its cost is bounded by what it returns:

- schema references expanded to `depth` levels, cycles marked `{"x-cycle": name}`, deeper ones
  `{"x-ref": name}` (the reader can ask for more depth);
- success responses only unless `errors=True` (error responses of an API are mostly alike);
- `example`/`examples` dropped unless `examples=True`; vendor extensions (`x-*`) dropped;
- then, until the JSON fits `max_tokens`, progressively tighter limits: shorter descriptions,
  fewer nesting levels of inline objects, fewer properties per object, fewer enum values.

The result carries `view`: its token count, the budget, and `left_out`, one line per kind of thing
that was cut, so an agent knows what to ask for next.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openapi_rag.model import Operation, Schema, Service
from openapi_rag.refs.inline import CYCLE, DEPTH_LIMIT, ref_name

DEFAULT_MAX_TOKENS = 3000
DEFAULT_DEPTH = 3
# Counted with OpenAI's cl100k_base: the encoding of the models most agents run on.
TOKENIZER = "cl100k_base"
# Hard ceiling on nodes one view visits, whatever the limits: hostile specs cannot make it loop long.
MAX_NODES = 50_000
OMITTED = "x-omitted"
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_CHILDREN = ("items", "additionalProperties", "not", "contains", "propertyNames")
_EXAMPLE_KEYS = ("example", "examples", "x-example", "x-examples")


@dataclass(frozen=True)
class Limits:
    """One rung of the ladder: how much detail a view keeps (None: no limit)."""

    depth: int
    description_chars: int | None = None
    nesting: int | None = None  # object/array levels inside one schema
    properties: int | None = None  # per object
    enum_values: int | None = None


def _ladder(depth: int) -> list[Limits]:
    """From the full view at `depth` to the tightest; the first that fits the budget wins."""
    rungs = [
        Limits(depth),
        Limits(depth, description_chars=300, enum_values=30),
        Limits(min(depth, 2), description_chars=200, nesting=5, properties=60, enum_values=20),
        Limits(min(depth, 2), description_chars=120, nesting=3, properties=40, enum_values=12),
        Limits(min(depth, 1), description_chars=100, nesting=2, properties=25, enum_values=8),
        Limits(min(depth, 1), description_chars=80, nesting=1, properties=15, enum_values=5),
        Limits(0, description_chars=60, nesting=1, properties=10, enum_values=5),
    ]
    return [rung for i, rung in enumerate(rungs) if i == 0 or rung != rungs[i - 1]]


class _Walk:
    """One pass over an operation under fixed limits, counting what it leaves out."""

    def __init__(self, schemas: Mapping[str, Schema], limits: Limits, *, examples: bool):
        self.schemas = schemas
        self.limits = limits
        self.examples = examples
        self.nodes = 0
        self.cut: dict[str, int] = {}

    def _count(self, what: str, n: int = 1) -> None:
        self.cut[what] = self.cut.get(what, 0) + n

    def _text(self, value: Any) -> Any:
        limit = self.limits.description_chars
        if isinstance(value, str) and limit is not None and len(value) > limit:
            self._count("descriptions shortened")
            return value[:limit].rstrip() + "…"
        return value

    def _skip_key(self, key: str) -> bool:
        if key in _EXAMPLE_KEYS and not self.examples:
            self._count("examples")
            return True
        if key.startswith("x-") and key not in (CYCLE, DEPTH_LIMIT, OMITTED):
            self._count("vendor extensions (x-*)")
            return True
        return False

    def plain(self, node: Any) -> Any:
        """Anything outside a schema (parameters, bodies, responses): `schema` keys switch to `schema`."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self._count("parts beyond the size limit")
            return {OMITTED: "size limit"}
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in node.items():
                if self._skip_key(key):
                    continue
                if key == "schema":
                    out[key] = self.schema(value, level=0, depth=self.limits.depth, stack=())
                elif key == "description":
                    out[key] = self._text(value)
                else:
                    out[key] = self.plain(value)
            return out
        if isinstance(node, list):
            return [self.plain(v) for v in node]
        return node

    def schema(self, node: Any, *, level: int, depth: int, stack: tuple[str, ...]) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            self._count("parts beyond the size limit")
            return {OMITTED: "size limit"}
        if isinstance(node, list):
            return [self.schema(v, level=level, depth=depth, stack=stack) for v in node]
        if not isinstance(node, dict):
            return node
        name = ref_name(node)
        if name is not None and name in self.schemas:
            if name in stack:
                return {CYCLE: name}
            if depth <= 0:
                self._count("schemas beyond the reference depth (x-ref)")
                return {DEPTH_LIMIT: name}
            body = self.schema(self.schemas[name].schema, level=level, depth=depth - 1, stack=(*stack, name))
            return {"title": name, **body} if isinstance(body, dict) and "title" not in body else body
        nesting = self.limits.nesting
        if nesting is not None and level > nesting and _is_container(node):
            self._count("nested objects (x-omitted)")
            return _summary(node)
        out: dict[str, Any] = {}
        for key, value in node.items():
            if self._skip_key(key):
                continue
            if key == "properties" and isinstance(value, dict):
                out[key] = self._properties(value, level=level, depth=depth, stack=stack)
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                out[key] = [self.schema(v, level=level, depth=depth, stack=stack) for v in value]
            elif key in _SCHEMA_CHILDREN:
                out[key] = self.schema(value, level=level + 1, depth=depth, stack=stack)
            elif key == "description":
                out[key] = self._text(value)
            elif key == "enum" and isinstance(value, list):
                out[key] = self._enum(value)
            else:
                out[key] = value
        return out

    def _properties(
        self, properties: dict[str, Any], *, level: int, depth: int, stack: tuple[str, ...]
    ) -> dict[str, Any]:
        names = list(properties)
        cap = self.limits.properties
        kept = names if cap is None else names[:cap]
        out = {n: self.schema(properties[n], level=level + 1, depth=depth, stack=stack) for n in kept}
        if len(kept) < len(names):
            self._count("properties", len(names) - len(kept))
            out[OMITTED] = f"{len(names) - len(kept)} more properties: {', '.join(names[len(kept) :][:20])}"
        return out

    def _enum(self, values: list[Any]) -> list[Any]:
        cap = self.limits.enum_values
        if cap is None or len(values) <= cap:
            return values
        self._count("enum values", len(values) - cap)
        return [*values[:cap], f"… {len(values) - cap} more"]


def _is_container(node: dict[str, Any]) -> bool:
    return any(key in node for key in ("properties", "items", *_SCHEMA_LISTS, "additionalProperties"))


def _summary(node: dict[str, Any]) -> dict[str, Any]:
    """A one-line stand-in for a schema nested too deep to show."""
    out: dict[str, Any] = {k: node[k] for k in ("type", "title") if k in node and isinstance(node[k], str)}
    properties = node.get("properties")
    if isinstance(properties, dict):
        out[OMITTED] = f"{len(properties)} properties: {', '.join(list(properties)[:12])}"
    else:
        out[OMITTED] = "nested schema"
    return out


def _is_error(status: str) -> bool:
    return status[:1] in ("4", "5") or status == "default"


def _shell(op: Operation, service: Service, *, errors: bool) -> tuple[dict[str, Any], list[str]]:
    """The operation object before schemas are walked, and the error statuses it leaves out."""
    raw = dict(op.raw)
    dropped: list[str] = []
    responses = raw.get("responses")
    if isinstance(responses, dict) and not errors:
        kept = {code: r for code, r in responses.items() if not _is_error(str(code))}
        if kept:  # an operation documenting only errors keeps them: they are all it says
            dropped = [str(code) for code in responses if str(code) not in {str(c) for c in kept}]
            raw["responses"] = kept
    out: dict[str, Any] = {"service": service.id, "id": op.id, "method": op.method, "path": op.path}
    out.update(raw)
    if op.security is None and service.security:
        out["security"] = service.security
    return out, dropped


def operation_view(
    op: Operation,
    service: Service,
    *,
    depth: int = DEFAULT_DEPTH,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    errors: bool = False,
    examples: bool = False,
) -> dict[str, Any]:
    """The operation with schemas resolved, sized to `max_tokens` (None: no budget).

    Args:
        op, service: the operation and the service holding its schemas.
        depth: schema references expanded along any path (the view may use fewer to fit).
        max_tokens: budget in cl100k_base tokens of the compact JSON; None keeps every detail.
        errors: include 4xx/5xx/default responses.
        examples: include `example`/`examples` values.

    Returns:
        The operation object plus `view`: {"tokens", "max_tokens", "depth", "left_out": [...]}.
    """
    shell, dropped = _shell(op, service, errors=errors)
    rungs = _ladder(max(0, depth)) if max_tokens is not None else [Limits(max(0, depth))]
    for i, limits in enumerate(rungs):
        walk = _Walk(service.schemas, limits, examples=examples)
        body = walk.plain(shell)
        text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)
        # ~3 characters per token at the least: skip counting a text that cannot fit.
        if max_tokens is not None and len(text) > 3 * max_tokens * 2 and i < len(rungs) - 1:
            continue
        tokens = _count_tokens(text)
        if max_tokens is None or tokens <= max_tokens or i == len(rungs) - 1:
            break
    left_out = [f"error responses {', '.join(dropped)} (ask with errors=true)"] if dropped else []
    for what, n in sorted(walk.cut.items()):
        hint = " (ask with examples=true)" if what == "examples" else ""
        left_out.append(f"{what}: {n}{hint}")
    body["view"] = {
        "tokens": tokens,
        "max_tokens": max_tokens,
        "depth": limits.depth,
        "left_out": left_out,
    }
    return body


def _count_tokens(text: str) -> int:
    from openapi_rag.tokens import get_tokenizer

    return get_tokenizer(TOKENIZER).count(text)
