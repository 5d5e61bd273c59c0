"""Brackets a page draws around every link: a page that writes a list as "List of [Address]" (a word for the list,
the brackets around the link's name) draws an object's link as "[Address]" too, so a type cell that is a bracketed
link alone names one schema, no list of it. Issue 17's thirty-ninth round."""

from __future__ import annotations

import re
from dataclasses import replace

from openapi_rag.crawl.page import Block

# A type cell that says a list in words around a bracketed name ("List of [Address]", "Array of [string]").
_LIST_OF_BRACKETED = re.compile(r"(?:list|array|set|collection)\s+of\s+\[\s*[\w.-]{1,100}\s*\]", re.I)
_BRACKETED = re.compile(r"\[\s*([\w.-]{1,100})\s*\]")


def unbracket_links(blocks: list[Block]) -> list[Block]:
    """The blocks with each table cell that is a link's bracketed name alone ("[ip_info_warmup]", its link in the
    cell) shown as the name, on pages whose tables write lists as "List of [X]"."""
    if not any(
        _LIST_OF_BRACKETED.fullmatch(cell.strip())
        for block in blocks
        if block.kind == "table"
        for row in block.rows
        for cell in row
    ):
        return blocks
    out = []
    for block in blocks:
        if block.kind == "table" and block.cell_links:
            rows = [
                [_unbracketed(cell, links, i) for i, cell in enumerate(row)]
                for row, links in zip(block.rows, _padded(block.cell_links, len(block.rows)), strict=True)
            ]
            if rows != block.rows:
                block = replace(block, rows=rows)
        out.append(block)
    return out


def _padded(links: list[list[str]], count: int) -> list[list[str]]:
    return [links[i] if i < len(links) else [] for i in range(count)]


def _unbracketed(cell: str, links: list[str], i: int) -> str:
    bracketed = _BRACKETED.fullmatch(cell.strip())
    return bracketed.group(1) if bracketed and i < len(links) and links[i] else cell
