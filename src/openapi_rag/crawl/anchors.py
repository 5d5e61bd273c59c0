"""Links to a label's own anchor: a nested object's fields drawn in a table of their own, after a label that
carries an id ("Parts schema:" in `<p id="…">`), reached from the parent row's type cell by a link to that id
("array of parts"). Issue 17's twenty-seventh round.

A link to an id lands on the element that carries it; when that element is one short run, the run is what
the link points to: the label of the part the link's row says more about.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import TYPE_CHECKING

from openapi_rag.crawl.elements import tag_name

if TYPE_CHECKING:  # the page reader imports this module: no import of it at run time
    from openapi_rag.crawl.page import Block
    from openapi_rag.crawl.tables import FieldRow

_UP = 6  # elements looked at above a run's own (bounded)
# Elements that hold a run of their own: the run's block ends with the first of them up the chain.
_BLOCK_TAGS = {
    "p", "div", "li", "section", "article", "aside", "blockquote", "header", "footer", "main", "td", "th",
    "dt", "dd", "body", "caption", "figcaption",
}  # fmt: skip
_MAX_LABEL_CHARS = 200
_BACK = 4  # runs a label may stand before its table or example: itself, its description, a word or two


def run_anchor(chain: list[object], text: str) -> str:
    """The id of the element a run is the whole of, from the run's own element up to its block (a label
    paragraph `<p id="i-1"><strong>Parts schema:</strong></p>`): "" where none carries one, or where the
    element with the id holds more than the run (a section's id names the section, not its first words)."""
    if len(text) > _MAX_LABEL_CHARS:
        return ""
    for element in chain[:_UP]:
        tag = tag_name(element)
        ident = (element.get("id") or "").strip()  # type: ignore[attr-defined]
        if ident:
            shown = " ".join(itertools.islice(element.itertext(), 50))  # type: ignore[attr-defined]
            return ident if " ".join(shown.split()) == text else ""
        if tag in _BLOCK_TAGS:
            break
    return ""


def row_refs(rows: Iterable[FieldRow]) -> set[str]:
    """The targets the rows' type cells link to."""
    return {row.ref for row in rows if row.ref}


def linked_label(blocks: list[Block], index: int, refs: set[str]) -> int | None:
    """Where the label stands that a field row's link points to, among the short runs right before block
    `index` (a table or an example), back to the nearest heading, table or code: the first run back that
    carries an anchor decides, and only when a row links to it. None elsewhere."""
    if not refs:
        return None
    for back in range(index - 1, max(-1, index - 1 - _BACK), -1):
        block = blocks[back]
        if block.kind != "text":
            return None
        if block.anchor:
            return back if block.anchor in refs else None
    return None


def outer_label(blocks: list[Block], index: int, refs: set[str]) -> int | None:
    """Where the outermost nested label before block `index` stands, back to the nearest heading or code:
    an example drawn after a nested object's label and table ("Parameters schema:", its table, then the
    example) is the example of the part that label sits in, not of the label's field. None where no run
    there carries an anchor a row links to (bounded: 60 blocks back)."""
    if not refs:
        return None
    found = None
    for back in range(index - 1, max(-1, index - 61), -1):
        block = blocks[back]
        if block.kind in ("heading", "code"):
            break
        if block.kind == "text" and block.anchor and block.anchor in refs:
            found = back
    return found


_LANDING_LEVELS = 3  # elements up from a heading whose id may land on it (bounded)
_LANDING_SIBLINGS = 10  # empty elements looked at before each


def landing_ids(heading: object) -> tuple[str, ...]:
    """The ids a link may point to that land on a heading: its own, an empty element's right before it
    (`<span id="d-1"></span><h3>Pet Model</h3>`, a target a generator sets apart), and the id of an element the
    heading opens, no text before it (`<section id="pet"><span …></span><h3>…`)."""
    ids: list[str] = []
    node = heading
    for _ in range(_LANDING_LEVELS):
        if ident := (node.get("id") or "").strip():  # type: ignore[attr-defined]
            ids.append(ident)
        before = node.getprevious()  # type: ignore[attr-defined]
        for _ in range(_LANDING_SIBLINGS):
            if before is None:
                break
            if (before.tail or "").strip() or "".join(before.itertext()).strip():  # type: ignore[attr-defined]
                return tuple(ids)  # text before it: what lands on the element above lands there, not here
            if ident := (before.get("id") or "").strip():  # type: ignore[attr-defined]
                ids.append(ident)
            before = before.getprevious()  # type: ignore[attr-defined]
        else:
            return tuple(ids)
        parent = node.getparent()  # type: ignore[attr-defined]
        if parent is None or not isinstance(parent.tag, str) or parent.tag.lower() in ("body", "html"):
            break
        if (parent.text or "").strip():
            break
        node = parent
    return tuple(ids)
