"""Markdown a renderer left as text: operation headings and pipe tables inside one paragraph.

A Markdown processor that meets raw HTML it cannot close (a description holding a lone `<p>`) passes the rest
of the document through as text: the page then shows `### GET /api/2/attachment/meta **Description** Returns …
**Input parameters** | Parameter | In | Type | | --- | --- | --- | | id | path | string | ### Response 200 OK`
inside one paragraph, its line breaks collapsed to spaces. Such a run is read as the blocks the Markdown would
have drawn: each heading mark (`#` to `######`) a heading of its level, each pipe table (a header row, a row of
dashes, then rows of as many cells) a table, the text between them text with its bold marks dropped. Only a run
holding a heading mark followed by an HTTP method and a path is read so (issue 17's fortieth round, on dev3):
Markdown's own words, never a renderer's class name or an API's words.
"""

from __future__ import annotations

import re

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import METHODS

_METHODS = "|".join(sorted(METHODS))
# A heading mark followed by `METHOD /path` (the method in capitals, as headings write it).
_OPERATION_MARK = re.compile(rf"(?:^|\s)#{{1,6}}\s+(?:{_METHODS})\s+/\S*")
# A heading mark at the start of the run or after a space.
_MARK = re.compile(r"(?:^|(?<=\s))(#{1,6})\s+(?=\S)")
_OPERATION = re.compile(rf"((?:{_METHODS})\s+/\S*)\s*")
# A pipe table's row of dashes (`| --- | :---: |`): the cells it counts are the table's columns.
_DASHES = re.compile(r"\|(?:\s*:?-{3,}:?\s*\|)+")
_BOLD = re.compile(r"\*\*([^*]{1,200})\*\*")
# Where a bold label opens a paragraph: at a sentence's end, or a label that ends the text (a table's caption).
_PARAGRAPH = re.compile(r"(?<=[.!?:])\s+(?=\*\*[^*\s])|\s+(?=\*\*[^*]{1,200}\*\*\s*$)")
_RULE_IN = re.compile(r"\s(?:-{3,}|\*{3,}|_{3,})(?=\s|$)")  # a thematic break after a heading's words
_RULE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,})$")
_ESCAPED_PIPE = "\x01"
_MAX_HEADING = 100  # characters of a heading mark's text read as the heading when nothing ends it sooner


def has_raw_operations(text: str) -> bool:
    """The run holds a heading mark followed by `METHOD /path`: Markdown drawn as text."""
    return "#" in text and _OPERATION_MARK.search(text) is not None


def raw_markdown_blocks(blocks: list[Block]) -> list[Block]:
    """The page's blocks with each text run of unrendered Markdown (see `has_raw_operations`) read as the
    headings, tables and text it would have drawn; positions numbered again."""
    if not any(b.kind == "text" and has_raw_operations(b.text) for b in blocks):
        return blocks
    out: list[Block] = []
    for block in blocks:
        if block.kind == "text" and not block.control and has_raw_operations(block.text):
            out.extend(markdown_run(block.text))
        else:
            out.append(block)
    for index, block in enumerate(out):
        block.position = index
    return out


def markdown_run(text: str) -> list[Block]:
    """The blocks one run of Markdown text (line breaks collapsed) draws."""
    blocks: list[Block] = []
    marks = list(_MARK.finditer(text))
    _body(text[: marks[0].start()] if marks else text, blocks)
    for mark, after in zip(marks, [*marks[1:], None], strict=False):
        segment = text[mark.end() : after.start() if after is not None else len(text)]
        heading, body = _heading(segment)
        if heading:
            blocks.append(Block("heading", heading, level=len(mark.group(1))))
        _body(body, blocks)
    return blocks


def _heading(segment: str) -> tuple[str, str]:
    """A heading mark's text and what follows it: `METHOD /path` ends at the path; another heading at the
    first bold mark, pipe or thematic break (a paragraph, a table or a rule after it), or is the whole segment when short."""
    operation = _OPERATION.match(segment)
    if operation:
        return operation.group(1), segment[operation.end() :]
    rule = _RULE_IN.search(segment)
    ends = [i for i in (segment.find("**"), segment.find("|"), rule.start() if rule else -1) if i > 0]
    end = min(ends) if ends else len(segment)
    if end > _MAX_HEADING:
        return "", segment
    return segment[:end].strip(), segment[end:]


def _body(text: str, blocks: list[Block]) -> None:
    """Text and pipe tables, in order."""
    text = text.replace("\\|", _ESCAPED_PIPE)
    while text.strip():
        dashes = _DASHES.search(text)
        table = _table(text, dashes) if dashes else None
        if table is None:
            _text(text, blocks)
            return
        start, rows, end = table
        _text(text[:start], blocks)
        blocks.append(Block("table", rows=rows, header=True))
        text = text[end:]


def _table(text: str, dashes: re.Match[str]) -> tuple[int, list[list[str]], int] | None:
    """Where a pipe table starts, its rows (header first) and where it ends: the header is the columns' count
    of cells before the row of dashes; the rows after it as many cells each, one blank between rows."""
    columns = dashes.group(0).count("|") - 1
    before = text[: dashes.start()].rstrip()
    if not before.endswith("|"):
        return None
    pipes = [i for i, c in enumerate(before) if c == "|"]
    if len(pipes) < columns + 1:
        return None
    start = pipes[-(columns + 1)]
    header = [_cell(c) for c in before[start + 1 : pipes[-1]].split("|")]
    if len(header) != columns:
        return None
    rows = [header]
    rest = text[dashes.end() :]
    consumed = dashes.end()
    while True:
        row = re.match(r"\s*\|" + r"([^|]*)\|" * columns, rest)
        if row is None:
            break
        rows.append([_cell(c) for c in row.groups()])
        rest = rest[row.end() :]
        consumed += row.end()
    return start, rows, consumed


def _cell(text: str) -> str:
    return _BOLD.sub(r"\1", text.replace(_ESCAPED_PIPE, "|")).strip()


def _text(text: str, blocks: list[Block]) -> None:
    """Text, a paragraph from each bold mark that opens a sentence on (`**Description** Returns …`, a label)."""
    for piece in _PARAGRAPH.split(text):
        piece = " ".join(_BOLD.sub(r"\1", piece.replace(_ESCAPED_PIPE, "|")).split())
        if piece and not _RULE.match(piece):
            blocks.append(Block("text", piece))
