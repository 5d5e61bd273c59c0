"""The reference graph: which component schemas each operation reaches, and who uses each schema."""

from __future__ import annotations

from typing import Any

from openapi_rag.model import SCHEMA_REF_PREFIX, Service
from openapi_rag.refs.pointer import unescape


def schema_refs(node: Any) -> set[str]:
    """Names of the component schemas `node` refers to directly (bundled documents only)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, dict):
            ref = cur.get("$ref")
            if isinstance(ref, str) and ref.startswith(SCHEMA_REF_PREFIX):
                found.add(unescape(ref[len(SCHEMA_REF_PREFIX) :]))
            stack.extend(v for v in cur.values() if isinstance(v, (dict, list)))
        elif isinstance(cur, list):
            stack.extend(v for v in cur if isinstance(v, (dict, list)))
    return found


def build_reference_graph(service: Service) -> None:
    """Fill `refs`, `used_by_*` on schemas and `schema_refs`, `reachable_schemas` on operations."""
    schemas = service.schemas
    for schema in schemas.values():
        schema.refs = sorted(schema_refs(schema.schema) & schemas.keys())
        schema.used_by_schemas, schema.used_by_operations = [], []
    for schema in schemas.values():
        for target in schema.refs:
            schemas[target].used_by_schemas.append(schema.name)

    closures: dict[str, frozenset[str]] = {}

    def closure(name: str) -> frozenset[str]:
        # Iterative DFS: schema chains in real APIs (Kubernetes) are long and cyclic.
        if name not in closures:
            seen = {name}
            todo = [name]
            while todo:
                for nxt in schemas[todo.pop()].refs:
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            closures[name] = frozenset(seen)
        return closures[name]

    for op in service.operations:
        direct = schema_refs(op.raw) & schemas.keys()
        reach: set[str] = set()
        for name in direct:
            reach |= closure(name)
        op.schema_refs = sorted(direct)
        op.reachable_schemas = sorted(reach)
        for name in op.reachable_schemas:
            schemas[name].used_by_operations.append(op.id)
