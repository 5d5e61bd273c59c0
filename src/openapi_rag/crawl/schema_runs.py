"""Schemas drawn as runs of JSON Schema's own keywords, one "key: value" a run, around field tables:

    name | location | description | required        type: object
    limit | query | max results | False             Required: ['name', 'id']
    Schema                                          Property | Type
    type: integer                                   name     | type: string
    format: int32                                   id       | type: integer

    ref: #/components/schemas/Pet

A schema's keywords shown as the spec writes them: a parameter's schema after its table, a schema's
`required` list before its properties' table. Each is read into the table: it gains a Type or a
Required column. A `$ref` as a run of its own (`POINTER_RUN`) is a link alone to the schema's
section (`schema_sections`), no prose (`scrape`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from openapi_rag.crawl.links import COMPONENT_POINTER
from openapi_rag.crawl.page import Block
from openapi_rag.crawl.tables import column_roles

# A reference as a run of its own ("ref: #/components/schemas/Pet", "$ref: #/definitions/Pet", "ref:
# #/components/parameters/limit"): a JSON pointer to a named part of the spec (`COMPONENT_POINTER`).
POINTER_RUN = re.compile(r"\$?ref\s*:\s*(" + COMPONENT_POINTER.pattern + ")", re.I)
# A schema's type as a keyword run ("type: integer", "type: array").
_TYPE_RUN = re.compile(r"type\s*:\s*(string|integer|number|boolean|array|object)", re.I)
# A label over a schema's keyword runs ("Schema", "Schema:"): read past.
_SCHEMA_LABEL = re.compile(r"schema\s*:?", re.I)
# A schema's `required` list as a run, written as a list of quoted names ("Required: ['name', 'id']").
_REQUIRED_LIST = re.compile(r"required\s*:\s*\[((?:\s*['\"][^'\"]{1,100}['\"]\s*,?)*)\s*\]", re.I)
_QUOTED = re.compile(r"['\"]([^'\"]{1,100})['\"]")
MAX_RUNS_AFTER = 3  # runs read after a parameter's table for its schema's type
MAX_RUNS_BEFORE = 4  # runs read between a `required` list and its properties' table


def schema_runs(blocks: list[Block]) -> list[Block]:
    """The blocks with schema keyword runs read into the tables and runs around them (see the module)."""
    out = list(blocks)
    for index, block in enumerate(out):
        if block.kind == "table" and block.header:
            out[index] = _typed_after(out, index)
        elif block.kind == "text" and (listed := _REQUIRED_LIST.fullmatch(block.text.strip())):
            _mark_required(out, index, [name.strip() for name in _QUOTED.findall(listed.group(1))])
    return out


def _typed_after(blocks: list[Block], index: int) -> Block:
    """A field table of one field with no Type column, followed at once by its schema's keyword runs (a
    "Schema" label, then "type: integer"): the table with the type the first of them states."""
    table = blocks[index]
    roles = column_roles(table.rows[0])
    if (
        len(table.rows) != 2
        or "name" not in roles
        or "type" in roles
        or not roles.keys() & {"in", "required"}
    ):
        return table
    for block in blocks[index + 1 : index + 1 + MAX_RUNS_AFTER]:
        if block.kind != "text":
            break
        if _SCHEMA_LABEL.fullmatch(block.text.strip()):
            continue
        if typed := _TYPE_RUN.fullmatch(block.text.strip()):
            return _with_column(table, "type", [typed.group(1).lower()])
        break
    return table


def _mark_required(blocks: list[Block], index: int, names: list[str]) -> None:
    """The properties' table that follows a schema's `required` list (past a few short runs, "Schema
    properties") gains a Required column, when it has none: true for the names listed, false for the others."""
    for at in range(index + 1, min(len(blocks), index + 1 + MAX_RUNS_BEFORE)):
        block = blocks[at]
        if block.kind == "text" and len(block.text) <= 40:
            continue
        if block.kind != "table" or not block.header:
            return
        roles = column_roles(block.rows[0])
        if "name" not in roles or "required" in roles:
            return
        column = roles["name"]
        shown = [row[column].strip() if column < len(row) else "" for row in block.rows[1:]]
        blocks[at] = _with_column(block, "required", ["true" if name in names else "false" for name in shown])
        return


def _with_column(table: Block, header: str, values: list[str]) -> Block:
    """The table with one more column at its end: `header` over `values`, one per row below the header."""
    rows = [[*table.rows[0], header], *([*row, value] for row, value in zip(table.rows[1:], values, strict=True))]
    links = [[*row, ""] for row in table.cell_links] if table.cell_links else []
    return replace(table, rows=rows, cell_links=links)


def referenced_parameter(text: str) -> str:
    """The name of the parameter a run refers to ("ref: #/components/parameters/QueryLimit"), else ""."""
    found = POINTER_RUN.fullmatch(text.strip())
    return found.group(3) if found and found.group(2) == "parameters" else ""
