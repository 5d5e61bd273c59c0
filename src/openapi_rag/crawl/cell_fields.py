"""A schema drawn inside a table cell as one block per field, "name (type, marks): description", as
template renderers fill a parameter's or a response's Schema cell:

    alertId (string, optional): Unique identifier for the created alert.
    threshold (number): Threshold of unusual energy consumption.
    followers (object, optional)
        total (integer, optional): The total number of followers.
    images (array[object], optional): Images of the artist.
        [
        height (integer): The image height in pixels.
        ]

Each field is a `div` (any block element) of its own; an object's fields, or an array's items' fields
between "[" and "]", are blocks inside the field's, one level down. The cell becomes field rows (name,
type, required, description; depth as `»` marks, as schema tables show nesting). A field marked
"required" is required; where some field of the cell is marked "optional", one with no mark is required
(the renderer marks only the optional ones); otherwise required is left unsaid. An empty block, or an
array's "[]" (items of no fields drawn), is passed over; a cell with any other block, or with no field at all,
is left alone.
"""

from __future__ import annotations

import re

MAX_FIELDS = 2_000
MAX_NESTING = 6
_BLOCKS = {"div", "li", "section"}
_NAME = r"[\w$@][\w.\-$@\[\]]{0,99}"
# "name (type)", "name (type, optional)", "name (type, required): description", "name (string) [a | b]" (its
# values after it), "name (date string)" (a format, then the type), "name (, optional)" (the type left out), and
# "(object, optional)" with no name: a part of no name of its own (one of a schema's alternatives), whose fields
# stand at its level.
_FIELD = re.compile(
    r"(" + _NAME + r")?\s*\(\s*([A-Za-z][\w\[\]<>.\- ]{0,59}?)?\s*((?:,\s*[A-Za-z][\w\- ]{0,29}?\s*)*)\)"
    r"\s*(?::\s*(.*)|(\[[^\[\]]*\]))?",
    re.S,
)
_TYPE = re.compile(
    r"(?:[\w-]+\s+)?(?:string|integer|number|boolean|object|array|file|any|null)(?:\s*\[\s*\w*\s*\])?|[A-Z][\w.]*",
    re.I,
)
_OPTIONAL_MARK = re.compile(r"[\w$@]\s*\(\s*[^()\n]{0,60},\s*optional\s*\)")
MAX_SCANNED = 5_000_000
_BRACKETS = re.compile(r"[\[\]\s]*")


def cell_field_rows(cell: object, optional_marked: bool = False) -> list[list[str]] | None:
    """[name, type, required, description] rows, a header row first, of a cell whose blocks each draw a
    field "name (type, marks): description"; None for any other cell. `optional_marked`: the page marks
    some such field "optional" elsewhere (see `marks_optional`), so one with no mark is required here too."""
    rows: list[list[str]] = []
    marks: list[str] = []
    if not _fields(cell, 0, rows, marks) or not rows:
        return None
    optional_marked = optional_marked or any("optional" in m for m in marks)
    out = [["name", "type", "required", "description"]]
    for row, mark in zip(rows, marks, strict=True):
        required = "required" if "required" in mark or (optional_marked and not mark) else ""
        if "optional" in mark:
            required = "optional"
        out.append([row[0], row[1], required, row[3]])
    return out


def marks_optional(root: object) -> bool:
    """Whether a page marks some field "optional" in the notation "name (type, optional)" (bounded: its
    first MAX_SCANNED characters of text): a page that marks only its optional fields."""
    text = root.text_content()[:MAX_SCANNED]  # type: ignore[attr-defined]
    return _OPTIONAL_MARK.search(text) is not None


def _blocks(element: object) -> list[object]:
    return [c for c in element if isinstance(c.tag, str) and c.tag.lower() in _BLOCKS]  # type: ignore[attr-defined]


def _fields(container: object, depth: int, rows: list[list[str]], marks: list[str]) -> bool:
    """Reads the field blocks inside `container` into rows; False where one is no field. A block whose own
    text is only "[" and "]" wraps an array's items' fields, at the same depth."""
    children = _blocks(container)
    if not children:
        return True
    if depth > MAX_NESTING:
        return False
    for child in children:
        text = _own_text_less_blocks(child)
        if _BRACKETS.fullmatch(text):  # "[", its items' fields, "]" ("[]": items of no fields drawn)
            if not _fields(child, depth, rows, marks):
                return False
            continue
        found = _FIELD.fullmatch(text)
        shown = (found.group(2) or "").strip() if found else ""
        if found is None or (shown and not _TYPE.fullmatch(shown)) or len(rows) >= MAX_FIELDS:
            return False
        if not found.group(1):  # a part of no name: its fields at its level
            if not shown or not _blocks(child) or not _fields(child, depth, rows, marks):
                return False
            continue
        mark = " ".join(m.strip().lower() for m in found.group(3).split(",") if m.strip())
        described = " ".join(part.strip() for part in (found.group(4), found.group(5)) if part)
        rows.append(["» " * depth + found.group(1), shown, "", described])
        marks.append(mark)
        if not _fields(child, depth + 1, rows, marks):
            return False
    return True


def _own_text_less_blocks(element: object) -> str:
    """An element's text less the field blocks inside it (their tails kept: the "]" after an array's last)."""
    parts = [element.text or ""]  # type: ignore[attr-defined]
    for child in element:  # type: ignore[attr-defined]
        if isinstance(child.tag, str) and child.tag.lower() not in _BLOCKS:
            parts.append(child.text_content())
        parts.append(child.tail or "")
    return " ".join(" ".join(parts).split())
