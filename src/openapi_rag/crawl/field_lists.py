"""Lists whose items draw fields as "name: marks (type) description", as RAML renderers lay out a
property (the name in bold, a colon, "required", the type in parentheses, then the description):

    notificationType: required (string)   Type of notification.
    breakdown: required (array of object)  Cost breakdown by category.
        category: required (string)        Category of energy usage.
    sort_by: (one of popularity.asc, popularity.desc - default: popularity.asc)

An item may hold its field's own fields in a list inside it (an object's properties, an array's
items): they follow it as rows one level down ("» category"), and an example shown inside the item
(code) is the field's, not content of its own. The list becomes a table with a header row (name, type,
required, description); an item that is a name alone is a field whose type the page leaves out
(beside typed ones), an empty one is passed over, and a list with any other item is left alone.
"""

from __future__ import annotations

import itertools
import re

MAX_ITEMS = 2_000
MAX_NESTING = 6  # levels of lists inside items read as fields' fields
MAX_ITEM_ELEMENTS = 200  # elements of an item read for its own text
MAX_NESTED_LISTS = 2_000  # lists inside an item looked at
_NAME = r"[A-Za-z_$@][\w.\-$@\[\]]{0,99}"
_ITEM = re.compile(
    r"(" + _NAME + r")\s*:\s*((?:(?:required|optional)\s+)*)\(([^()]{1,400})\)\s*(.*)", re.S | re.I
)
# What the parentheses hold when they state a type: a type word (RAML's too: "datetime", "date-only",
# "file", "any", "nil"), an enumeration ("one of a, b"), a list ("array of Pet", "array of " where the
# items' type is left out), a schema's name, or one word (a lone allowed value, "(.json)"); no phrase.
_TYPED = re.compile(
    r"(?:array of\s*\S*|one of\b.*|[A-Z][\w.-]*(?:\[\])?|"
    r"(?:string|integer|number|boolean|object|array|date|date-only|time-only|datetime|datetime-only|"
    r"date-time|file|any|nil)(?:\[\])?(?:\s+-\s+.*)?|[^\s,]{1,40})",
    re.I | re.S,
)
_BARE_NAME = re.compile(_NAME)
_ENUM = re.compile(r"one of\s+(.*?)(?:\s+-\s+default:.*)?", re.I | re.S)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SKIPPED = {"ul", "ol", "pre", "table", "script", "style"}


def colon_field_rows(listing: object, depth: int = 0) -> list[list[str]] | None:
    """[name, type, required, description] rows (the header row first at the top level) of a list
    whose every item draws a field "name: marks (type) …"; None for any other list."""
    items = [c for c in listing if isinstance(c.tag, str) and c.tag.lower() == "li"]  # type: ignore[attr-defined]
    if not items or len(items) > MAX_ITEMS:
        return None
    rows: list[list[str]] = []
    typed = False
    for item in items:
        text = _own_text(item)
        if not text:
            continue  # an empty item (a map's unnamed entry) documents nothing
        found = _ITEM.fullmatch(text)
        if found is None and _BARE_NAME.fullmatch(text):
            rows.append(["» " * depth + text, "", "", ""])  # a field whose type the page leaves out
            continue
        if found is None or not _TYPED.fullmatch(found.group(3).strip()):
            return None
        typed = True
        name, marks, shown, described = (found.group(k).strip() for k in (1, 2, 3, 4))
        required = "required" if "required" in marks.lower().split() else ""
        rows.append(["» " * depth + name, _type_cell(shown), required, described])
        if depth < MAX_NESTING:
            for inner in _lists_inside(item):
                rows.extend(colon_field_rows(inner, depth + 1) or [])
    if not typed:  # names alone ("nullable", "oas-tags") are marks or annotations, not fields
        return None
    if depth == 0:
        return [["name", "type", "required", "description"], *rows]
    return rows


def _type_cell(shown: str) -> str:
    """The type the parentheses state; an enumeration's from its values (numbers: integer)."""
    enum = _ENUM.fullmatch(shown)
    if enum is None:
        return shown
    values = [v.strip() for v in enum.group(1).split(",") if v.strip()]
    return "integer" if values and all(_NUMBER.fullmatch(v) for v in values) else "string"


def _lists_inside(item: object) -> list[object]:
    """The lists an item holds directly (perhaps inside a `div`), not those of items inside them."""
    out = []
    for element in itertools.islice(item.iter("ul", "ol"), MAX_NESTED_LISTS):  # type: ignore[attr-defined]
        holder = next(element.iterancestors("li", "ul", "ol"), None)
        if holder is item:
            out.append(element)
    return out


def _own_text(item: object) -> str:
    """An item's text less the lists, code and tables inside it (bounded: its first elements)."""
    parts: list[str] = []
    stack: list[object] = [item]
    visited = 0
    while stack and visited < MAX_ITEM_ELEMENTS:
        node = stack.pop()
        if isinstance(node, str):
            parts.append(node)
            continue
        visited += 1
        tag = node.tag.lower() if isinstance(node.tag, str) else ""  # type: ignore[attr-defined]
        if node is not item and node.tail:  # type: ignore[attr-defined]
            stack.append(node.tail)  # type: ignore[attr-defined]
        if not tag or (node is not item and tag in _SKIPPED):
            continue
        stack.extend(reversed(list(node)))  # type: ignore[call-overload]
        if node.text:  # type: ignore[attr-defined]
            stack.append(node.text)  # type: ignore[attr-defined]
    return " ".join(" ".join(parts).split())
