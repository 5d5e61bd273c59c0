"""Fields drawn as runs of text rather than table rows, as many documentation pages lay them out:

    page                      tags (optional)                  code
    Type: integer             Query Parameter — tags to …      Integer format: int32
    Default  1                                                 message
    Specify which page …                                       String

A run that is only a name (with "(optional)", "(required)" or `*` beside it), followed at once by a
run that states its type ("Type: integer", "Integer format: int32", "array of object") or its
location ("Query Parameter — …"), starts a field; the runs after it, up to the next field, say
"required" or describe it. Consecutive fields become one table block (name, in, type, required,
description), so labels ("Query Parameters", "Body"), schema sections and nesting downstream treat
them as any table. A name alone, or a type word alone, stays text: both are needed.
"""

from __future__ import annotations

import re

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.tables import LOCATIONS, normalize_type

MAX_FOLLOWING = 12  # runs read after a field's type run for "required" and its description
_NAME_RUN = re.compile(r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})\s*(\*|\((?:optional|required)\))?", re.I)
# A type run names the type first: "Type: integer", "Integer format: int32", "array of object",
# "string · date-time". The word must be a type word, not any capitalised word ("Example").
_TYPE_RUN = re.compile(r"(?:type:\s*)?(array of \w+|[a-z][\w-]*(?:\[\])?)\b(.*)", re.I | re.S)
_TYPE_WORD = re.compile(
    r"(array of \w+|array|string|integer|int|int32|int64|long|number|float|double|decimal|boolean|"
    r"bool|object|map|date|date-time|datetime|uuid|binary|byte)(\[\])?", re.I
)  # fmt: skip
_DETAILS = re.compile(r"\s*($|format\b|[·(<\[|,:])", re.I)
_LOCATION_RUN = re.compile(
    r"(path|query|header|cookie|body|form)\s+parameter\b\s*[—–:-]?\s*(.*)", re.I | re.S
)
_NAMED_TYPE_RUN = re.compile(r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})\s*(\*)?\s*:\s*(\S.{0,199})", re.S)
_IN_RUN = re.compile(r"(?:located\s+)?in\s*:?\s*(path|query|header|cookie|body|form(?:data)?)", re.I)
_STRUCTURED = re.compile(r"(object|array|array of \w+|\w+\[\])", re.I)  # a schema's own type: "object[]"
_HEADER = ["name", "in", "type", "required", "description"]


def field_runs(blocks: list[Block]) -> list[Block]:
    """The blocks with each stretch of name/type runs replaced by one table block."""
    out: list[Block] = []
    rows: list[list[str]] = []
    i = 0
    while i < len(blocks):
        field = _field_at(blocks, i)
        if field is None:
            if rows:
                out.append(Block("table", rows=[_HEADER, *rows], header=True))
                rows = []
            out.append(blocks[i])
            i += 1
            continue
        row, i = field
        rows.append(row)
    if rows:
        out.append(Block("table", rows=[_HEADER, *rows], header=True))
    for index, block in enumerate(out):
        block.position = index
    return out


def _field_at(blocks: list[Block], i: int) -> tuple[list[str], int] | None:
    """([name, in, type, required, description], the index after its runs) of a field starting at i."""
    if i + 1 >= len(blocks) or blocks[i].kind != "text" or blocks[i + 1].kind != "text":
        return None
    named = _NAME_RUN.fullmatch(blocks[i].text)
    if named is None:
        return _typed_field_at(blocks, i)
    if _TYPE_WORD.fullmatch(named.group(1)):
        return None  # "string" then "object" are two types (an item's, a body's), not a field "string"
    if named.group(1).lower() == "type" and _STRUCTURED.fullmatch(blocks[i + 1].text.strip()):
        return None  # JSON Schema's own keyword ("type: object" of an inline schema), not a field
    location, type_, rest = _stated(blocks[i + 1].text)
    if location is None and type_ is None:
        return None
    mark = (named.group(2) or "").lower()
    return _field_from(blocks, i + 2, named.group(1), mark, location, type_, rest)


def _typed_field_at(blocks: list[Block], i: int) -> tuple[list[str], int] | None:
    """A field whose first run states name and type ("page: integer", "since: string (date)") and
    whose next run states its place ("in query"), as OpenAPI's own `in` says it."""
    typed = _NAMED_TYPE_RUN.fullmatch(blocks[i].text)
    placed = _IN_RUN.fullmatch(blocks[i + 1].text.strip())
    if typed is None or placed is None or _TYPE_WORD.fullmatch(typed.group(1)):
        return None
    first = typed.group(3).split()[0]  # "string .json": a type, then a default or allowed value
    type_ = _stated(typed.group(3))[1] or (normalize_type(first) if _TYPE_WORD.fullmatch(first) else None)
    if type_ is None:
        return None
    location = next((known for known in LOCATIONS if known.lower() == placed.group(1).lower()), "body")
    return _field_from(blocks, i + 2, typed.group(1), typed.group(2) or "", location, type_, "")


def _field_from(
    blocks: list[Block], start: int, name: str, mark: str, location: str | None, type_: str | None, rest: str
) -> tuple[list[str], int]:
    """The field's row, reading the runs from `start` up to the next field for "required", a type
    not stated yet and the description."""
    required = "true" if mark in ("*", "(required)") else "false" if mark == "(optional)" else ""
    following: list[str] = [rest] if rest else []
    j = start
    while j < len(blocks) and j < start + MAX_FOLLOWING and blocks[j].kind == "text":
        if j + 1 < len(blocks) and blocks[j + 1].kind == "text":
            if _NAME_RUN.fullmatch(blocks[j].text) and _stated(blocks[j + 1].text) != (None, None, ""):
                break  # the next field starts here
            if _typed_field_at(blocks, j) is not None:
                break
        text = blocks[j].text
        if text.lower() == "required":
            required = "true"
        elif type_ is None and (later := _stated(text))[1] is not None:
            type_ = later[1]  # "tags (optional)", "Query Parameter — …", then the type
        else:
            following.append(text)
        j += 1
    # The longest of the runs after it describes it; the short ones are labels, values or buttons.
    description = max(following, key=len, default="")
    return [name, location or "", type_ or "", required, description], j


def _stated(text: str) -> tuple[str | None, str | None, str]:
    """(location, type, the rest) a run states, when it starts with either; else (None, None, "")."""
    placed = _LOCATION_RUN.fullmatch(text)
    if placed is not None:
        word = placed.group(1).lower()
        return (word if word in LOCATIONS else "body"), None, placed.group(2).strip()
    if len(text) > 200:
        return None, None, ""
    typed = _TYPE_RUN.fullmatch(text)
    if typed is None or not _TYPE_WORD.fullmatch(typed.group(1)):
        return None, None, ""
    # After the type word only its details ("format: int32", "· date-time", "(int64)"), never a
    # sentence: "String values are trimmed" under "Summary" is prose.
    if not text.lower().startswith("type:") and not _DETAILS.match(typed.group(2)):
        return None, None, ""
    return None, normalize_type(typed.group(1)), ""
