"""JSON flattened depth-first into one line per leaf: `path.to.key: value`.

The paper's JSON split (LlamaIndex `JSONNodeParser`) writes each leaf with the keys that lead to it;
we join the keys with dots and put a colon before the value, so lines read like properties. List
items are numbered (`parameters.0.name: id`), strings are put on one line, other scalars are
written as JSON (`true`, `null`, `3`), and empty objects and lists are kept (`tags: []`).
"""

from __future__ import annotations

import json
from typing import Any


def flatten(node: Any, prefix: str = "") -> list[str]:
    """The lines of `node` flattened; `prefix` is put before every key path."""
    lines: list[str] = []
    # An explicit stack, not recursion: real documents nest deeper than is comfortable.
    stack: list[tuple[str, Any]] = [(prefix, node)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict) and value:
            stack.extend((_join(path, str(k)), v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list) and value:
            stack.extend((_join(path, str(i)), v) for i, v in reversed(list(enumerate(value))))
        else:
            lines.append(f"{path}: {_scalar(value)}".rstrip() if path else _scalar(value))
    return lines


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return " ".join(value.split())
    return json.dumps(value, ensure_ascii=False, default=str)
