"""A table's rows spilled into the paragraphs after it (since issue 17's twenty-ninth round).

A Markdown table whose cell holds a line break is closed by the converter at that row: the rest of the
cell and every later row come out as paragraphs of pipe-separated text right after the table ("…
request. |", "| critics-pick | string |  | Set this parameter …", a paragraph break where the cell had
one). Read as such: the paragraphs right after the table (nothing else between), up to the last one in
which a line ends with a pipe (a row closed), are the last row's last cell continued up to its closing
pipe, then rows of the table's width, each opened by a pipe at a line's start. Anything else (a row of
another width, a pipe inside the continued cell, a last row left open) and the paragraphs are prose.
The cell's rest may hold a list, and the rows may come joined on one line ("… | | cursor | query | … |", the
thirty-sixth round).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from openapi_rag.crawl.elements import tag_name

MAX_SPILLED_PARAGRAPHS = 50
MAX_SPILLED_ROWS = 500
# A row closed by a pipe at a line's end, the next row opened by a pipe at the next line's start.
_ROW_BREAK = re.compile(r"\|[ \t]*\n\s*\|")
_CLOSES_ROW = re.compile(r"\|[ \t]*$", re.M)
# What a cell's rest may come as: its paragraphs, and a list it holds (thirty-sixth round)
_CELL_PARTS = {"p", "ul", "ol"}


class Spilled(NamedTuple):
    continued: str  # the rest of the table's last cell ("" where the paragraphs open with a row)
    rows: list[list[str]]
    paragraphs: list[object]  # the paragraph elements read as the table's


def _words(text: str) -> str:
    return " ".join(text.split())


def spilled_rows(table: object, width: int) -> Spilled | None:
    """The rows (and the last cell's rest) of a table of `width` columns that its converter spilled into
    the paragraphs after it; None where those paragraphs are not that."""
    if width < 2 or (getattr(table, "tail", None) or "").strip():
        return None
    paragraphs: list[object] = []
    texts: list[str] = []
    sibling = table.getnext()  # type: ignore[attr-defined]
    while sibling is not None and tag_name(sibling) in _CELL_PARTS and len(paragraphs) < MAX_SPILLED_PARAGRAPHS:
        paragraphs.append(sibling)
        texts.append(sibling.text_content())
        if (sibling.tail or "").strip():
            break
        sibling = sibling.getnext()
    closing = [i for i, text in enumerate(texts) if _CLOSES_ROW.search(text.rstrip(" \t"))]
    if not closing:
        return None
    last = closing[-1]
    joined = "\n".join(texts[: last + 1]).rstrip()
    if not joined.endswith("|"):
        return None  # the last row read left open: its cell's rest is not known to end here
    pieces = _ROW_BREAK.split(joined[:-1])
    continued, rows = pieces[0], []
    if "|" in continued:
        return _rows_on_one_line(joined[:-1], width, paragraphs[: last + 1])
    for piece in pieces[1 : MAX_SPILLED_ROWS + 1]:
        cells = [_words(cell) for cell in piece.split("|")]
        if len(cells) != width or not cells[0]:
            return None
        rows.append(cells)
    return Spilled(_words(continued), rows, paragraphs[: last + 1])


def _rows_on_one_line(text: str, width: int, paragraphs: list[object]) -> Spilled | None:
    """The rows where the converter joined them on one line ("…api-keys | | cursor | query | string | | Yes | Cursor
    to start from. | | fields | query | …"): each row's cells between pipes, a row closed by a pipe and the next
    opened by one, so that the pieces after the cell's rest come as a blank then `width` cells, the first a name.
    None where they do not (thirty-sixth round)."""
    pieces = text.split("|")
    continued, rest = pieces[0], pieces[1:]
    if not rest or len(rest) % (width + 1) or len(rest) // (width + 1) > MAX_SPILLED_ROWS:
        return None
    rows = []
    for start in range(0, len(rest), width + 1):
        cells = [_words(cell) for cell in rest[start + 1 : start + 1 + width]]
        if rest[start].strip() or not cells[0] or " " in cells[0]:
            return None
        rows.append(cells)
    return Spilled(_words(continued), rows, paragraphs)
