"""Questions about HTML elements the page reader asks (lxml elements, bounded walks)."""

from __future__ import annotations

import itertools

MAX_ITEM_ELEMENTS = 200  # elements of a list item read to tell whether it documents one field
# Elements that make a definition list a container of sections rather than a table of terms.
_BLOCK_CHILDREN = {"p", "div", "ul", "ol", "dl", "pre", "table", "section", "blockquote"}


def tag_name(element: object) -> str:
    """An element's tag in lower case; "" for a comment or a processing instruction (no string tag)."""
    tag = getattr(element, "tag", None)
    return tag.lower() if isinstance(tag, str) else ""


def is_container(dl: object) -> bool:
    """A definition list whose descriptions hold paragraphs, lists or further definition lists is an
    outline of sections (API references built with Sphinx, Javadoc-like pages), not a table of terms;
    an empty block (a template's placeholder `<div> </div>`) holds nothing."""
    return any(
        isinstance(child.tag, str)
        and child.tag.lower() == "dd"
        and any(isinstance(g.tag, str) and g.tag.lower() in _BLOCK_CHILDREN and _has_text(g) for g in child)
        for child in dl  # type: ignore[attr-defined]
    )


def _has_text(el: object) -> bool:
    """Whether an element's first elements hold any text (bounded: nesting never costs more)."""
    for node in itertools.islice(el.iter(), MAX_ITEM_ELEMENTS):  # type: ignore[attr-defined]
        if (node.text and node.text.strip()) or (node is not el and node.tail and node.tail.strip()):
            return True
    return False


def row_span(cell: object) -> int:
    """A cell's rowspan, bounded (a hostile value never swallows the table)."""
    digits = (cell.get("rowspan") or "1").strip()  # type: ignore[attr-defined]
    if not (digits.isascii() and digits.isdigit()):  # isdigit alone takes '²', which int() refuses
        return 1
    digits = digits.lstrip("0") or "0"
    return 10 if len(digits) > 2 else min(int(digits), 10)  # bounded before int(): no huge-string parse


def in_head(tr: object) -> bool:
    parent = tr.getparent()  # type: ignore[attr-defined]
    return parent is not None and isinstance(parent.tag, str) and parent.tag.lower() == "thead"


def owner_table(el: object) -> object | None:
    node = el
    while node is not None:
        node = node.getparent()  # type: ignore[attr-defined]
        if node is not None and isinstance(node.tag, str) and node.tag.lower() == "table":
            return node
    return None


_HEADING_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


def leading_heading(section: object) -> object | None:
    """The heading a `<section>` opens with (its first element, no text before it), if any: the heading of
    that section alone, as HTML's sectioning says."""
    if (section.text or "").strip():  # type: ignore[attr-defined]
        return None
    first = next((child for child in section if isinstance(child.tag, str)), None)  # type: ignore[attr-defined]
    return first if first is not None and first.tag.lower() in _HEADING_TAGS else None


def followed(el: object) -> bool:
    """Whether anything with text follows the element inside its parent (bounded: 50 siblings)."""
    if el.tail and el.tail.strip():  # type: ignore[attr-defined]
        return True
    return any(_has_text(sibling) for sibling in itertools.islice(el.itersiblings(), 50))  # type: ignore[attr-defined]
