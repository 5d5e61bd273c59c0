"""Read a documentation page into a flat stream of blocks: headings, code, tables, text.

Rules downstream look at HTML structure in general (headings, `pre`, tables, definition lists,
short text runs), never at one renderer's class names, so one linear stream in document order
is all they need. lxml parses leniently (broken markup never raises) and scripts are dropped
unread, never executed. Everything is bounded: the bytes read, the blocks kept, the cells per
table and the characters per block.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from openapi_rag.crawl.anchors import landing_ids, run_anchor
from openapi_rag.crawl.cell_fields import cell_field_rows, marks_optional
from openapi_rag.crawl.elements import (
    MAX_ITEM_ELEMENTS,
    followed,
    in_head,
    is_container,
    leading_heading,
    owner_table,
    row_span,
    tag_name,
)
from openapi_rag.crawl.field_lists import colon_field_rows
from openapi_rag.crawl.links import first_link, link_target
from openapi_rag.crawl.samples import is_method
from openapi_rag.crawl.spilled_rows import spilled_rows
from openapi_rag.crawl.tables import is_column_row, is_status_code
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
# Phrasing elements: a button inside one, after text of its own, is a word of the run ("array<object>",
# the item type a button that opens it), not a run of its own as buttons side by side are (a tab strip).
_PHRASING = {"span", "code", "a", "em", "strong", "b", "i", "small", "sub", "sup", "kbd", "var", "samp", "q", "abbr"}
# Elements that draw one line each when code is drawn a line an element (inside `pre`).
_LINE_TAGS = {"div", "p", "li", "tr", "dt", "dd"}
# What a `<wbr>` leaves in a run: the pieces of one word on either side join without a space.
_GLUE = "\x00"
_AROUND_GLUE = re.compile(r"\s*\x00\s*")
# Zero-width space, non-joiner, joiner, word joiner, byte-order mark: invisible, dropped from runs.
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
# Text boxes whose value a reader sees (not hidden fields, buttons or boxes to tick).
_TEXT_BOXES = {"text", "url", "search", "email", "tel", "number"}
# A heading's leading arrows or shapes ("▶ 200 - OK", "▷ limit"): marks that it folds or points, not words.
_LEADING_MARKS = re.compile(r"^[\u2190-\u21ff\u25a0-\u25ff\u2794-\u27bf\u2b00-\u2bff]+\s+")
# Permalink anchors beside headings and terms ("GET /pets ¶"): marks, not words.
_PERMALINKS = {"¶", "§", "#", "🔗", "⚓"}
# A list item documenting one field: "name (type, required) – description", the dash optional.
_FIELD_ITEM = re.compile(r"^([A-Za-z_$@][\w.\-$@\[\]]{0,99})\s*\(([^()]{1,80})\)\s*(?:[–—:-]\s*)?(.*)$", re.S)
_STATUS_ITEM = re.compile(r"^([1-5]\d\d|[1-5]XX|default)\b(.*?)(?:\s[–—-]\s(.*))?$", re.S | re.I)
_MAX_LINKS = 50  # link targets kept per text run
_NAME_ONLY = re.compile(r"[A-Za-z_][\w.-]{0,99}")
# A heading's attribute list written in Markdown and left as text by a processor without the extension
# that reads it ("NewPet {#schemas-newpet}", "Pets {: #pets .tag}"): the anchor the author gave it.
_LITERAL_ATTRIBUTES = re.compile(r"\s*\{:?\s*#([A-Za-z][\w.:-]{0,99})(?:\s[^{}]{0,100})?\s*\}$")
_META_WORDS = re.compile(
    r"\b(string|integer|int|int32|int64|long|number|float|double|boolean|bool|object|array|date|"
    r"date-time|uuid|required|optional)\b", re.I
)  # fmt: skip


@dataclass
class Block:
    """One piece of the page: `kind` is heading | code | table | text."""

    kind: str
    text: str = ""
    level: int = 0  # heading level
    rows: list[list[str]] = field(default_factory=list)  # table rows (header row first when marked)
    header: bool = False  # the first row is a header row (th cells)
    position: int = 0
    # What links inside point to, as a name ("../Models/Pet.md", "#pet" -> "Pet", "pet"): a text
    # block's links in order; a table's per cell (parallel to `rows`, "" where a cell has none).
    links: list[str] = field(default_factory=list)
    cell_links: list[list[str]] = field(default_factory=list)
    editable: bool = False  # code a reader writes in (a text area), not code the page shows
    depth: int = 0  # a text run's: how many elements enclose its first text (a schema tree's nesting)
    # A text run's: it starts inside a button or a link card (a control's label, a link to another page
    # around paragraphs: navigation, a table of contents) or a term's definition (a `<dfn>` around
    # paragraphs: a badge's popup), never prose about the operation nor a name it gives.
    control: bool = False
    # A text run's: it starts inside a `<label>`, the caption of a form control ("Show only required
    # parameters" beside a switch, "limit" over a text box): it names the control, not what follows it.
    caption: bool = False
    # A heading's: the anchor its literal attribute list gives it ("NewPet {#schemas-newpet}"), if any. A text
    # run's: the id of the element it is the whole of (`<p id="…"><strong>Parts schema:</strong></p>`), where a
    # link to that id lands (since issue 17's twenty-seventh round).
    anchor: str = ""
    # A heading's: the ids a link lands on at it, its own and those of empty elements set right before it or of
    # an element it opens (`<span id="d-1"></span><h3>Pet Model</h3>`; since issue 17's twenty-seventh round).
    ids: tuple[str, ...] = ()


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
    parser = lxml.html.HTMLParser(
        recover=True, huge_tree=True, remove_comments=True, remove_pis=True, encoding=_encoding(data)
    )
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
    # Markdown a processor left as text, read as what it would have drawn (fortieth round; it builds Blocks, so
    # it is imported here, not above).
    from openapi_rag.crawl.raw_markdown import raw_markdown_blocks

    blocks = raw_markdown_blocks(walker.blocks)
    _links_by_anchor(blocks)
    return Page(source, title, blocks, truncated or walker.full)


def _links_by_anchor(blocks: list[Block]) -> None:
    """Links to the anchor a heading's literal attribute list gives it ("#schemas-newpet", to the heading
    "NewPet {#schemas-newpet}") name that heading's words, as a link to a heading's own slug would."""
    names = {b.anchor: b.text for b in blocks if b.kind == "heading" and b.anchor and _NAME_ONLY.fullmatch(b.text)}
    if not names:
        return
    for block in blocks:
        block.links = [names.get(link, link) for link in block.links]
        block.cell_links = [[names.get(link, link) for link in row] for row in block.cell_links]


def _encoding(data: bytes) -> str | None:
    """UTF-8 for a page that declares no charset but is valid UTF-8 (libxml2 would read it as Latin-1
    and turn "¶" into "Â¶"); None leaves a declared charset, or a guess, to the parser."""
    if b"charset" in data[:4096].lower():
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    return "utf-8"


class _Owner(NamedTuple):
    """A stack item before an element's own text: that text's element, for the run's depth."""

    element: object


class _SectionEnd(NamedTuple):
    """A stack item after a `<section>` led by a heading: where that heading's part of the page ends."""

    section: object


_MAX_DEPTH = 500  # ancestors counted for a run's depth


class _Walker:
    """Depth-first walk with an explicit stack (hostile nesting never overflows Python's stack)."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.run: list[str] = []
        self.run_links: list[str] = []
        self.run_owner: object = None  # the element whose text starts the current run
        self.full = False
        self.outer = 1  # the level of the last heading element walked (a section button's heading is below it)
        # The headings of the `<section>`s being walked that open with one, outermost first (as blocks).
        self.sections: list[Block] = []
        # Paragraphs read as rows of the table before them (see `spilled_rows`): not runs of their own.
        self.spilled: set[object] = set()
        self.optional_marked: bool | None = None  # the page marks optional fields (see `_marks_optional`)

    def add(self, block: Block) -> None:
        if len(self.blocks) >= MAX_BLOCKS:
            self.full = True
            return
        block.position = len(self.blocks)
        self.blocks.append(block)

    def flush(self) -> None:
        text = " ".join(_glued(" ".join(self.run)).split())
        links, self.run, self.run_links = self.run_links, [], []
        owner, self.run_owner = self.run_owner, None
        if text:
            ancestors = list(itertools.islice(owner.iterancestors(), _MAX_DEPTH)) if owner is not None else []  # type: ignore[attr-defined]
            chain = [e for e in [owner, *ancestors] if e is not None]
            control = any(_control(e) for e in chain)
            caption = any(tag_name(e) == "label" for e in chain)
            self.add(
                Block(
                    "text",
                    text[:MAX_BLOCK_CHARS],
                    links=links[:_MAX_LINKS],
                    depth=len(ancestors),
                    control=control,
                    caption=caption,
                    anchor=run_anchor(chain, text),
                )
            )

    def own(self, element: object) -> None:
        """Note the element whose text starts a run (before the run holds any text)."""
        if not "".join(self.run).strip():
            self.run_owner = element

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
            if isinstance(item, _Owner):
                self.own(item.element)
                continue
            if isinstance(item, Block):  # a term that heads a section (see `_container`)
                self.flush()
                self.add(item)
                continue
            if isinstance(item, _SectionEnd):
                self._close_section(item.section)
                continue
            el = item
            tag = el.tag.lower() if isinstance(el.tag, str) else ""  # type: ignore[attr-defined]
            tail = el.tail  # type: ignore[attr-defined]
            if tail and tail.strip():
                stack.append(tail)
                stack.append(_Owner(el.getparent()))  # type: ignore[attr-defined]
            if not tag or tag in _SKIP or el in self.spilled:
                continue
            if tag == "wbr":  # a line-break opportunity inside a word ("snapshot<wbr>_id"), no space
                # libxml2 does not know it as empty: what follows may be its content, not its tail.
                stack.extend(reversed(list(el)))  # type: ignore[call-overload]
                if el.text:  # type: ignore[attr-defined]
                    stack.append(el.text)  # type: ignore[attr-defined]
                stack.append(_GLUE)
                continue
            if _is_permalink(el, tag):
                continue
            if tag == "select":  # a drop-down shows its chosen option alone, inline as a word of the run
                self.own(el)
                self.run.append(_shown_option(el))
                continue
            if tag == "input":  # a text box shows its value ("Production server [https://host/v1/pets]")
                if (value := el.get("value")) and (el.get("type") or "text").lower() in _TEXT_BOXES:  # type: ignore[attr-defined]
                    self.own(el)
                    self.run.append(value)
                continue
            if tag == "button" and (caption := _section_button(el)):
                # A section opened and closed by its leading button: the button is the section's heading,
                # one level below the page's heading over it.
                self.flush()
                self.add(Block("heading", caption, level=min(6, self.outer + 1)))
                continue
            if tag == "section" and (lead := leading_heading(el)) is not None:
                self._open_section(el, lead)
                stack.append(_SectionEnd(el))  # walked after the section's elements
            if tag in _HEADINGS:
                self.flush()
                level = self._nested_level(el, _HEADINGS[tag])
                self.outer = level
                text, anchor = _heading_text(el), ""
                if attributes := _LITERAL_ATTRIBUTES.search(text):
                    text, anchor = text[: attributes.start()] or text, attributes.group(1)
                self.add(Block("heading", text, level=level, anchor=anchor, ids=landing_ids(el)))
            elif tag == "pre":
                self.flush()
                self.add(Block("code", _code_text(el)[:MAX_BLOCK_CHARS]))
            elif tag == "textarea":
                # A text box a reader writes in (a console's request body): its text is what they would
                # send, a request's example wherever on the page the box stands.
                self.flush()
                self.add(Block("code", el.text_content()[:MAX_BLOCK_CHARS], editable=True))  # type: ignore[attr-defined]
            elif tag == "dl" and is_container(el):
                self.flush()
                stack.extend(reversed(_container(el)))
            elif tag in ("ul", "ol") and (rows := _list_rows(el)):
                self.flush()
                self.add(Block("table", rows=rows, header=True))
            elif tag in ("table", "dl"):
                self.flush()
                # Nested tables (sub-schemas shown inside a cell) follow as tables of their own.
                nested = self._table(el) if tag == "table" else self._definitions(el)
                stack.extend(reversed(nested))
            else:
                if tag == "a" and (target := link_target(el)):
                    self.run_links.append(target)
                brk = tag in _BREAKS and not (tag == "button" and _inline_button(el))
                if brk:
                    stack.append(None)
                stack.extend(reversed(list(el)))  # type: ignore[call-overload]
                if el.text and el.text.strip():  # type: ignore[attr-defined]
                    stack.append(el.text)  # type: ignore[attr-defined]
                    stack.append(_Owner(el))
                if brk:
                    stack.append(None)

    def _open_section(self, section: object, lead: object) -> None:
        level = self._nested_level(lead, _HEADINGS[tag_name(lead)])
        self.sections.append(Block("heading", _heading_text(lead), level=level))

    def _nested_level(self, heading: object, level: int) -> int:
        """A section's leading heading inside another heading's section is one level below that heading
        however it is tagged ("Headers", an h4, inside the h4 "Response schema"'s section): the markup
        nests it. Any other heading keeps its own level."""
        if len(self.sections) < 2 or leading_heading(heading.getparent()) is not heading:  # type: ignore[attr-defined]
            return level
        outer = self.sections[-2]
        return min(6, outer.level + 1) if level <= outer.level else level

    def _close_section(self, section: object) -> None:
        """A heading's section ends with its `<section>`: what follows inside the section around it is that
        section's heading's again ("Headers" over a response's header table, then its body's fields, both
        under "Response schema"), so that heading is read again there."""
        self.sections.pop()
        if self.sections and followed(section):
            self.flush()
            outer = self.sections[-1]
            self.add(Block("heading", outer.text, level=outer.level))

    def _table(self, table: object) -> list[object]:
        rows: list[list[str]] = []
        links: list[list[str]] = []
        header = False
        nested: list[object] = []
        spanned = 0  # rows still covered by a rowspan of the last record's cells
        every = itertools.islice(table.iter("tr"), 4 * MAX_TABLE_ROWS)  # type: ignore[attr-defined]
        trs = [tr for tr in every if owner_table(tr) is table]
        for number, tr in enumerate(trs):
            cells = _cells(tr)
            row, row_links = [], []
            for cell in cells:
                nested.extend(t for t in cell.iter("table") if owner_table(t) is table)
                row.append(_text(cell, skip_tables=True) or _one_line_code(cell, table))
                row_links.append(first_link(cell, lambda a: owner_table(a) is table))
            # A first row of `th` cells, or one inside `thead` (some renderers use `td` there), is a
            # header; an empty one names no column, so the rows are read by their shape instead. So is
            # a first row whose every cell is bold where the next row's are not ("Name", "Description"
            # in `<strong>` over plain names): a header drawn in plain cells.
            bold_head = number + 1 < len(trs) and _all_bold(cells) and not _all_bold(_cells(trs[number + 1]))
            if not rows and cells and (all(c.tag.lower() == "th" for c in cells) or in_head(tr) or bold_head):
                if not any(row):
                    continue
                header = True
            # Code shown inside a row (a response example beside its status, a body example beside
            # the body parameter) follows the table as a code block, introduced by the row's first
            # cell so that its status or name labels it.
            for cell in cells:
                code = [p for p in cell.iter("pre") if owner_table(p) is table]
                if code and row and row[0]:
                    nested.append(Block("text", row[0]))
                    nested.extend(code)
            # A schema drawn in a cell as one block per field ("name (type, optional): description", an
            # object's fields inside its block) follows the table as a field table, introduced by the row's
            # first cell (its body's name; a status as "200 response", so that a run of statuses before it is
            # no strip of tabs whose first one's the schema would be).
            if rows and row and row[0]:
                for cell in cells[1:]:
                    if (fields := cell_field_rows(cell)) is not None:
                        if self._marks_optional(table):  # read the page only where a cell draws fields
                            fields = cell_field_rows(cell, optional_marked=True)
                        status = is_status_code(row[0])
                        nested.append(Block("text", f"{row[0].strip()} response" if status else row[0]))
                        nested.append(Block("table", rows=fields, header=True))
            if spanned > 0 and rows:
                # A cell of an earlier row spans this one (rowspan): one record drawn on two rows,
                # the name on the first and the description below it.
                rows[-1].extend(row)
                links[-1].extend(row_links)
                spanned -= 1
                continue
            rows.append(row)
            links.append(row_links)
            spanned = max((row_span(c) for c in cells), default=1) - 1
            if len(rows) >= MAX_TABLE_ROWS:
                break
        if rows and not header and len(rows) > 1 and is_column_row(rows[0], rows[1]):
            header = True  # a header row drawn in plain cells ("name | location | description | required")
        if header and len(rows) > 1 and (spilled := spilled_rows(table, len(rows[0]))):
            # A cell's line break closed the (Markdown) table: its last cell's rest and its later rows follow
            # as paragraphs of pipe-separated text.
            if spilled.continued:
                rows[-1][-1] = f"{rows[-1][-1]} {spilled.continued}".strip()
            rows.extend(spilled.rows[: MAX_TABLE_ROWS - len(rows)])
            links.extend([""] * len(row) for row in spilled.rows[: MAX_TABLE_ROWS - len(links)])
            self.spilled.update(spilled.paragraphs)
        if rows:
            self.add(Block("table", rows=rows, header=header, cell_links=links))
        # Only the outermost nested tables: deeper ones are reached when those are walked.
        return nested

    def _marks_optional(self, table: object) -> bool:
        """Whether the page marks some field "optional" in a cell's field blocks (read once a page)."""
        if self.optional_marked is None:
            root = table.getroottree().getroot()  # type: ignore[attr-defined]
            self.optional_marked = marks_optional(root)
        return self.optional_marked

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


def _link_card(element: object) -> bool:
    """Whether an element is a link to another page drawn around block content (a pager's "Next: Pets,
    Everything about your pets", a card): what it says is the other page's, not this one's."""
    if tag_name(element) != "a" or (element.get("href") or "#").startswith("#"):  # type: ignore[attr-defined]
        return False
    inside = itertools.islice(element.iterdescendants(), MAX_ITEM_ELEMENTS)  # type: ignore[attr-defined]
    return any(tag_name(d) in ("p", "div", "h1", "h2", "h3", "h4", "h5", "h6") for d in inside)


def _control(element: object) -> bool:
    """Whether a run that starts inside the element is a control's label, navigation or a term's
    definition (see `Block.control`)."""
    return (
        tag_name(element) in ("button", "footer")  # a page's footer: the site's credits, never an operation's words
        or _link_card(element)
        or _term_definition(element)
        or _contents_list(element)
    )


def _contents_list(element: object) -> bool:
    """Whether an element is a list of links to places in pages and nothing else ("Request", "Query
    parameters", "200 OK", each a link to its heading's anchor): a table of contents, whose items name
    headings, not the parts or schemas of the operation nearest to them."""
    if tag_name(element) not in ("ul", "ol"):
        return False
    links = list(itertools.islice(element.iterdescendants("a"), MAX_ITEM_ELEMENTS))  # type: ignore[attr-defined]
    if len(links) < 2 or not all("#" in (a.get("href") or "") for a in links):
        return False
    shown = "".join(element.text_content().split())  # type: ignore[attr-defined]
    return shown == "".join("".join(a.text_content().split()) for a in links)


def _term_definition(element: object) -> bool:
    """Whether an element is a `<dfn>` around block content: a term's definition drawn apart (a badge's
    popup, "Deprecated": "No longer supported, …"; a glossary entry), the page's words about the term,
    never about an operation."""
    if tag_name(element) != "dfn":
        return False
    inside = itertools.islice(element.iterdescendants(), MAX_ITEM_ELEMENTS)  # type: ignore[attr-defined]
    return any(tag_name(d) in ("p", "div", "ul", "ol") for d in inside)


def _section_button(button: object) -> str:
    """The caption of a button that leads a `<section>` holding more after it ("Parameters", then the
    parameters): a disclosure that opens and closes the section, so its heading; "" for any other button."""
    parent = button.getparent()  # type: ignore[attr-defined]
    if tag_name(parent) != "section" or (parent.text or "").strip():  # type: ignore[union-attr]
        return ""
    children = [c for c in parent if isinstance(c.tag, str)]  # type: ignore[union-attr]
    if len(children) < 2 or children[0] is not button:
        return ""
    caption = " ".join(button.text_content().split())  # type: ignore[attr-defined]
    return caption if 0 < len(caption) <= 80 else ""


def _inline_button(button: object) -> bool:
    """Whether a button stands inside a phrasing element right after text ("array<", then a button
    "object", then ">"): a word of the run it sits in."""
    parent = button.getparent()  # type: ignore[attr-defined]
    if parent is None or not isinstance(parent.tag, str) or parent.tag.lower() not in _PHRASING:
        return False
    before = button.getprevious()  # type: ignore[attr-defined]
    text = parent.text if before is None else before.tail
    return bool(text and text.strip())


def _is_permalink(el: object, tag: str) -> bool:
    """A heading's or term's own link mark ("¶"), which is not part of its text; or a link right after
    a heading to that heading's own id, whatever it says ("Section titled “Responses”", a label for
    screen readers): the heading's permalink, not a run of the page's text."""
    if tag != "a":
        return False
    if el.text_content().strip() in _PERMALINKS:  # type: ignore[attr-defined]
        return True
    href = el.get("href") or ""  # type: ignore[attr-defined]
    if _links_own_heading(el, href):
        return True
    before = el.getprevious()  # type: ignore[attr-defined]
    while before is not None and not isinstance(before.tag, str):
        before = before.getprevious()
    return (
        len(href) > 1
        and href.startswith("#")
        and before is not None
        and before.tag.lower() in _HEADINGS
        and before.get("id") == href[1:]
    )


def _cells(tr: object) -> list[object]:
    return [c for c in tr if isinstance(c.tag, str) and c.tag.lower() in ("td", "th")]  # type: ignore[attr-defined]


def _all_bold(cells: list[object]) -> bool:
    """Whether every cell shows text and all of it is bold (`<strong>`, `<b>`, `<th>`)."""
    if not cells:
        return False
    for cell in cells:
        shown = "".join(cell.text_content().split())  # type: ignore[attr-defined]
        bold = "".join(
            "".join(b.text_content().split())
            for b in cell.iter("strong", "b", "th")  # type: ignore[attr-defined]
            if not any(up.tag in ("strong", "b") for up in b.iterancestors() if up is not cell)
        )
        if not shown or bold != shown:
            return False
    return True


def _links_own_heading(el: object, href: str) -> bool:
    """A link inside a heading to that heading's own id ("api/pets.html#request" in `<h2 id="request">`),
    beside the heading's own words: its permalink, whatever it says (a label for screen readers that
    repeats the heading: "Request Request" would be read). A heading that is one link keeps it."""
    if "#" not in href or re.match(r"[a-z][a-z0-9+.-]*:", href, re.I):
        return False
    fragment = href.rsplit("#", 1)[1]
    ancestors = itertools.islice(el.iterancestors(), 8)  # type: ignore[attr-defined]
    heading = next((up for up in ancestors if isinstance(up.tag, str) and up.tag.lower() in _HEADINGS), None)
    if heading is None or not fragment or heading.get("id") != fragment:
        return False
    return bool(heading.text_content().replace(el.text_content(), "", 1).strip())  # type: ignore[attr-defined]


def _container(dl: object) -> list[object]:
    """A container list's terms become headings below the page's own (h1–h6), one level deeper per
    list they sit in, so each term heads the section its description holds; descriptions are walked."""
    depth = sum(1 for _ in itertools.islice(dl.iterancestors("dl"), 20))  # type: ignore[attr-defined]
    out: list[object] = []
    for child in dl:  # type: ignore[attr-defined]
        tag = child.tag.lower() if isinstance(child.tag, str) else ""
        if tag == "dt":
            out.append(Block("heading", _text(child), level=7 + depth))
        elif tag == "dd":
            out.append(child)
    return out


def _list_rows(ul: object) -> list[list[str]] | None:
    """A list whose every item documents one field ("id (integer, required) – the pet's id") or one
    status ("200 OK – pet response") as a table with a header row; None for any other list. Fields
    drawn "name: required (type) …", their own fields in lists inside them, are `colon_field_rows`'."""
    if (rows := colon_field_rows(ul)) is not None:
        return rows
    items = [c for c in ul if isinstance(c.tag, str) and c.tag.lower() == "li"]  # type: ignore[attr-defined]
    if not items or len(items) > MAX_TABLE_ROWS:
        return None
    fields: list[list[str]] = []
    statuses: list[list[str]] = []
    for li in items:
        # Code or a table inside an item is content of its own, to be walked (a status with its
        # example); a nested list is part of a description (allowed values). Only the item's first
        # elements are looked at, so hostile nesting costs no more than its size.
        inside = itertools.islice(li.iter(), MAX_ITEM_ELEMENTS)
        if any(isinstance(g.tag, str) and g.tag.lower() in ("table", "pre") for g in inside):
            return None
        text = _text(li, max_elements=MAX_ITEM_ELEMENTS)
        found = _FIELD_ITEM.match(text)
        if found and _META_WORDS.search(found.group(2)):
            meta = found.group(2).strip()
            fields.append([found.group(1), meta, meta, found.group(3).strip()])
            continue
        status = _STATUS_ITEM.match(text)
        if status and (status.group(2).strip() or status.group(3)):  # a bare "200" is a tab, not a row
            statuses.append([(status.group(1) + status.group(2)).strip(), (status.group(3) or "").strip()])
            continue
        return None
    if fields and not statuses:
        return [["name", "type", "required", "description"], *fields]
    if statuses and not fields:
        return [["status", "description"], *statuses]
    return None


def _heading_text(heading: object) -> str:
    """A heading's text less a last link to another place of the page after its name ("Pet - Up",
    "Pet | back to top"): navigation, not part of the name. A heading that is one link keeps it. Leading
    arrows or shapes ("▶ 200 - OK") are dropped."""
    text = _LEADING_MARKS.sub("", _text(heading))
    children = [c for c in heading if isinstance(c.tag, str)]  # type: ignore[attr-defined]
    last = children[-1] if children else None
    if last is None or last.tag.lower() != "a" or not (last.get("href") or "").startswith("#"):
        return text
    shown = " ".join(last.text_content().split())
    if not shown or (last.tail and last.tail.strip()) or not text.endswith(shown):
        return text
    return text[: -len(shown)].rstrip(" -–—|·:") or text


def _one_line_code(cell: object, table: object) -> str:
    """A cell's text where it shows nothing but a code block of one short line: a Schema column's type drawn as
    code ("integer" in a `pre`, since issue 17's twenty-second round), which a cell's text otherwise leaves to
    the blocks after the table."""
    code = [p for p in cell.iter("pre") if owner_table(p) is table]  # type: ignore[attr-defined]
    if len(code) != 1:
        return ""
    shown = code[0].text_content().strip()  # type: ignore[attr-defined]
    return shown if shown and "\n" not in shown and len(shown) <= _ONE_LINE_CODE_CHARS else ""


_ONE_LINE_CODE_CHARS = 40


def _text(el: object, *, skip_tables: bool = False, max_elements: int | None = None) -> str:
    """Text of an element with a space between its pieces ("id" + "required" → "id required");
    with `skip_tables`, less the tables and code blocks inside it (they follow as blocks of their
    own); with `max_elements`, of its first elements only."""
    parts: list[str] = []
    stack: list[object] = [el]
    first = True
    visited = 0
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        visited += 1
        if max_elements is not None and visited > max_elements:
            break
        tag = item.tag.lower() if isinstance(item.tag, str) else ""  # type: ignore[attr-defined]
        if not first and item.tail:  # type: ignore[attr-defined]
            stack.append(item.tail)  # type: ignore[attr-defined]
        if tag == "wbr":
            parts.append(_GLUE)
        if tag == "select":
            parts.append(_shown_option(item))
            first = False
            continue
        if (
            not tag
            or tag in _SKIP
            or (skip_tables and tag in ("table", "pre") and not first)
            or _is_permalink(item, tag)
        ):
            first = False
            continue
        first = False
        stack.extend(reversed(list(item)))  # type: ignore[call-overload]
        if item.text:  # type: ignore[attr-defined]
            stack.append(item.text)  # type: ignore[attr-defined]
        if sum(len(p) for p in parts) > MAX_BLOCK_CHARS:
            break
    return " ".join(_glued(" ".join(parts)).split())[:MAX_BLOCK_CHARS]


def _code_text(pre: object) -> str:
    """A code block's text. Code drawn one element per line (`<pre><div>{</div><div>  "id": 1</div>`),
    with no line break in its text, keeps its lines, and a gutter of line numbers drawn as elements of
    their own ("1", "{", "2", "  \"id\": 1", …) is no part of the code."""
    text: str = pre.text_content()  # type: ignore[attr-defined]
    # Only code with no line break of its own: elements inside code that has them are its content
    # (an example's HTML string drawn as paragraphs).
    lines_drawn = any(isinstance(d.tag, str) and d.tag.lower() in _LINE_TAGS for d in pre.iterdescendants())  # type: ignore[attr-defined]
    if "\n" in text or not lines_drawn:
        return text
    parts: list[str] = []
    stack: list[object] = [pre]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        if item is None:  # a line element starts or ends: a line break, unless one is already there
            if parts and not parts[-1].endswith("\n"):
                parts.append("\n")
            continue
        tag = item.tag.lower() if isinstance(item.tag, str) else ""  # type: ignore[attr-defined]
        if item is not pre and item.tail:  # type: ignore[attr-defined]
            stack.append(item.tail)  # type: ignore[attr-defined]
        if tag == "br":
            parts.append("\n")
            continue
        line = tag in _LINE_TAGS
        if line:
            stack.append(None)
        stack.extend(reversed(list(item)))  # type: ignore[call-overload]
        if item.text:  # type: ignore[attr-defined]
            stack.append(item.text)  # type: ignore[attr-defined]
        if line:
            stack.append(None)
    return "\n".join(_without_gutter("".join(parts).strip("\n").split("\n")))


def _without_gutter(lines: list[str]) -> list[str]:
    """Lines less a gutter of line numbers drawn as lines of their own: "1", then the first line, "2",
    then the second, and so on (a blank line of code leaves two numbers in a row). Only when the
    first line is "1" and the numbers are at least as many as the lines they number."""
    if not lines or lines[0].strip() != "1":
        return lines
    kept, expected = [], 1
    for line in lines:
        if line.strip() == str(expected):
            expected += 1
            continue
        kept.append(line)
    numbered = expected - 1
    shown = sum(1 for line in kept if line.strip())
    return kept if numbered >= 2 and 0 < shown <= numbered else lines


def _shown_option(select: object) -> str:
    """What a drop-down shows: its selected option, else its first. The other options are choices a
    reader must open it to see ("cURL", not "cURL JavaScript Python …"), never a run of prose."""
    options = list(select.iter("option"))  # type: ignore[attr-defined]
    chosen = next((o for o in options if o.get("selected") is not None), None)
    if chosen is None and _method_choice(options):
        # A console's method picker ("GET POST PUT …") with no option marked: the script that drew the page
        # chose one (the operation's own) without writing it into the markup, so what it shows is unknown;
        # its first option is no stated method.
        return ""
    shown = chosen if chosen is not None else (options[0] if options else None)
    return " ".join(shown.text_content().split()) if shown is not None else ""


def _method_choice(options: list) -> bool:
    """Whether a drop-down's options are HTTP methods, three or more of them: a request console's picker."""
    words = [" ".join(o.text_content().split()) for o in options]
    return len(words) >= 3 and all(is_method(word) for word in words)


def _glued(text: str) -> str:
    """The pieces a `<wbr>` split joined again, with no space between them, and without zero-width
    characters (a break opportunity or joiner a reader never sees, which Python's `split` keeps as
    text: "\u200b string" would be no type run)."""
    text = text.translate(_ZERO_WIDTH)
    return _AROUND_GLUE.sub("", text) if _GLUE in text else text
