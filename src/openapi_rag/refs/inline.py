"""Expand named schema references in place, for display and for chunks that carry their schemas.

Expansion is depth-limited (`max_depth` schema references along any path) and cycle-safe: a schema
that is already being expanded higher up the same path is replaced by `{"x-cycle": "<name>"}`, and
one beyond the depth limit by `{"x-ref": "<name>"}`, so the reader always sees which schema stands
there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openapi_rag.model import SCHEMA_REF_PREFIX, Operation, Schema, Service
from openapi_rag.refs.pointer import unescape

CYCLE = "x-cycle"
DEPTH_LIMIT = "x-ref"


def ref_name(node: Any) -> str | None:
    """The component schema a `{"$ref": ...}` node names, if any."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMA_REF_PREFIX):
            return unescape(ref[len(SCHEMA_REF_PREFIX) :])
    return None


def inline_schemas(node: Any, schemas: Mapping[str, Schema], max_depth: int = 2) -> Any:
    """A copy of `node` with schema references expanded up to `max_depth` levels."""
    return _inline(node, schemas, max_depth, ())


def _inline(node: Any, schemas: Mapping[str, Schema], depth: int, stack: tuple[str, ...]) -> Any:
    if isinstance(node, dict):
        name = ref_name(node)
        if name is not None and name in schemas:
            siblings = {k: _inline(v, schemas, depth, stack) for k, v in node.items() if k != "$ref"}
            if name in stack:
                return {CYCLE: name, **siblings}
            if depth <= 0:
                return {DEPTH_LIMIT: name, **siblings}
            body = _inline(schemas[name].schema, schemas, depth - 1, (*stack, name))
            if isinstance(body, dict):
                return {"title": name, **body, **siblings} if "title" not in body else {**body, **siblings}
            return body
        return {k: _inline(v, schemas, depth, stack) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, schemas, depth, stack) for v in node]
    return node


def resolved_operation(op: Operation, service: Service, max_depth: int = 3) -> dict[str, Any]:
    """The operation object with its schemas expanded: what `show` prints and an agent reads."""
    out: dict[str, Any] = {
        "service": service.id,
        "id": op.id,
        "method": op.method,
        "path": op.path,
    }
    out.update(inline_schemas(op.raw, service.schemas, max_depth))
    if op.security is None and service.security:
        out["security"] = service.security
    if op.servers:
        out["servers"] = op.servers
    return out
