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

from openapi_rag.crawl.inline_fields import inline_field
from openapi_rag.crawl.label_values import is_attribute_run
from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import parse_curl, parse_signature
from openapi_rag.crawl.tables import LOCATIONS, SCALARS, is_type_link, led_type, normalize_type

MAX_FOLLOWING = 12  # runs read after a field's type run for "required" and its description
MAX_BETWEEN = 8  # marks, a title and descriptions read between a field's name and a type run after them
# A run that only marks a field: required, deprecated, nullable, read- or write-only.
_MARK_RUN = re.compile(r"required|optional|deprecated|nullable|read[- ]?only|write[- ]?only", re.I)
# `?` marks an optional field as TypeScript declares one ("properties ?", its type in the next run).
_NAME_RUN = re.compile(r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})\s*(\*|\?|\((?:optional|required)\))?", re.I)
# A type run names the type first: "Type: integer", "Integer format: int32", "array of object",
# "string · date-time". The word must be a type word, not any capitalised word ("Example").
# A union's options ("one of: object", "any of: string"): the run states its first option's type.
_TYPE_RUN = re.compile(
    r"(?:type(?::\s*|\s+))?(?:(?:one|any|all)\s+of:?\s*)?(array of \w+|[a-z][\w-]*(?:\[\])?)\b(.*)", re.I | re.S
)
# A type word, its details (", format: int64", " | null", ", possible values: …") and then an em or en dash.
_DASHED_TYPE = re.compile(r"([a-z][\w-]*(?:\[\])?)(?:\s*\|\s*null)?(?:\s*,[^—–]{0,300}?)?\s+[—–]\s+(?=\S)", re.I)
_TYPE_WORD = re.compile(
    r"(array of \w+|array|string|integer|int|int32|int64|long|number|float|double|decimal|boolean|"
    r"bool|object|map|date|date-time|datetime|uuid|binary|byte)(\[\])?", re.I
)  # fmt: skip
# "required" among a type run's details, after a separator ("· required", "(required", ", required").
_MARKED_REQUIRED = re.compile(r"[·(,|]\s*required\b", re.I)
# After the type word, its details: a format, marks, or "or null" (a nullable type, "string or null").
_DETAILS = re.compile(r"\s*($|format\b|or\s+null\b|[·(<\[|,:])", re.I)
# After the type word, marks alone, each after a space ("string required", "integer deprecated nullable"): the
# field's marks set beside its type as badges, with no separator drawn between them.
_MARKS_ONLY = re.compile(r"(?:\s+(?:required|optional|deprecated|nullable|read[- ]?only|write[- ]?only))+\s*", re.I)
_LOCATION_RUN = re.compile(
    r"(path|query|header|cookie|body|form)\s+parameter\b\s*[—–:-]?\s*(.*)", re.I | re.S
)
_NAMED_TYPE_RUN = re.compile(r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})\s*(\*)?\s*:\s*(\S.{0,199})", re.S)
_IN_RUN = re.compile(r"(?:located\s+)?in\s*:?\s*(path|query|header|cookie|body|form(?:data)?)", re.I)
_STRUCTURED = re.compile(r"(object|array|array of \w+|\w+\[\])", re.I)  # a schema's own type: "object[]"
_HEADER = ["name", "in", "type", "required", "description"]
_EXPLICIT_TYPE = re.compile(r"type\b\s*:?\s*(.*)", re.I | re.S)
# A run's leading type as generators print it: "array[ Pet ]" / "List[Pet]" / "[Pet]", or a name.
_LEADING_TYPE = re.compile(r"\s*(?:(?:array|list|set)\s*)?\[\s*([^\]\s]+)\s*\]|\s*(\S+)", re.I)
# A format OpenAPI defines names its type where nothing else does ("format: int64").
_FORMAT = re.compile(r"\bformat:\s*(int32|int64|float|double|date-time|date|byte|binary|uuid)\b", re.I)
_FORMAT_TYPES = {"int32": "integer", "int64": "integer", "float": "number", "double": "number"} | {
    name: "string" for name in ("date-time", "date", "byte", "binary", "uuid")
}
# A bound or a default that is a number ("Possible values: >= 0 and <= 50", "Default value: 20",
# "Minimum: 1") types a field that states no type (not a date, "Default value: 2023-01-01").
_NUMERIC_VALUE = re.compile(
    r"\b(?:default(?:\s+value)?|minimum|maximum|possible\s+values)\s*:\s*(?:[<>]=?\s*)?(-?\d+(?:\.\d+)?)(?![\d./:-])", re.I
)
# A bound on the value itself ("Range 0 <= value <= 50", "value >= 1"), not on a length: a number.
_VALUE_BOUND = re.compile(r"(-?\d+(?:\.\d+)?)\s*[<>]=?\s*value\b|\bvalue\s*[<>]=?\s*(-?\d+(?:\.\d+)?)", re.I)
# HTTP's one-word reason phrases (RFC 9110), which a renderer prints under a status heading.
_REASON_PHRASES = {"continue", "ok", "created", "accepted", "found", "unauthorized", "forbidden", "conflict", "gone"}
# A type said under its label as a schema's title, capitalised words ("Type: Birth Date", "Type: Company ID").
_TITLED_TYPE = re.compile(r"[Tt]ype\s*:\s*[A-Z][\w-]*(?:\s+[A-Za-z][\w-]*){1,4}")
# A label a schema's value follows ("Type", then "Pet"), never a field's name before it.
_LABEL_WORD = re.compile(r"type|schema|format|returns?|examples?|default", re.I)
_STATUS_HEADING = re.compile(r"\s*([1-5]\d\d|default)\b", re.I)
# A schema's name as generators print it: two capitalised words run together ("CreateTokenRequest").
_SCHEMA_NAME = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+")
# Whether a field is required, said as a label's value: "Required: Yes", "Required: false".
_REQUIRED_SAID = re.compile(r"required\s*:\s*(yes|no|true|false)", re.I)
# A date or time format a page shows beside a field ("YYYY-MM-DD", "HH:mm:ss"): a note, never a name.
_DATE_PATTERN = re.compile(r"[YMDTHhmsSZ]{1,4}(?:[-/:. ][YMDTHhmsSZ]{1,4})+")
# A caption that names an example or a sample ("Response Example", "Request sample: cURL").
_CAPTION = re.compile(r"(?:[\w-]+\s+){0,2}(?:example|sample)s?\b[^.]{0,40}", re.I)
_EXAMPLE_HEADING = re.compile(r"(?:example|sample)s?(?: values?)?:?", re.I)
# A run that only states a media type ("Media type: application/json", "application/json", "*/*": any,
# as a Swagger 2 spec that names none is drawn): what a body is sent as, which a field never states so.
_MEDIA_TYPE_RUN = re.compile(r"(?:(?:media|content)[ -]type\s*:?\s*)?(?:[a-z]+/[\w.+-]+|[a-z]+/\*|\*/\*)", re.I)
MAX_HEADING_RUNS = 12  # a field heading's runs: description paragraphs, type, format, item type
_HEADING_FIELD = re.compile(
    r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})\s*(?:\((path|query|header|cookie|body|form|formData)\)\s*)?"
    r"(\*|\(?(?:optional|required)\)?)?",
    re.I,
)


def field_runs(blocks: list[Block]) -> list[Block]:
    """The blocks with each stretch of name/type runs replaced by one table block."""
    out: list[Block] = []
    rows: list[list[str]] = []
    links: list[list[str]] = [[""] * len(_HEADER)]  # per cell, as a table's: the type cell's link
    # A page that marks its optional fields ("sector (optional)") leaves the required ones bare.
    marks_optional = any(
        (named := _NAME_RUN.fullmatch(block.text)) and (named.group(2) or "").lower() == "(optional)"
        for block in blocks
        if block.kind == "text" and len(block.text) <= 120
    )
    # Sections of the page that head a scalar schema: a heading, then at once "Type string".
    scalars = {
        heading.text: stated
        for heading, run in zip(blocks, blocks[1:], strict=False)
        if heading.kind == "heading"
        and run.kind == "text"
        and (stated := _explicit_type(run.text)) in SCALARS
    }
    i = 0
    rooted = False  # the table's first field came right after a media type run ("application/json")
    parents: list[int] = []  # the element depths of the structured fields the next field may sit under
    examples: list[Block] = []  # a field's own example between two fields: it follows the table
    field_end = -1  # where the last field's runs ended
    while i < len(blocks):
        field = _field_at(blocks, i, after_field=i == field_end)
        if field is None and rows and (after := _field_example_end(blocks, i)) is not None:
            if after < len(blocks) and _field_at(blocks, after, after_field=True) is not None:
                examples.extend(blocks[i:after])
                i = field_end = after
                continue
        if field is None:
            if rows:
                out.append(_fields_table(rows, links, rooted=rooted, marks_optional=marks_optional))
                rows, links, parents = [], [[""] * len(_HEADER)], []
                out.extend(examples)
                examples = []
            out.append(blocks[i])
            i += 1
            continue
        start, (row, i) = i, field
        field_end = i
        if not rows:  # a first node drawn as one run of its name and type may be the tree's root (`_unrooted`)
            rooted = start > 0 and _media_type_run(blocks[start - 1]) and inline_field(blocks[start].text) is not None
        row[0] = "» " * _nesting(parents, blocks[start], row[2]) + row[0]
        link = _type_link(blocks[start:i])
        if link in scalars:  # "Type image-path", a schema whose own section says "Type string"
            row[2], link = scalars[link], ""
        rows.append(row)
        links.append(["", "", link, "", ""])
    if rows:
        out.append(_fields_table(rows, links, rooted=rooted, marks_optional=marks_optional))
        out.extend(examples)
    for index, block in enumerate(out):
        block.position = index
    return out


def _fields_table(rows: list[list[str]], links: list[list[str]], *, rooted: bool, marks_optional: bool) -> Block:
    """The table of the fields read from runs (less a tree's root where the first came right after a media
    type run, `_unrooted`)."""
    rows, links = _unrooted(rows, links) if rooted else (rows, links)
    return Block("table", rows=[_HEADER, *_bare_required(rows, marks_optional)], header=True, cell_links=links)


def _media_type_run(block: Block) -> bool:
    """A run that states a media type alone ("application/json"): a body's or a response's schema follows."""
    return block.kind == "text" and _MEDIA_TYPE_RUN.fullmatch(block.text) is not None


def _unrooted(rows: list[list[str]], links: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """A tree right after a media type run whose first node, one run of its name and type, holds every other
    one ("PagingPlaylistObject object", then its fields one level deeper, none beside it): that node is the
    schema's own name and type, the root a tree draws over a body's or a response's fields, not a field (a
    field drawn in runs of its own, its name and then its type, is a body's only field: "sectors", then
    "array[object]"). The rows less it, each one level up; any other rows as they are (`links` runs
    parallel, after its header row)."""
    if len(rows) < 2 or rows[0][0].startswith("» ") or rows[0][2] not in ("object", "array", ""):
        return rows, links
    if not all(row[0].startswith("» ") for row in rows[1:]):
        return rows, links
    return [[row[0][2:], *row[1:]] for row in rows[1:]], [links[0], *links[2:]]


def _nesting(parents: list[int], name: Block, type_: str) -> int:
    """How deep a field sits in its schema where a tree draws nesting by enclosing elements: under each
    object or array field before it whose name sits in fewer elements than its own ("metrics", object,
    then "adSpend" one element deeper). `parents` holds those depths and is updated for the next field."""
    if name.kind != "text":
        parents.clear()
        return 0
    while parents and parents[-1] >= name.depth:
        parents.pop()
    level = len(parents)
    if type_ in ("object", "array", ""):  # a field of no stated type ("owner any", an allOf's) may hold fields too
        parents.append(name.depth)
    return level


def _field_example_end(blocks: list[Block], i: int) -> int | None:
    """The index after a field's own example that starts at i: a heading that only says "Example(s)",
    at most two short runs (a picker, "Select example …") and its code; None where none starts."""
    if blocks[i].kind != "heading" or not _EXAMPLE_HEADING.fullmatch(blocks[i].text):
        return None
    j = i + 1
    while j < len(blocks) and j <= i + 2 and blocks[j].kind == "text" and len(blocks[j].text) <= 60:
        j += 1
    if j >= len(blocks) or blocks[j].kind != "code":
        return None
    while j < len(blocks) and blocks[j].kind == "code":
        j += 1
    return j


def _bare_required(rows: list[list[str]], marks_optional: bool) -> list[list[str]]:
    """Fields on a page that marks the optional ones ("sector (optional)") and, in this table, none
    required: the names it leaves bare are the required ones."""
    if marks_optional and "true" not in {row[3] for row in rows}:
        for row in rows:
            row[3] = row[3] or "true"
    return rows


def _field_at(blocks: list[Block], i: int, *, after_field: bool = False) -> tuple[list[str], int] | None:
    """([name, in, type, required, description], the index after its runs) of a field starting at i."""
    if blocks[i].kind == "heading":
        return _heading_field_at(blocks, i)
    if blocks[i].kind == "text" and (inline := inline_field(blocks[i].text)) is not None:
        name, type_, marks = inline  # "name string required": the whole field in one run
        mark = "(required)" if "required" in marks else "(optional)" if "optional" in marks else ""
        return _field_from(blocks, i + 1, name, mark, None, type_, "")
    if i + 1 >= len(blocks) or blocks[i].kind != "text" or blocks[i + 1].kind != "text":
        return None
    named = _NAME_RUN.fullmatch(blocks[i].text)
    if named is None:
        return _typed_field_at(blocks, i)
    if _DATE_PATTERN.fullmatch(blocks[i].text):
        return None  # "YYYY-MM-DD" under a field's name is its format, not the next field
    if i and blocks[i - 1].kind == "heading" and _STATUS_HEADING.match(blocks[i - 1].text):
        if blocks[i].text.lower() in _REASON_PHRASES:
            return None  # "200", then "OK" and the body's type: the status's reason, not a field
    if named.group(1).endswith("."):
        return None  # a one-word sentence ("Created.") describes; a name never ends with a full stop
    if named.group(1) in ("Schema", "Example", "Examples"):
        return None  # a piece label over a scalar's type ("Schema", then "string"), not a field
    if named.group(1).lower() == "items" and _states_array(blocks, i - 1):
        return None  # "array", then "Items" over the items' own type ("object") and fields: a label, not a field
    if _MARK_RUN.fullmatch(blocks[i].text) or inline_field(blocks[i + 1].text) is not None:
        return None  # a mark ("Body", "required"), or a name whose next run is a field of its own
    if _TYPE_WORD.fullmatch(named.group(1)):
        return None  # "string" then "object" are two types (an item's, a body's), not a field "string"
    if named.group(1).lower() == "type" and _STRUCTURED.fullmatch(blocks[i + 1].text.strip()):
        return None  # JSON Schema's own keyword ("type: object" of an inline schema), not a field
    location, type_, rest = _stated(blocks[i + 1].text)
    mark = (named.group(2) or "").lower() or _detail_mark(blocks[i + 1].text)
    if location is None and type_ is None and _marked_and_led(blocks, i):
        type_ = led_type(blocks[i + 1].text, blocks[i + 1].links, field=bool(mark))
        type_, rest = type_ or _schema_lead_type(blocks[i + 1]), blocks[i + 1].text
    if location is None and type_ is None:
        return _described_field_at(blocks, i, named.group(1), mark, after_field=after_field)
    if (
        _SCHEMA_NAME.fullmatch(blocks[i].text)
        and _STRUCTURED.fullmatch(blocks[i + 1].text.strip())
        and not after_field
        and not _closes_field(blocks, i - 1)
    ):
        return None  # "CreateTokenRequest", "object" atop a body: the schema's name, then its type
    return _field_from(blocks, i + 2, named.group(1), mark, location, type_, rest)


def _described_field_at(
    blocks: list[Block], i: int, name: str, mark: str, *, after_field: bool = False
) -> tuple[list[str], int] | None:
    """A field whose type run comes after its marks ("required") or its description, as schema trees
    draw a property: "usagePatterns", "required", "Historical energy usage …", "Array<number>".
    The runs between are marks, a title (the name in words) and descriptions, none a name. Under a
    heading, or after a label, a name then prose alone is a caption or a value ("201", "Created",
    "Select media type …", "object"; "Example", "ES", …): such a field shows a mark or a title, or
    comes right after a field, a schema's type run or an example."""
    if _MARK_RUN.fullmatch(blocks[i].text):
        return None
    marks: list[str] = []
    described: list[str] = []
    titled = False
    j = i + 1
    while j < len(blocks) and j <= i + MAX_BETWEEN and blocks[j].kind == "text":
        text = blocks[j].text
        if inline_field(text) is not None:
            return None  # the next field, drawn in one run ("type string" is a field "type", no type run)
        if _MARK_RUN.fullmatch(text):
            marks.append(text.lower())
        elif (stated := _stated(text))[1] is not None:
            # A type said as such ("Type: integer", a label's) is a field's, wherever it stands.
            explicit = _EXPLICIT_TYPE.fullmatch(text) is not None
            if described and not (marks or titled or after_field or explicit or _closes_field(blocks, i - 1)):
                return None
            mark = mark or ("(required)" if "required" in marks else "")
            return _field_from(blocks, j + 1, name, mark, None, stated[1], max(described, key=len, default=""))
        elif not described and not marks and _TITLED_TYPE.fullmatch(text):
            # The type said under its label as a schema's title ("Type: Birth Date", a scalar schema by its title):
            # a field's type run, its type the format the next run states, if any ("Format: date"; thirty-ninth round)
            formatted = _FORMAT.search(blocks[j + 1].text) if j + 1 < len(blocks) else None
            type_ = _FORMAT_TYPES[formatted.group(1).lower()] if formatted else ""
            return _field_from(blocks, j + 1, name, mark, None, type_, "")
        elif _title_of(text, blocks[i].text):
            titled = True  # the field's title, its name in words ("limit", then "Limit")
        elif _DATE_PATTERN.fullmatch(text):
            pass  # the field's format ("bestsellers-date", then "YYYY-MM-DD"), before its description
        elif _NAME_RUN.fullmatch(text) or stated[0] is not None or len(text.split()) < 2:
            return None  # a name, a place, or one word ("application/json"): not a description
        else:
            described.append(text)
        j += 1
    return None


def _closes_field(blocks: list[Block], k: int) -> bool:
    """Whether block k ends a field or opens a schema: a code example, a type run, a mark."""
    if k < 0:
        return False
    block = blocks[k]
    return block.kind == "code" or (
        block.kind == "text" and (_MARK_RUN.fullmatch(block.text) is not None or _stated(block.text)[1] is not None)
    )


def _title_of(text: str, name: str) -> bool:
    """Whether a run repeats a field's name as a title: "Limit" for limit, "Album Id" for album_id."""
    return re.sub(r"[\W_]", "", text).lower() == re.sub(r"[\W_]", "", name).lower()


def _heading_field_at(blocks: list[Block], i: int) -> tuple[list[str], int] | None:
    """A field drawn as a heading ("id (path) required", "tags (query)", "code *") whose few runs,
    up to the next heading, hold its description and a run stating its type ("Type integer, format
    int64"). A heading with deeper headings under it heads a section (a schema "Pet", then
    "Properties"), not a field; a status ("default") heads a response."""
    named = _HEADING_FIELD.fullmatch(blocks[i].text)
    if named is None or named.group(1).lower() == "default":
        return None
    if _TYPE_WORD.fullmatch(named.group(1)) and not named.group(2):
        return None  # "object" heading its schema; "date (query)" is a field all the same
    end = i + 1
    while end < len(blocks) and blocks[end].kind == "text" and end <= i + MAX_HEADING_RUNS:
        end += 1
    if end < len(blocks) and blocks[end].kind != "heading" and end > i + MAX_HEADING_RUNS:
        return None
    if end < len(blocks) and blocks[end].kind == "heading" and blocks[end].level > blocks[i].level:
        return None
    runs = [block.text for block in blocks[i + 1 : end]]
    if any(_MEDIA_TYPE_RUN.fullmatch(text) for text in runs):
        return None  # "Body", then "Media type: application/json" and "Type: object": a body's section
    # The type said as such ("Type integer"): a type word alone ("string") may be a value or a
    # body's own type, and runs that draw fields of their own ("id", "Type: integer") are theirs.
    # "Type" alone (a type the page left out) only as the field's last run, never a column label
    # among others ("Name", "Type", "Description").
    typed = [
        k
        for k, text in enumerate(runs)
        if _explicit_type(text) or (_explicit_type(text) == "" and k == len(runs) - 1)
    ]
    led = ""
    if not typed and blocks[i].level > 6 and runs and (led := _stated(runs[0])[1] or ""):
        # A definition list's term whose description starts with the type and its marks ("id", then
        # "string (required)" and the description): a field, as API Blueprint's renderers draw one.
        typed = [0]
        # The term's description is the type run and its paragraphs; a short run after them is the
        # page's again ("Response 200" when no request section follows the parameters).
        kept = 1
        while kept < len(runs) and (runs[kept].rstrip().endswith(".") or len(runs[kept]) > 60):
            kept += 1
        runs, end = runs[:kept], i + 1 + kept
    if not typed or len(typed) > 1:
        return None
    marked = named.group(2) or named.group(3)  # "(query)", "required": the heading is a field's for sure
    if not marked and not led and _explicit_type(runs[typed[0]]) == "object" and _table_at(blocks, end):
        return None  # "Pet", then "type: object" and its properties' table: a schema's section, not a field
    if not marked and not led and inline_field(runs[typed[0]]) is not None:
        return None  # "NewRecord", then "type string": a schema's title over its field named "type"
    if not marked and any(_field_at(blocks, i + 1 + k) is not None for k in range(typed[0])):
        return None
    location = named.group(2)
    location = next((known for known in LOCATIONS if location and known.lower() == location.lower()), None)
    mark = (named.group(3) or "").lower().strip("()")
    if led and not mark and (shown := re.search(r"\((required|optional)\b", runs[0], re.I)):
        mark = shown.group(1).lower()
    required = "true" if mark in ("*", "required") else "false" if mark == "optional" else ""
    described = [text for k, text in enumerate(runs) if k not in typed and text.lower() != "required"]
    description = max(described, key=len, default="")
    stated = _explicit_type(runs[typed[0]]) or led
    return [named.group(1), location or "", stated or "", required, description], end


def _table_at(blocks: list[Block], index: int) -> bool:
    return index < len(blocks) and blocks[index].kind == "table"


def _type_link(field: list[Block]) -> str:
    """The schema a field heading's type run links to ("Type Pet", "Item type ImageObject"), or that
    the run after a field's name leads with ("FollowersObject Information about …"), if any."""
    if field[0].kind != "heading":
        return _schema_lead(field[1]) if len(field) > 1 else ""
    typed = [b for b in field[1:] if len(b.links) == 1 and re.match(r"(?:item\s+)?type\b", b.text, re.I)]
    return typed[0].links[0] if typed else ""


def _schema_lead(block: Block) -> str:
    """The schema a run leads with, its first word a link to it ("FollowersObject Information …",
    "array[ImageObject] The images …"), as code generators print a field's type; "" otherwise."""
    if block.kind != "text" or not block.links or is_type_link(block.links[0]):
        return ""
    led = _LEADING_TYPE.match(block.text)
    if not led:
        return ""
    # The anchor may be the shown name slugged ("bulkexports-v1-export-day" for "bulkexports.v1.export.day").
    shown = {_slug(name.removesuffix("[]")) for name in (led.group(1), led.group(2)) if name}
    return block.links[0] if block.links[0] in (led.group(1), led.group(2)) or _slug(block.links[0]) in shown else ""


def _slug(name: str) -> str:
    return re.sub(r"[\W_]", "", name).lower()


def _schema_lead_type(block: Block) -> str | None:
    """object for a run led by a schema's name, array for one led by a list of it; None otherwise."""
    if not _schema_lead(block):
        return None
    led = _LEADING_TYPE.match(block.text)
    return "array" if led.group(1) or (led.group(2) or "").endswith("[]") else "object"  # "[Pet]", "Pet[]"


def _explicit_type(text: str) -> str | None:
    """The type a run says as such: "Type integer , format int64" → integer; "Type Pet" (a schema's
    name) → object; "Type" alone (a type the page left out) → ""; None for any other run."""
    said = _EXPLICIT_TYPE.fullmatch(text.strip())
    if said is None:
        return None
    if not said.group(1):
        return ""
    if (stated := _stated(text)[1]) is not None:
        return stated
    return "object" if re.fullmatch(r"[A-Za-z_][\w.-]{0,99}", said.group(1)) else None


def _marked_and_led(blocks: list[Block], i: int) -> bool:
    """A name, then a run led by its type as code generators print it, the description after it
    ("BigDecimal Threshold of …"): when the name is marked "(optional)" or "(required)", a field's
    for sure, or when the run links the type to its docs ("BigDecimal" -> number; not to a schema,
    "OK" then "updates-array"); a bare name then "String values are trimmed" is prose."""
    named = _NAME_RUN.fullmatch(blocks[i].text)
    if named is None or i + 1 >= len(blocks) or blocks[i + 1].kind != "text":
        return False
    following = blocks[i + 1]
    if (named.group(2) or "").lower() in ("(optional)", "(required)"):
        return led_type(following.text, following.links, field=True) is not None or bool(
            _schema_lead(following)
        )
    # "days", then only a link to a schema section ("Day[]"): the field and its type; not a status and
    # its schema ("default", then "Error"), a reason phrase ("OK") or a label ("Type", then "Pet").
    if (
        _lone_schema_link(following)
        and named.group(1).lower() not in _REASON_PHRASES
        and not _STATUS_HEADING.fullmatch(named.group(1))
        and not _LABEL_WORD.fullmatch(named.group(1))
        and not blocks[i].links
    ):
        return True
    if named.group(1).endswith(".") or not following.links or not is_type_link(following.links[0]):
        return False
    return led_type(following.text, following.links) is not None


def _lone_schema_link(block: Block) -> bool:
    """A run that is only one link to a schema's section, perhaps marked a list of it ("Day[]")."""
    if len(block.links) != 1 or is_type_link(block.links[0]):
        return False
    return re.fullmatch(r"[A-Za-z_][\w.-]{0,99}(\[\])?", block.text.strip()) is not None and bool(
        _schema_lead(block)
    )


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


# A run that labels the values a field allows, each in a run of its own after it ("Enum:").
# ("Enum: V" where the label and the first value were joined as a label's value).
_ENUM_LABEL = re.compile(r"(?:enum(?:eration)?|allowed values|possible values)\s*(?::\s*\S{0,60})?", re.I)
_MAX_VALUES = 200


def _enum_value(block: Block) -> bool:
    """A run that is one value alone ("V", "DRAFT", "-1"): one word, no mark."""
    text = block.text.strip()
    return block.kind == "text" and 0 < len(text) <= 60 and not any(ch.isspace() for ch in text)


def _field_from(
    blocks: list[Block], start: int, name: str, mark: str, location: str | None, type_: str | None, rest: str
) -> tuple[list[str], int]:
    """The field's row, reading the runs from `start` up to the next field for "required", a type
    not stated yet and the description."""
    required = "true" if mark in ("*", "(required)") else "false" if mark in ("?", "(optional)") else ""
    following: list[str] = [rest] if rest else []
    j = start
    limit = start + MAX_FOLLOWING
    while j < len(blocks) and j < limit and blocks[j].kind == "text":
        if inline_field(blocks[j].text) is not None:
            break  # the next field, drawn in one run
        if j + 1 < len(blocks) and blocks[j + 1].kind == "text":
            if _NAME_RUN.fullmatch(blocks[j].text) and _stated(blocks[j + 1].text) != (None, None, ""):
                break  # the next field starts here
            if _typed_field_at(blocks, j) is not None or _marked_and_led(blocks, j):
                break
            if (
                _NAME_RUN.fullmatch(blocks[j].text)
                and not _MARK_RUN.fullmatch(blocks[j].text)
                and not _TYPE_WORD.fullmatch(blocks[j].text)
                and _described_field_at(blocks, j, "", "", after_field=True) is not None
            ):
                break  # the next field, its marks or description before its type
        text = blocks[j].text
        if parse_signature(text) or parse_curl(text):
            break  # a request line or a sample command: the operation's again, no field's description
        if j > start and j + 1 < len(blocks) and blocks[j + 1].kind == "code" and _CAPTION.fullmatch(text):
            break  # a caption right over code ("Response Example"): the code's label, no description
        if _media_type_run(blocks[j]):
            break  # "application/json": the next body's or response's schema starts, no field's description
        if _ENUM_LABEL.fullmatch(text):
            # "Enum:", then its values one run each ("V", "I", "D", …): the field's still, however many (bounded)
            values = j + 1
            while (
                values < len(blocks)
                and values - j <= _MAX_VALUES
                and _enum_value(blocks[values])
                and _field_at(blocks, values, after_field=True) is None  # a bare name over its type: the next field
            ):
                values += 1
            limit = max(limit, values + 1)
        if text.lower() == "required":
            required = "true"
        elif said := _REQUIRED_SAID.fullmatch(text):  # "Required: No", a label's value (label_values)
            required = "true" if said.group(1).lower() in ("yes", "true") else "false"
        elif type_ is None and (later := _stated(text))[1] is not None:
            type_ = later[1]  # "tags (optional)", "Query Parameter — …", then the type
        else:
            following.append(text)
        j += 1
    # The longest of the runs after it describes it; the short ones are labels, values or buttons, and
    # an attribute's label and value ("Format: \"double\"", "Default: 20") states its schema, not what it is.
    description = max((text for text in following if not is_attribute_run(text)), key=len, default="")
    if type_ is None and (formatted := _FORMAT.search(" ".join(following))):
        type_ = _FORMAT_TYPES[formatted.group(1).lower()]  # "… default: null format: int64": an integer
    elif type_ is None and (bound := _NUMERIC_VALUE.search(" ".join(following))):
        type_ = "number" if "." in bound.group(1) else "integer"  # "Possible values: >= 0 and <= 50"
    elif type_ is None and (bound := _VALUE_BOUND.search(" ".join(following))):
        type_ = "number" if "." in (bound.group(1) or bound.group(2)) else "integer"  # "Range 0 <= value <= 50"
    return [name, location or "", type_ or "", required, description], j


def _states_array(blocks: list[Block], i: int) -> bool:
    """Whether the run at `i` states an array, and that alone ("array", "array required")."""
    if i < 0 or blocks[i].kind != "text":
        return False
    typed = _TYPE_RUN.fullmatch(blocks[i].text.strip())
    return bool(
        typed and typed.group(1).lower() == "array" and (not typed.group(2).strip() or _MARKS_ONLY.fullmatch(typed.group(2)))
    )


def _detail_mark(text: str) -> str:
    """The mark "(required)" where a type run's details mark the field so ("string · required",
    "integer · int64 · required": the marks set beside the type and format, a separator before each);
    else ""."""
    typed = _TYPE_RUN.fullmatch(text)
    if typed is None or not _TYPE_WORD.fullmatch(typed.group(1)):
        return ""
    marks = _MARKS_ONLY.fullmatch(typed.group(2))
    said = marks is not None and "required" in typed.group(2).lower().split()
    return "(required)" if said or _MARKED_REQUIRED.search(typed.group(2)) else ""


def _stated(text: str) -> tuple[str | None, str | None, str]:
    """(location, type, the rest) a run states, when it starts with either; else (None, None, "")."""
    placed = _LOCATION_RUN.fullmatch(text)
    if placed is not None:
        word = placed.group(1).lower()
        return (word if word in LOCATIONS else "body"), None, placed.group(2).strip()
    dashed = _DASHED_TYPE.match(text)
    if dashed is not None and _TYPE_WORD.fullmatch(dashed.group(1)):
        # The type and its details, then a dash and the description ("string — The job's id", "integer,
        # format: int64 — The page size", "string | null — …"): one run that states both, however long.
        type_ = "array" if dashed.group(1).endswith("[]") else normalize_type(dashed.group(1))
        return None, type_, text[dashed.end() :].strip()
    if len(text) > 200 or text.rstrip().endswith(("[", "{")):
        return None, None, ""  # "Array [" opens a list drawn over the runs below; it types nothing
    typed = _TYPE_RUN.fullmatch(text)
    if typed is None or not _TYPE_WORD.fullmatch(typed.group(1)):
        return None, None, ""
    # After the type word only its details ("format: int32", "· date-time", "(int64)"), never a
    # sentence: "String values are trimmed" under "Summary" is prose.
    if not re.match(r"type\b", text, re.I) and not _DETAILS.match(typed.group(2)):
        if not _MARKS_ONLY.fullmatch(typed.group(2)):
            return None, None, ""
    if typed.group(1).endswith("[]") or typed.group(2).startswith("[]"):
        return None, "array", ""  # "object[]", "string[]": a list of what the word names
    return None, normalize_type(typed.group(1)), ""
