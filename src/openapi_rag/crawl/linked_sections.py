"""Sections a link lands on: a response's "Type: Property" links to an id set on the heading of the page's
section for that schema ("Property Model Structure", `<span id="d-1"></span>` right before it), whose words
name no schema the way a schema heading does; the link's target names it. Issue 17's twenty-seventh round."""

from __future__ import annotations

from openapi_rag.crawl.anchors import linked_label
from openapi_rag.crawl.page import Block
from openapi_rag.crawl.schema_sections import schema_named
from openapi_rag.crawl.tables import SCALARS, FieldRow, field_rows, is_status_table

_SECTION_BLOCKS = 400  # blocks read under a heading (bounded)


def linked_sections(
    blocks: list[Block], taken: set[int], schemas: dict[str, list[FieldRow]]
) -> dict[str, list[FieldRow]]:
    """Target → fields, outside every operation, for what a link on the page lands on and no section the other
    rules read stands for: a heading (by an id of its own, `Block.ids`), its fields those of the first field
    table under it; a label carrying the anchor ("Profiles schema:", `Block.anchor`), its fields those of the
    table right after it (its nested objects' tables are such labels' too, their anchors linked from its rows)."""
    linked = {link for b in blocks for link in b.links} | {
        link for b in blocks for row in b.cell_links for link in row if link
    }
    out: dict[str, list[FieldRow]] = {}
    for i, block in enumerate(blocks):
        if i in taken:
            continue
        if block.kind == "table" and (at := linked_label(blocks, i, linked)) is not None:
            if schema_named(blocks[at].anchor, schemas) is None and (found := _fields(block)):
                out.setdefault(blocks[at].anchor, found)
            continue
        if block.kind != "heading" or not block.ids:
            continue
        targets = [t for t in block.ids if t in linked and schema_named(t, schemas) is None and t not in out]
        rows = _first_fields(blocks, i) if targets else []
        if rows and not _alias(block, rows):
            out.update(dict.fromkeys(targets, rows))
    return out


def _fields(table: Block) -> list[FieldRow]:
    if is_status_table(table.rows, table.header):
        return []
    return field_rows(table.rows, table.header, table.cell_links)


def _first_fields(blocks: list[Block], i: int) -> list[FieldRow]:
    """The fields of the first field table right under heading `i`, before any other heading (a page's title that
    a "back to top" link lands on heads the page, not the first table's schema)."""
    for block in blocks[i + 1 : i + 1 + _SECTION_BLOCKS]:
        if block.kind == "heading":
            return []
        if block.kind == "table" and not is_status_table(block.rows, block.header):
            return field_rows(block.rows, block.header, block.cell_links)
    return []


def _alias(heading: Block, rows: list[FieldRow]) -> bool:
    """A section of one row named as its heading's first word, of a scalar type ("image-path Model Structure":
    "image-path | string"): a scalar schema drawn as a field of its own name, no object of fields."""
    words = heading.text.split()
    return len(rows) == 1 and bool(words) and rows[0].name == words[0] and rows[0].type in SCALARS
