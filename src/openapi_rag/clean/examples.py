"""The `examples` step: drop every `example` / `examples` value.

That covers media types, parameters, headers, schemas at any depth (OpenAPI 3.0 `example`, 3.1
`examples` arrays) and `components.examples`. Keys that are *names* stay: a property called
`example` under `properties`, a header or a component named `examples`. Data (`default`, `enum`,
`const`, `x-*` extensions) is not searched, since its keys are not keywords.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.clean._walk import EXAMPLE_KEYS, NAME_MAP_KEYS, dump_member, is_extension

_DATA_KEYS = frozenset({"default", "enum", "const"})


def drop_examples(doc: dict[str, Any]) -> list[str]:
    """Remove example values in place; return the removed JSON members."""
    removed: list[str] = []
    seen: set[int] = set()  # YAML aliases: visit a shared node once

    def visit(node: Any, names: bool) -> None:
        if isinstance(node, list):
            for item in node:
                visit(item, False)
            return
        if not isinstance(node, dict) or id(node) in seen:
            return
        seen.add(id(node))
        if names:
            for value in node.values():
                visit(value, False)
            return
        for key in [k for k in node if k in EXAMPLE_KEYS]:
            removed.append(dump_member(key, node.pop(key)))
        for key, value in node.items():
            if key in _DATA_KEYS or is_extension(key) or not isinstance(value, (dict, list)):
                continue
            visit(value, key in NAME_MAP_KEYS and isinstance(value, dict))

    visit(doc, False)
    return removed
