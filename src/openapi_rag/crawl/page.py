"""Read a documentation page into a flat stream of blocks: headings, code, tables, text.

Rules downstream look at HTML structure in general (headings, `pre`, tables, definition lists,
short text runs), never at one renderer's class names, so one linear stream in document order
is all they need. lxml parses leniently (broken markup never raises) and scripts are dropped
unread, never executed. Everything is bounded: the bytes read, the blocks kept, the cells per
table and the characters per block.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from openapi_rag.errors import ConvertError, MissingDependency

MAX_PAGE_BYTES = 64 * 1024 * 1024
MAX_BLOCKS = 200_000
MAX_BLOCK_CHARS = 200_000
MAX_TABLE_ROWS = 2_000
_SKIP = {"script", "style", "noscript", "template", "svg", "iframe", "object", "canvas", "head"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Block-level elements: their text is a run of its own (so "Parameters" and "id" never glue together).
_BREAKS = {
    "p", "div", "li", "ul", "ol", "section", "article", "aside", "blockquote", "header", "footer", "nav",
    "main", "br", "tr", "td", "th", "dt", "dd", "button", "label", "summary", "details", "form", "body",
}  # fmt: skip


@dataclass
class Block:
    """One piece of the page: `kind` is heading | code | table | text."""

    kind: str
    text: str = ""
    level: int = 0  # heading level
    rows: list[list[str]] = field(default_factory=list)  # table rows (header row first when marked)
    header: bool = False  # the first row is a header row (th cells)
    position: int = 0


@dataclass
class Page:
    source: str
    title: str
    blocks: list[Block]
    truncated: bool = False


def read_page(path: Path, *, max_bytes: int = MAX_PAGE_BYTES) -> Page:
    """Parse one HTML file into blocks; unreadable files raise ConvertError naming the file."""
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ConvertError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    truncated = len(data) > max_bytes
    return parse_html(data[:max_bytes], source=str(path), truncated=truncated)


def parse_html(data: bytes | str, *, source: str = "<page>", truncated: bool = False) -> Page:
    """Blocks of an HTML document (bytes or text), in document order."""
    try:
        import lxml.html
        from lxml import etree
    except ImportError as exc:  # the `crawl` extra
        raise MissingDependency('crawling HTML needs lxml: pip install "openapi-rag[crawl]"') from exc

    if isinstance(data, str):
        data = data.encode("utf-8", "replace")
    if not data.strip():
        return Page(source, "", [], truncated)
    # huge_tree lifts libxml2's depth/size guards, so we keep our own bounds (bytes read, blocks kept).
    parser = lxml.html.HTMLParser(recover=True, huge_tree=True, remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.ParserError:
        root = None
    if root is None:
        return Page(source, "", [], truncated)
    title_el = root.find(".//title")
    title = " ".join((title_el.text_content() if title_el is not None else "").split())
    walker = _Walker()
    walker.walk(root)
    walker.flush()
    return Page(source, title, walker.blocks, truncated or walker.full)


class _Walker:
    """Depth-first walk with an explicit stack (hostile nesting never overflows Python's stack)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.run: list[str] = []
        self.full = False

    def add(self, block: Block) -> None:
        if len(self.blocks) >= MAX_BLOCKS:
            self.full = True
            return
        block.position = len(self.blocks)
        self.blocks.append(block)

    def flush(self) -> None:
        text = " ".join(" ".join(self.run).split())
        self.run = []
        if text:
            self.add(Block("text", text[:MAX_BLOCK_CHARS]))

    def walk(self, root: object) -> None:
        # Stack items: an element to enter, a text to add to the current run, or None (a block break).
        stack: list[object] = [root]
        while stack and not self.full:
            item = stack.pop()
            if item is None:
                self.flush()
                continue
            if isinstance(item, str):
                self.run.append(item)
                continue
            el = item
            tag = el.tag.lower() if isinstance(el.tag, str) else ""  # type: ignore[attr-defined]
            tail = el.tail  # type: ignore[attr-defined]
            if tail and tail.strip():
                stack.append(tail)
            if not tag or tag in _SKIP:
                continue
            if tag in _HEADINGS:
                self.flush()
                self.add(Block("heading", _text(el), level=_HEADINGS[tag]))
            elif tag == "pre":
                self.flush()
                self.add(Block("code", el.text_content()[:MAX_BLOCK_CHARS]))  # type: ignore[attr-defined]
            elif tag in ("table", "dl"):
                self.flush()
                # Nested tables (sub-schemas shown inside a cell) follow as tables of their own.
                nested = self._table(el) if tag == "table" else self._definitions(el)
                stack.extend(reversed(nested))
            else:
                brk = tag in _BREAKS
                if brk:
                    stack.append(None)
                stack.extend(reversed(list(el)))  # type: ignore[call-overload]
                if el.text and el.text.strip():  # type: ignore[attr-defined]
                    stack.append(el.text)  # type: ignore[attr-defined]
                if brk:
                    stack.append(None)

    def _table(self, table: object) -> list[object]:
        rows: list[list[str]] = []
        header = False
        nested: list[object] = []
        for tr in table.iter("tr"):  # type: ignore[attr-defined]
            if _owner_table(tr) is not table:
                continue
            cells = [c for c in tr if isinstance(c.tag, str) and c.tag.lower() in ("td", "th")]
            if not rows and cells and all(c.tag.lower() == "th" for c in cells):
                header = True
            row = []
            for cell in cells:
                nested.extend(t for t in cell.iter("table") if _owner_table(t) is table)
                row.append(_text(cell, skip_tables=True))
            rows.append(row)
            if len(rows) >= MAX_TABLE_ROWS:
                break
        if rows:
            self.add(Block("table", rows=rows, header=header))
        # Only the outermost nested tables: deeper ones are reached when those are walked.
        return nested

    def _definitions(self, dl: object) -> list[object]:
        rows: list[list[str]] = []
        for child in dl:  # type: ignore[attr-defined]
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            if tag == "dt":
                rows.append([_text(child), ""])
            elif tag == "dd" and rows:
                rows[-1][1] = (rows[-1][1] + " " + _text(child)).strip()
            if len(rows) >= MAX_TABLE_ROWS:
                break
        if rows:
            self.add(Block("table", rows=rows))
        return []


def _owner_table(el: object) -> object | None:
    node = el
    while node is not None:
        node = node.getparent()  # type: ignore[attr-defined]
        if node is not None and isinstance(node.tag, str) and node.tag.lower() == "table":
            return node
    return None


def _text(el: object, *, skip_tables: bool = False) -> str:
    """Text of an element with a space between its pieces ("id" + "required" → "id required")."""
    parts: list[str] = []
    stack: list[object] = [el]
    first = True
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        tag = item.tag.lower() if isinstance(item.tag, str) else ""  # type: ignore[attr-defined]
        if not first and item.tail:  # type: ignore[attr-defined]
            stack.append(item.tail)  # type: ignore[attr-defined]
        if not tag or tag in _SKIP or (skip_tables and tag == "table" and not first):
            first = False
            continue
        first = False
        stack.extend(reversed(list(item)))  # type: ignore[call-overload]
        if item.text:  # type: ignore[attr-defined]
            stack.append(item.text)  # type: ignore[attr-defined]
        if sum(len(p) for p in parts) > MAX_BLOCK_CHARS:
            break
    return " ".join(" ".join(parts).split())[:MAX_BLOCK_CHARS]
