"""Schemas the page documents as one type, no fields: a section headed by a schema's name that states a type other
than an object ("SocialSecurityNumber: string" as a heading; "Gender", then "Type: string | null"; "Tags", then
"type: array"), or that lists only the values it allows (a one-column "Enum Values" table: a string's, an integer's),
or whose one table is a field table's header with no row (an enum's model page; fortieth round).
A field whose type cell names such a schema (a link, "SocialSecurityNumber") is of that type, not an object.
Issue 17's thirty-ninth round."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.schema_sections import schema_named
from openapi_rag.crawl.tables import SCALARS, FieldRow, normalize_type

_BLOCKS_UNDER = 3  # runs read under a heading for its stated type (a description may come first)
# The heading's name, perhaps as a JSON pointer, and the type it states after a colon ("Gender: string , x ∈ {…}").
_NAME = r"(?:#/[\w./-]*/)?([A-Za-z_][\w.-]{0,99})"
_HEADING_TYPE = re.compile(_NAME + r"\s*:\s*(\S.*)", re.S)
_HEADING_NAME = re.compile(_NAME)
# A run that only states the type under JSON Schema's keyword ("Type: string | null", "type: array").
_TYPE_RUN = re.compile(r"type\s*:\s*(\S.{0,79})", re.I | re.S)
# The type a text starts with: a word, its parameters ("Array<string>", "integer(int64)"), list marks ("Pet[]") or
# what it is a list of ("array of string"); what follows it, if anything, is no word ("string | null", "string ,
# x ∈ {…}"): "Date of birth" states no type.
_LEADING_TYPE = re.compile(
    r"([A-Za-z][\w-]*(?:\s*[<(\[][^>)\]]{0,60}[>)\]])?(?:\[\])*"
    r"(?:(?:(?<=[Aa]rray)|(?<=[Ll]ist))\s+of\s+[A-Za-z][\w-]*)?)(?![\w-])(?!\s+[A-Za-z])"
)
_TYPED = SCALARS | {"array"}
# The one column of a table that lists a schema's allowed values.
_ENUM_HEADERS = [["enum values"], ["enum"], ["allowed values"], ["possible values"], ["values"]]
_INTEGER = re.compile(r"-?\d{1,18}")


def stated_type(text: str) -> str | None:
    """The type a text starts by naming ("string | null", "Array<string>", "object[]", "integer (int64)",
    "Address[]"), when not an object (a schema's name, "Pet", stands for one)."""
    leading = _LEADING_TYPE.match(text.strip())
    type_ = normalize_type(leading.group(1)) if leading else None
    return type_ if type_ in _TYPED else None


def scalar_sections(blocks: list[Block]) -> dict[str, str]:
    """Schema name -> the one type its section states, for headings that state a type other than an object, in
    their own words or in a run right under them, with no table before the next heading (bounded). Read on the
    page's blocks as parsed, before runs of names and types become tables."""
    out: dict[str, str] = {}
    for i, block in enumerate(blocks):
        if block.kind != "heading" or block.level > 6:
            continue
        text = block.text.strip()
        if said := _HEADING_TYPE.fullmatch(text):
            names, type_ = [said.group(1)], stated_type(said.group(2))
        else:
            named = _HEADING_NAME.fullmatch(text)
            # A heading that names the schema in other words ("3.12. Currency Currency") is named by the ids a
            # link lands on at it.
            names = [named.group(1)] if named else list(block.ids)
            if not names:
                continue
            if (type_ := _enum_under(blocks, i)) is not None:
                for name in names:
                    out.setdefault(name, type_)
                continue
            type_ = _type_under(blocks, i) if named else None
            if named and type_ is None and _empty_table_only(blocks, i):
                out.setdefault(names[0], "string")
                continue
        if type_ and not _fields_under(blocks, i, type_):
            for name in names:
                out.setdefault(name, type_)
    return out


def _enum_under(blocks: list[Block], i: int) -> str | None:
    """The type of the values of the table of enum values alone under a heading, perhaps after a description
    ("Enum Values" over "active", "inactive"): a string's, or an integer's where every value is an integer."""
    for block in blocks[i + 1 : i + 1 + _BLOCKS_UNDER]:
        if block.kind == "text":
            continue
        if block.kind != "table" or not block.header or len(block.rows) < 2:
            return None
        if [cell.strip().lower() for cell in block.rows[0]] not in _ENUM_HEADERS:
            return None
        values = [row[0].strip() for row in block.rows[1:] if row and row[0].strip()]
        if not values or any(len(row) != 1 for row in block.rows):
            return None
        return "integer" if all(_INTEGER.fullmatch(v) for v in values) else "string"
    return None


def _empty_table_only(blocks: list[Block], i: int) -> bool:
    """Whether the one table of a heading's section (down to the next heading as shallow, bounded) is a field
    table's header with no row: a generator's model page of an enum ("TimesheetStatus", "Properties", then "Name |
    Type | Description | Notes" alone), whose values it does not draw: a string's, no object of fields (issue 17's
    fortieth round)."""
    tables = _section_tables(blocks, i)
    if len(tables) != 1 or not tables[0].header or len(tables[0].rows) != 1:
        return False
    return {"name", "type"} <= {cell.strip().lower() for cell in tables[0].rows[0]}


def _type_under(blocks: list[Block], i: int) -> str | None:
    for block in blocks[i + 1 : i + 1 + _BLOCKS_UNDER]:
        if block.kind != "text":
            return None
        if said := _TYPE_RUN.fullmatch(block.text.strip()):
            return stated_type(said.group(1))
    return None


def _fields_under(blocks: list[Block], i: int, type_: str) -> bool:
    """Whether a table comes under the heading before the next one: a scalar's section has none (an array's
    may show its items' fields)."""
    return type_ != "array" and bool(_section_tables(blocks, i))


def _section_tables(blocks: list[Block], i: int) -> list[Block]:
    """The tables of the section a heading heads: down to the next heading as shallow (bounded)."""
    tables = []
    for block in blocks[i + 1 : i + 400]:
        if block.kind == "heading" and block.level <= blocks[i].level:
            break
        if block.kind == "table":
            tables.append(block)
    return tables


def retype_rows(rows: list[FieldRow], scalars: dict[str, str]) -> list[FieldRow]:
    """Rows whose type cell names a schema the page states as one type (read as an object, or as nothing), of
    that type."""
    if not scalars:
        return rows
    names: dict[str, list[FieldRow]] = dict.fromkeys(scalars, [])
    out = []
    for row in rows:
        if row.ref and row.type in (None, "object") and (name := schema_named(row.ref, names)):
            row = replace(row, type=scalars[name])
        out.append(row)
    return out


def retype_scalar_refs(blocks: list[Block], operations: list[Any], schemas: dict[str, list[FieldRow]]) -> None:
    """Retype, in place, the rows of the page's schemas and of its operations' evidence (`scrape.Evidence`: params,
    response fields, sections) whose type cell names a schema the page states as one type, no fields."""
    scalars = {
        name: type_
        for name, type_ in scalar_sections(blocks).items()
        if type_ == "array" or not schemas.get(name)
    }
    if not scalars:
        return
    for name, rows in schemas.items():
        schemas[name] = retype_rows(rows, scalars)
    for evidence in operations:
        evidence.params = [(kind, retype_rows([row], scalars)[0]) for kind, row in evidence.params]
        evidence.response_fields = {s: retype_rows(rows, scalars) for s, rows in evidence.response_fields.items()}
        evidence.sections = {name: retype_rows(rows, scalars) for name, rows in evidence.sections.items()}
