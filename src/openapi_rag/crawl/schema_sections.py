"""The page's schema sections: headings outside every operation that head a field table ("Pet",
"#/components/schemas/Pet", "2.3. Pet", "Pet: object"), or an outline of "name: type" terms.

Operations name them ("Schema: Pet", a lone "Pet" under a status, a Datatype column) and take their
fields; a page-wide section also states field types that retype fields an example showed.
"""

from __future__ import annotations

import re
from dataclasses import replace

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.schema_runs import POINTER_RUN
from openapi_rag.crawl.tables import FieldRow, field_rows, is_status_table, normalize_type

_BARE_TERM = re.compile(r"([A-Za-z_$@][\w.\-$@]{0,99}):")
_BARE_NAME = re.compile(r"[A-Za-z_][\w.-]{0,99}")
_BADGED_NAME = re.compile(r"[A-Z]{2,12}\s+[A-Za-z_][\w.-]{0,99}")
_SLUG = re.compile(r"[^A-Za-z0-9]")
_TERM_TYPE = re.compile(r"([A-Za-z_][\w.-]{0,99}?)(?:\[\])?")
_TYPE_WORDS = {
    "string", "integer", "number", "boolean", "object", "array", "null", "file", "int", "int32", "int64",
    "long", "float", "double", "date", "date-time", "datetime", "any", "map", "list", "uuid", "binary",
}  # fmt: skip
FIELD_TERM = re.compile(r"([A-Za-z_$@][\w.\-$@]{0,99}):\s+([\w\[\]<>()-]{1,40})(?:\s.*)?", re.S)
# "Pet", "#/components/schemas/Pet", "Pet: object", and numbered as manuals number sections ("2.3. Pet").
SCHEMA_HEADING = re.compile(
    r"(?:\d+(?:\.\d+)*\.?\s+)?(?:#/[\w./-]*/)?([A-Za-z_][\w.-]{0,99})(?::\s*(?:[a-z]+)?)?"
)


def schema_sections(blocks: list[Block], taken: set[int]) -> dict[str, list[FieldRow]]:
    """Headings outside every operation that head a field table: the page's named schemas."""
    out: dict[str, list[FieldRow]] = {}
    parts: dict[str, list[str]] = {}  # schemas a section takes in whole (allOf), shown as lone links
    read_to = 0  # an outline's terms are read once: a term is no section heading of its own (bounded)
    grouping: dict[str, list[FieldRow]] = {}  # sections whose table lies in an operation's part
    for i, block in enumerate(blocks):
        if block.kind != "heading" or i in taken or i < read_to:
            continue
        # "Pet", a JSON pointer to it ("#/components/schemas/Pet", "#/definitions/Pet"), or the name
        # and its type ("Pet: object").
        named = SCHEMA_HEADING.fullmatch(block.text)
        if named is None:
            continue
        inside = blocks[i + 1 : i + 30]
        # An operation's part starting before the table: the heading may group operations (a tag's "Asset" over
        # "POST /Assets" and its body parameter's table); a section of the same name outside every operation (the
        # model "Asset") is the schema, where the page has one (thirty-sixth round).
        found = out
        for at, nxt in enumerate(inside):
            if nxt.kind == "heading" and nxt.level <= block.level:
                break
            if i + 1 + at in taken:
                found = grouping
            if (
                nxt.kind == "text"
                and _is_lone_link(nxt)
                and not any(b.kind == "heading" for b in inside[:at])
            ):
                # A link alone before the section's own fields ("Pet:", then "NewPet", then "id"):
                # a schema whose fields this one has too, as allOf composes them.
                parts.setdefault(named.group(1), []).append(nxt.links[0])
            if nxt.kind == "table" and not is_status_table(nxt.rows, nxt.header):
                rows = field_rows(nxt.rows, nxt.header, nxt.cell_links)
                if rows:
                    found.setdefault(named.group(1), rows + _drawn_inside(inside[at + 1 :], nxt))
                    break
            if nxt.kind == "heading" and is_field_heading(nxt):
                rows, read_to = _term_rows(blocks, i + 1, block.level)
                found.setdefault(named.group(1), rows)
                break
    for name, rows in grouping.items():
        out.setdefault(name, rows)
    return _with_parts(out, parts)


def _drawn_inside(following: list[Block], first: Block) -> list[FieldRow]:
    """The fields of the tables right after a schema's first table with the same header row (its fields'
    own fields, drawn as tables inside its cells, which follow it as tables of their own)."""
    rows: list[FieldRow] = []
    for block in following:
        if block.kind != "table" or not first.header or not block.header or block.rows[:1] != first.rows[:1]:
            break
        rows.extend(field_rows(block.rows, block.header, block.cell_links))
    return rows


def _with_parts(out: dict[str, list[FieldRow]], parts: dict[str, list[str]]) -> dict[str, list[FieldRow]]:
    """Each section with the fields of the sections it takes in whole put first, and theirs, down to
    `_PART_LEVELS` levels (a response's section taking a schema that takes another: bounded, no cycle)."""
    own = {name: list(rows) for name, rows in out.items()}

    def taken_in(name: str, seen: tuple[str, ...]) -> list[FieldRow]:
        rows: list[FieldRow] = []
        for target in parts.get(name, [])[:5]:
            part = schema_named(target, own) or schema_named(target, parts)
            if part and part not in seen and len(seen) <= _PART_LEVELS:
                rows.extend(taken_in(part, (*seen, part)) + [replace(row) for row in own.get(part, [])])
        return rows

    for name in parts:
        if rows := taken_in(name, (name,)):
            out[name] = rows + own.get(name, [])
    return out


_PART_LEVELS = 3


def _term_rows(blocks: list[Block], start: int, level: int) -> tuple[list[FieldRow], int]:
    """A schema section drawn as an outline of "name: type" terms (a definition list per level), each
    term's description the text under it; nesting from the terms' depth. Also the index it read to."""
    rows: list[FieldRow] = []
    top = 0
    end = min(len(blocks), start + 2_000)
    for index in range(start, end):
        block = blocks[index]
        if block.kind == "heading" and block.level <= level:
            return rows, index
        if block.kind == "heading" and block.level > 6 and (term := FIELD_TERM.fullmatch(block.text)):
            top = top or block.level
            depth, type_ = max(0, block.level - top), normalize_type(term.group(2))
            rows.append(FieldRow(term.group(1), depth, type=type_, ref=term_ref(term.group(2))))
        elif block.kind == "heading" and block.level > 6 and (bare := _BARE_TERM.fullmatch(block.text)):
            # "album:" with no type stated: what its description links to says it (below).
            top = top or block.level
            rows.append(FieldRow(bare.group(1), max(0, block.level - top), type="object"))
        elif block.kind == "table" and rows and (nested := _term_table(block.rows, rows[-1].depth + 1)):
            # The innermost definition list, its descriptions plain text, is drawn as a table of
            # "name: type" terms: the fields of the term above it ("updates: object[]").
            rows.extend(nested)
        elif block.kind == "text" and rows and not rows[-1].ref and _is_lone_link(block):
            # A link alone under a term ("SimplifiedAlbumObject" -> #/definitions/...) names the
            # field's schema: its fields come from that section (followed downstream, bounded).
            rows[-1].ref = block.links[0]
        elif block.kind == "text" and rows and not rows[-1].description:
            rows[-1].description = block.text
    return rows, end


def term_ref(stated: str) -> str:
    """The schema a term's type names when it is no type word ("tracks: PagingTrackObject", "error:
    ErrorObject", "Pet[]"): followed as a type cell's link is, when the page has that section."""
    named = _TERM_TYPE.fullmatch(stated)
    return named.group(1) if named and named.group(1).lower() not in _TYPE_WORDS else ""


def _term_table(table: list[list[str]], depth: int) -> list[FieldRow]:
    """Rows of a table whose every first cell is a "name: type" term, one level deeper; else none."""
    terms = [(FIELD_TERM.fullmatch(row[0].strip()), row) for row in table if row]
    if not terms or not all(term for term, _ in terms):
        return []
    return [
        FieldRow(
            term.group(1),
            depth,
            type=normalize_type(term.group(2)),
            description=" ".join(row[1:]).strip(),
        )
        for term, row in terms
        if term
    ]


def schema_named(name: str, schemas: dict[str, list[FieldRow]]) -> str | None:
    """The page schema a name stands for: itself, or the section a link's lower-case anchor names
    ("pet" -> "Pet", "new-pet" -> "NewPet")."""
    if not name or name in schemas:
        return name or None
    key = _SLUG.sub("", name).lower()
    return next((known for known in schemas if _SLUG.sub("", known).lower() == key), None)


def _is_lone_link(block: Block) -> bool:
    """A run that is one link and nothing else: one word, the link's whole text, perhaps after a badge in
    capitals that says what the item is ("REF NewPet", an allOf part drawn as a reference), or a reference
    as a keyword run ("ref: #/components/schemas/NewPet")."""
    if len(block.links) != 1:
        return False
    # A reference drawn as JSON Schema's keyword and a pointer ("ref: #/components/schemas/NewPet") is one too.
    return any(p.fullmatch(block.text) is not None for p in (_BARE_NAME, _BADGED_NAME, POINTER_RUN))


def is_field_heading(block: Block) -> bool:
    # Only terms of an outline list (levels below h6): a page's own h1–h6 "Pet: object" heads a schema.
    return block.level > 6 and FIELD_TERM.fullmatch(block.text) is not None
