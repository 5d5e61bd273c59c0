"""A map drawn as "Map of {"key": "200-mapped"}": the schema is a map (`additionalProperties`), and the key an
example generator wrote for its one entry, the value's name ("200-mapped", "number"), is no field. Issue 17's
twenty-seventh round."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from openapi_rag.crawl.page import Block

_QUOTE = "\"'\u201c\u201d\u2018\u2019"
_MAP_OF = re.compile(
    rf"map of\s*\{{\s*[{_QUOTE}]key[{_QUOTE}]\s*:\s*[{_QUOTE}]\s*([^{_QUOTE}]{{1,100}}?)\s*[{_QUOTE}]\s*\}}", re.I
)
_BACK = 30  # blocks looked at before an example (bounded)
_MAX_DEPTH = 16


def map_entry_names(blocks: list[Block], index: int) -> set[str]:
    """The entry names the "Map of {"key": …}" runs before block `index` state, back to the nearest heading."""
    names: set[str] = set()
    for block in reversed(blocks[max(0, index - _BACK) : index]):
        if block.kind == "heading":
            break
        if block.kind == "text" and len(block.text) <= 300:
            names.update(found.group(1) for found in _MAP_OF.finditer(block.text))
    return names


def without_map_entries(value: Any, names: set[str], depth: int = 0) -> Any:
    """The example with every object whose one key is a map's stated entry name emptied (its entries unknown)."""
    if not names or depth > _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in names:
            return {}
        return {key: without_map_entries(item, names, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [without_map_entries(item, names, depth + 1) for item in value]
    return value
