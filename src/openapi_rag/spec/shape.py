"""The shape of a parsed document: nesting depth, cycles, and what YAML aliases expand to.

Checked right after parsing, before any later stage walks the document as a tree (bundling copies
every aliased subtree; a 661-byte alias bomb would expand to billions of nodes there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openapi_rag.errors import SpecParseError
from openapi_rag.spec.limits import ReadLimits


def check_shape(data: Any, path: Path, limits: ReadLimits, *, aliased: bool = False) -> None:
    """Refuse a document nested deeper than `max_depth`, cyclic, or whose aliases expand too far.

    YAML aliases make one object appear in many places; later stages walk the document as a tree,
    so its *expanded* size is what they pay. It is computed here over the shared objects without
    expanding them (one visit per distinct object), before anything downstream copies them.
    """
    if not aliased:  # a plain tree: its depth is all there is to check, one cheap pass
        _check_depth(data, path, limits)
        return
    sizes: dict[int, tuple[int, int]] = {}  # id -> (expanded nodes, height)
    active: set[int] = set()  # objects on the current path, to find an alias that contains itself
    distinct = 0
    stack: list[tuple[Any, bool]] = [(data, False)]
    while stack:
        node, finished = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        key = id(node)
        if finished:
            size, height = 1, 0
            for child in children:
                child_size, child_height = sizes.get(id(child), (1, 0))
                size, height = size + child_size, max(height, child_height)
            sizes[key] = (size, height + 1)
            active.discard(key)
            continue
        if key in sizes or not isinstance(node, (dict, list)):
            continue
        if key in active:
            raise SpecParseError("a YAML alias contains itself (the document is cyclic)", file=path)
        active.add(key)
        distinct += 1
        stack.append((node, True))
        for child in children:
            if isinstance(child, (dict, list)):
                if id(child) in active:
                    raise SpecParseError("a YAML alias contains itself (the document is cyclic)", file=path)
                if id(child) not in sizes:
                    stack.append((child, False))
    total, height = sizes.get(id(data), (1, 0))
    if height > limits.max_depth:
        raise limits.exceeded("max_depth", f"nesting is {height} levels deep", file=path)
    if aliased and total - distinct > limits.max_alias_nodes:
        raise limits.exceeded(
            "max_alias_nodes", f"YAML aliases expand the document to {total:,} nodes", file=path
        )


def _check_depth(data: Any, path: Path, limits: ReadLimits) -> None:
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.max_depth:
            raise limits.exceeded("max_depth", f"nesting is more than {limits.max_depth} levels deep", file=path)
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
