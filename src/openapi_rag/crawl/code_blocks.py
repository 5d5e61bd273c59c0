"""Code blocks as the page draws them: syntax-highlighted JSON split into many text runs joined into
one code block, a schema drawn as a tree of runs into the declarations it shows, and code blocks of
declarations or a JSON Schema read as field tables."""

from __future__ import annotations

import re

from openapi_rag.crawl.declarations import declaration_rows, declaration_runs, json_schema_rows
from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import parse_json

MAX_JSON_RUN = 100_000  # text runs joined into one JSON sample (syntax highlighters split tokens)
# One line of JSON as a viewer draws it, a string value last: `"key" : "value" ,` or `"item" ,`.
_STRING_LINE = re.compile(r'(\s*(?:"[^"\\]*"\s*:\s*)?)"(.*)"(\s*,?\s*)', re.S)


def as_declarations(block: Block) -> Block:
    """A code block of field declarations ("name?: string") or a JSON Schema is a field table; other code
    (examples among it) stays code."""
    if block.kind != "code":
        return block
    value = parse_json(block.text)
    rows = declaration_rows(block.text) if value is None else json_schema_rows(value)
    return Block("table", rows=rows, header=True, position=block.position) if rows else block


def join_json_runs(blocks: list[Block]) -> list[Block]:
    """Syntax-highlighted JSON arrives as many tiny text runs: join each such run into one code block."""
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        if block.kind == "text" and block.text[:1] in ("{", "["):
            depth, j, parts, size, tables = 0, i, [], 0, 0
            while j < len(blocks) and size < MAX_JSON_RUN:
                if blocks[j].kind == "table" and depth > 0 and parts:
                    # A table inside a tree of runs is a field's note (its enum's values drawn as "Code | Text |
                    # Description" under "status: enum"), no end of the tree: read past, as the notes between
                    # declarations are. Issue 17's thirty-ninth round.
                    tables += 1
                    size += sum(len(cell) for row in blocks[j].rows for cell in row)
                    j += 1
                    continue
                if blocks[j].kind != "text":
                    break
                text = blocks[j].text
                parts.append(text)
                size += len(text)
                depth += text.count("{") + text.count("[") - text.count("}") - text.count("]")
                j += 1
                if depth <= 0:
                    break
            value = parse_json(" ".join(parts)) if depth <= 0 and not tables else None
            if value is None and depth <= 0 and len(parts) > 1 and not tables:
                # A viewer that draws each line as a run may show strings unescaped ("name" : "Petyr
                # "Littlefinger" Baelish" ,): each line's inner quotes escaped, the JSON it stands for.
                mended = [_escaped_inner_quotes(part) for part in parts]
                if (value := parse_json(" ".join(mended))) is not None:
                    parts = mended
            if value is not None:
                out.append(Block("code", " ".join(parts), position=block.position))
                i = j
                continue
            # Or a schema drawn as a tree of runs ("{", "id: integer", "tags: [{", …, "}]", "}"): the
            # declarations a code block would hold, the notes between them ("Pattern: …") left out.
            declared = declaration_runs(parts) if depth <= 0 else None
            if declared is not None:
                out.append(Block("code", declared, position=block.position))
                i = j
                continue
        out.append(block)
        i += 1
    for index, block in enumerate(out):
        block.position = index
    return out


def _escaped_inner_quotes(line: str) -> str:
    """A line of JSON whose last string shows quotes unescaped, with them escaped; others unchanged."""
    shown = _STRING_LINE.fullmatch(line)
    if shown is None or '"' not in shown.group(2):
        return line
    inner = shown.group(2).replace('\\"', '"').replace('"', '\\"')
    return f'{shown.group(1)}"{inner}"{shown.group(3)}'
