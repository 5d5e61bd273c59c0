"""Parameter and field rows from HTML tables and definition lists.

Columns are found by their header words when the table has a header row, and by the shape of
the cells when it has none (name first, then a type word, "required" anywhere in the row), so
the rules hold for tables in general rather than for one renderer's layout.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openapi_rag.crawl.default_types import default_column, default_type
from openapi_rag.crawl.property_lists import lists_properties

LOCATIONS = ("path", "query", "header", "cookie", "body", "formData", "form")
# HTTP's standard request headers whose names no query parameter takes (RFC 9110's and kin): a parameter so
# named, where the page states no place for it, is sent as a header (since issue 17's twenty-ninth round).
# Single common words that name query parameters as often ("Date", "From", "Range", "Origin") are left out.
_REQUEST_HEADER = re.compile(
    r"accept(?:-(?:charset|encoding|language|datetime))?|authorization|proxy-authorization|cache-control|"
    r"content-(?:type|length|encoding|language|md5)|if-(?:match|none-match|modified-since|unmodified-since|range)|"
    r"user-agent|idempotency-key",
    re.I,
)  # fmt: skip


def is_request_header(name: str) -> bool:
    """Whether a parameter's name is one of HTTP's standard request headers ("Authorization", "Content-Type")."""
    return bool(_REQUEST_HEADER.fullmatch(name.strip()))


SCALARS = frozenset({"string", "integer", "number", "boolean"})
"""JSON Schema's scalar types: a field of one holds no fields."""
_NAME_HEADERS = {"name", "parameter", "parameters", "param", "field", "fields", "property", "attribute",
                 "key", "argument", "parameter name", "field name"}  # fmt: skip
_IN_HEADERS = {"in", "location", "parameter type", "param type", "where", "located in"}
_TYPE_HEADERS = {"type", "data type", "datatype", "schema", "format"}
_REQUIRED_HEADERS = {"required", "mandatory", "optional", "req", "required?"}
_DESC_HEADERS = {"description", "desc", "details", "notes", "meaning", "comment", "explanation"}
_STATUS_HEADERS = {"status", "status code", "code", "http code", "http status", "response code"}
_SCHEMA_HEADERS = {"schema", "type", "model", "datatype", "data type"}  # a status table's schema column
_STATUS = re.compile(r"^([1-5]\d\d|[1-5]XX|default)$", re.I)
_NAME = re.compile(r"^[A-Za-z_$@][\w.\-$@:\[\]]{0,99}$")
# "integer <int32> ...", "Array of strings ...", "string (date-time) ...": the type before a description.
_TYPE_PREFIX = re.compile(r"^(array of \w+|[\w-]+)(\s*[<(\[][^>)\]]*[>)\]])?\s*(?=\S|$)", re.I)
# A description led by the type as code generators print it ("String URL-encoded URL …", "Long (int64)
# ID …", "array[String] tags …"): words that also start prose ("Number of …", "Date of …") count only
# with a format in parentheses after them.
_LED_BY_TYPE = re.compile(
    r"\s*(?:(?:string|integer|long|int|boolean|double|float|bigdecimal|uuid)\b(?!-)|(?:array|list|set)\[[^\]]{1,40}\]"
    r"|(?:number|date|date-time|datetime|object|file)\s*(?=\())",
    re.I,
)
# A description that starts by stating the type under a label ("Type: integer<int32> maximum …", "Type:
# object[]"): the type, then the description.
_STATED_TYPE = re.compile(r"\s*type\s*:\s*(\S+?(?:\s*[<(\[][^>)\]]*[>)\]])?)(?:\s+|$)", re.I)
_LED_LOOSELY = re.compile(r"\s*(?:number|date|date-time|datetime|object|file|map)\b(?!-)", re.I)
_TYPE_NAME = re.compile(
    r"string|integer|int|long|number|float|double|bigdecimal|boolean|bool|date|date-?time|uuid|binary|byte",
    re.I,
)
_PLACE = re.compile(r"\((" + "|".join(LOCATIONS) + r")\)")  # "(path)" in a name cell
_PARENTHESES = re.compile(r"\([^()]*\)")
_DEPTH_MARKS = re.compile(r"^[\s»›>└├─|.*+-]*")
_TYPE_WORDS = [
    # "List", "Set<String>": collection types as code generators print them (Java, Kotlin, C#)
    ("array", re.compile(r"^\[|\barray\b|\blist of\b|\[\]|^(list|set|collection)\b(?!\s+\w)", re.I)),
    ("integer", re.compile(r"\b(integer|int|int32|int64|long)\b", re.I)),
    ("number", re.compile(r"\b(number|float|double|decimal|bigdecimal)\b", re.I)),
    ("boolean", re.compile(r"\b(boolean|bool)\b", re.I)),
    ("object", re.compile(r"\b(object|map|dictionary)\b", re.I)),
    ("string", re.compile(r"\b(string|date|date-time|datetime|uuid|email|uri|url|text|binary|byte)\b", re.I)),
]


@dataclass
class FieldRow:
    """One documented parameter or property."""

    name: str
    depth: int = 0  # nesting level shown with » marks (0: top level)
    location: str | None = None
    type: str | None = None
    required: bool | None = None
    description: str = ""
    source: str = "table"  # table | prose (the LLM stage)
    ref: str = ""  # the schema a type cell names by reference ("#/components/schemas/Pet" → Pet)
    bare_list: bool = False  # the type cell says "array" alone, nothing of its items (thirty-ninth round)


def normalize_type(text: str) -> str | None:
    """OpenAPI type named by a type cell ("integer(int32)", "Array of strings", "[Pet]")."""
    text = text.strip()
    if not text:
        return None
    if named := _named_type(text):
        return named
    # A bare schema name ("Pet", "NewPet") stands for an object.
    if re.fullmatch(r"[A-Z][A-Za-z0-9_.]*", text):
        return "object"
    return None


def led_type(text: str, links: list[str], *, field: bool = False) -> str | None:
    """The type that leads a run as code generators print it ("BigDecimal Threshold of …", "String
    URL…"), or that a link on its first word names; None when neither does. After a name that is a
    field's for sure (`field`: "parameters (optional)"), words that also start prose lead too
    ("Object Additional parameters …")."""
    if led := _LED_BY_TYPE.match(text) or (field and _LED_LOOSELY.match(text)):
        return normalize_type(led.group(0))
    return linked_type(text, links)


def linked_type(text: str, links: list[str]) -> str | None:
    """The type a link on a run's first word names ("Date Time of the reading", "Date" linking to
    DateTime's docs; "String Sector …" linking to string's): a scalar or a list, never a schema."""
    first = text.split()[0] if text.split() else ""
    if first and links and links[0].lower().startswith(first.lower()) and is_type_link(links[0]):
        return normalize_type(links[0])
    return None


def is_type_link(target: str) -> bool:
    """Whether a link points to a type's own docs ("number", "DateTime"), not to a schema ("updates-array")."""
    return _TYPE_NAME.fullmatch(target) is not None


def is_status_code(text: str) -> bool:
    """Whether a cell is a response's status code alone ("200", "4XX", "default")."""
    return _STATUS.match(text.strip()) is not None


def is_status_table(rows: list[list[str]], header: bool) -> bool:
    """A table of response status codes (its first column holds 200, 404, 2XX, default)."""
    body = rows[1:] if header else rows
    firsts = [row[0].split()[0] for row in body if row and row[0].split()]
    if not firsts or not _STATUS.match(firsts[0]):
        return False
    if header and rows[0] and rows[0][0].strip().lower().rstrip(":") in _STATUS_HEADERS:
        return True  # a "Status" column says so, whatever stray rows a long description made
    # Most rows, not all: a description that spills over a line break makes a stray row.
    hits = sum(bool(_STATUS.match(word)) for word in firsts)
    return hits >= max(1, 0.5 * len(firsts))


def status_rows(rows: list[list[str]], header: bool) -> list[tuple[str, str]]:
    """(status, description) pairs of a status table."""
    cols = _columns(rows[0]) if header else {}
    out = []
    for row in rows[1:] if header else rows:
        if not row or not row[0].split() or not _STATUS.match(row[0].split()[0]):
            continue
        status = row[0].split()[0].lower()
        desc_col = cols.get("description")
        if desc_col is not None and desc_col < len(row):
            desc = row[desc_col]
        else:
            desc = " ".join(row[0].split()[1:] + row[1:2]).strip()
        out.append((status if status != "default" else "default", desc))
    return out


def status_schemas(rows: list[list[str]], header: bool) -> dict[str, str]:
    """status -> the schema name a status table's "Schema" column gives (a link to its section)."""
    if not header or not rows:
        return {}
    col = next((i for i, cell in enumerate(rows[0]) if cell.strip().lower() in _SCHEMA_HEADERS), None)
    out: dict[str, str] = {}
    for row in rows[1:]:
        if col is None or col >= len(row) or not row[0].split() or not _STATUS.match(row[0].split()[0]):
            continue
        # "Pet", "[Pet]", "[ Pet ]" (a list of them, the brackets drawn apart from the link's name); a generated
        # name whose underscores a markup took for emphasis ("_viewed period json_get_200_response") keeps its
        # words, which name the section of their letters ("ViewedPeriodJsonGet200Response", thirty-sixth round)
        name = row[col].strip().strip("[]").strip()
        if re.fullmatch(r"[A-Za-z_][\w.-]{0,99}", name) and name.lower() not in ("none", "inline", "object"):
            out[row[0].split()[0].lower()] = name
        elif re.fullmatch(r"_[\w.-]{1,99}(?: [\w.-]{1,99}){1,9}", name):
            out[row[0].split()[0].lower()] = name
    return out


def field_rows(rows: list[list[str]], header: bool, links: list[list[str]] | None = None) -> list[FieldRow]:
    """The documented fields of a parameter or schema table; `links` (per cell, what a link in it
    points to) name the schema of a field whose type cell links to one ("List" -> Models/Pet.md)."""
    if not rows:
        return []
    cols = _columns(rows[0]) if header else {}
    if header and not cols.keys() & {"type", "in", "required", "description"}:
        return []  # a name with nothing about it (enum values, change logs): not a field table
    if header and "name" not in cols and not cols.keys() & {"type", "in", "required"}:
        return []  # "Media Type | Description": a list of allowed values, not of fields
    if header and "name" not in cols:
        cols["name"] = 0
    # A table of no type column that shows defaults: a default's value types its field (thirty-ninth round).
    default_at = default_column(rows[0]) if header and "type" not in cols else None
    out = []
    for index, row in enumerate(rows[1:] if header else rows, start=1 if header else 0):
        if not row or not any(cell.strip() for cell in row):
            continue
        if header and _spilled_sentence(row, cols):
            continue  # a row of one sentence, its other cells empty: the row above's description, continued
        parsed = _row(row, cols) if header else _shape_row(row)
        if parsed is not None and parsed.type is None and default_at is not None and default_at < len(row):
            parsed.type = default_type(row[default_at])
        if parsed is not None and parsed.type is None and header and lists_properties(row, cols.get("type")):
            parsed.type = "object"  # "Properties: previous, current, next": an object's keys (thirty-ninth round)
        if parsed is not None:
            type_col = cols.get("type", -1)
            if type_col < 0 and "description" in cols and _STATED_TYPE.match(row[cols["description"]]):
                type_col = cols["description"]  # "Type: [movie-list-object][]": the type it states links
            elif type_col < 0 and "description" in cols and _link_alone(row[cols["description"]], links, index, cols):
                type_col = cols["description"]  # a description of the schema's link alone ("body | RejectsList")
            cell_links = links[index] if links and index < len(links) else []
            if not header and len(row) > 1 and len(cell_links) > 1 and _opens_with(row[1], cell_links[1]):
                type_col = 1  # a headerless table's second cell opens with a schema's link ("[ Record ]")
            target = cell_links[type_col] if 0 <= type_col < len(cell_links) else ""
            if target and not parsed.ref:
                # The link's target names the schema (the page's section of that name, if any).
                parsed.ref = target
                parsed.type = parsed.type or "object"
            out.append(parsed)
    return _unflatten(out)


def _spilled_sentence(row: list[str], cols: dict[str, int]) -> bool:
    """Whether a row of a table of three columns or more is a sentence in its name cell alone, every other cell empty
    ("If your API key were aaa012 … then your HTTP header would be: …" under the `Authorization` row): a paragraph of
    the description above it, drawn as a row of its own, no field named "If" (issue 17's fortieth round)."""
    at = cols.get("name", 0)
    if len(row) < 3 or at >= len(row) or any(cell.strip() for i, cell in enumerate(row) if i != at):
        return False
    return len(row[at].split()) >= 6


def _link_alone(cell: str, links: list[list[str]] | None, index: int, cols: dict[str, int]) -> bool:
    """A cell that shows nothing but its link, and the link names the schema it shows ("RejectsList"), where a
    table has no type column: the link is the row's type (a body parameter's schema, thirty-fifth round)."""
    row_links = links[index] if links and index < len(links) else []
    column = cols["description"]
    target = row_links[column] if column < len(row_links) else ""
    shown = re.sub(r"[\W_]+", "", cell).lower()
    # a link to a type's own docs ("[String]") names no schema
    return bool(target) and not is_type_link(target) and shown == re.sub(r"[\W_]+", "", target).lower()


def _opens_with(cell: str, target: str) -> bool:
    """A cell whose first word is the name its link points to, perhaps as a list ("Record", "[ Record ]")."""
    return bool(target) and re.match(r"\[?\s*" + re.escape(target) + r"(?![\w.-])", cell.strip()) is not None


def _unflatten(rows: list[FieldRow]) -> list[FieldRow]:
    """Dotted paths ("crew[].credit_id", "media.name") as nesting: the last part is the name and each
    part before it one level down, when the parent path is itself a row above (else it stays a name)
    that can hold fields: under a scalar ("certification string", then "certification.lte string",
    query operators) a dotted name is a name of its own."""
    seen: dict[str, str | None] = {}
    for row in rows:
        path = row.name
        if row.name.endswith("[]"):
            row.name = row.name.rstrip("[]")  # "board[][]": a list of lists
            row.type = "array"  # "crew[] (object)": a list of what the type names
        parent, dot, leaf = row.name.rpartition(".")
        if dot and leaf and row.depth == 0 and parent in seen and seen[parent] not in SCALARS:
            row.name = leaf
            row.depth = parent.replace("[]", "").count(".") + 1
        seen[path.rstrip("[]")] = seen[path] = row.type
    return rows


# Words a column header may say beside the ones `_columns` reads: a field's other attributes.
_OTHER_COLUMNS = {"deprecated", "default", "default value", "example", "examples", "pattern", "enum", "nullable"}


def is_column_row(row: list[str], following: list[str]) -> bool:
    """Whether a table's first row, drawn in plain cells, is its header row all the same: two cells or more,
    each a column's name ("name | location | description | required | deprecated", "Property | Type"),
    the first a name column's, over a row that is no such row (a field's: "name | type: string")."""
    known = _NAME_HEADERS | _IN_HEADERS | _TYPE_HEADERS | _REQUIRED_HEADERS | _DESC_HEADERS | _OTHER_COLUMNS
    words = [cell.strip().lower().rstrip(":") for cell in row]
    if len(words) < 2 or words[0] not in _NAME_HEADERS or not following or not following[0].strip():
        return False
    if all(cell.strip().lower().rstrip(":") in known for cell in following):
        return False
    return all(word in known for word in words) and len(_columns(row)) >= 2


def column_roles(header_row: list[str]) -> dict[str, int]:
    """The column each role (name, in, type, required, description) has in a header row."""
    return _columns(header_row)


def _columns(header_row: list[str]) -> dict[str, int]:
    cols: dict[str, int] = {}
    for index, cell in enumerate(header_row):
        word = cell.strip().lower().rstrip(":")
        for role, names in (("name", _NAME_HEADERS), ("in", _IN_HEADERS), ("type", _TYPE_HEADERS),
                            ("required", _REQUIRED_HEADERS), ("description", _DESC_HEADERS)):  # fmt: skip
            if word in names and role not in cols:
                cols[role] = index
    return cols


def _clean_name(cell: str) -> tuple[str, int] | None:
    marks = _DEPTH_MARKS.match(cell)
    depth = marks.group(0).count("»") + marks.group(0).count("›") if marks else 0
    words = cell[marks.end() if marks else 0 :].split()
    if not words:
        return None
    name = words[0].strip("`'\"*:,")
    if not _NAME.match(name):
        return None
    return name, depth


def _required_word(text: str) -> bool | None:
    lowered = text.lower()
    if re.search(r"\b(optional|not required)\b", lowered) or lowered.strip() in ("false", "no", "n"):
        return False
    # A mark in a Required column ("X", "✓") says yes as the word does.
    if re.search(r"\brequired\b", lowered) or lowered.strip() in ("true", "yes", "y", "*", "x", "✓", "✔"):
        return True
    return None


def _row(row: list[str], cols: dict[str, int]) -> FieldRow | None:
    def cell(role: str) -> str:
        index = cols.get(role)
        return row[index] if index is not None and index < len(row) else ""

    named = _clean_name(cell("name"))
    if named is None:
        return None
    name, depth = named
    rest = cell("name").split()[1:]
    in_cell = cell("in").strip().lower()  # "formData" as Swagger 2 spells it, "formdata", "FORMDATA"
    location = next((known for known in LOCATIONS if known.lower() == in_cell), None)
    required = _required_word(cell("required")) if "required" in cols else None
    if required is None and rest:
        required = _required_word(" ".join(rest))
    if (
        "required" in cols
        and cols["required"] < len(row)
        and row[cols["required"]].strip().lower() in ("optional",)
    ):
        required = False
    # "#/components/schemas/Pet", or a list of them ("array #/components/schemas/Pet").
    reference = re.match(r"(array\s+)?#/[\w./-]*/([\w.-]+)$", cell("type").strip())
    if reference:
        type_ = "array" if reference.group(1) else "object"
        return FieldRow(name, depth, location, type_, required, cell("description"), ref=reference.group(2))
    type_ = normalize_type(cell("type"))
    if said := _STATED_TYPE.match(cell("type")):
        # "type: string description: The number of …": the type the cell states under its label, not the
        # first type word anywhere in it
        type_ = normalize_type(said.group(1)) or type_
    enum_of = re.fullmatch(r"\[\s*(\w+)\s*\]", cell("type").strip())
    if enum_of and any(re.match(r"\s*enum\b", c, re.I) for c in row):
        type_ = normalize_type(enum_of.group(1))  # "[String]" beside "Enum: album, single": one of them
    if "type" not in cols and "in" not in cols and rest:
        # One cell says all about the name ("id * integer ($int64) (path)"): a mark or word for
        # required, the type, the location in parentheses.
        shown = " ".join(rest)
        place = _PLACE.search(shown)
        location = location or (place.group(1) if place else None)
        required = True if required is None and shown.startswith("*") else required
        type_ = normalize_type(_PARENTHESES.sub(" ", shown).replace("*", " "))
    description = cell("description") or _said_description(cell("type"))
    bare_list = cell("type").strip().lower() == "array"
    if type_ is None and "type" not in cols and (stated := _STATED_TYPE.match(description)):
        # "Type: integer<int32> maximum number of results": the description cell states the type under a
        # label of its own (no Type column); the description is what follows it
        type_, description = normalize_type(stated.group(1)), description[stated.end() :]
    if type_ is None and "type" not in cols and (led := _LED_BY_TYPE.match(description)):
        type_ = normalize_type(led.group(0))  # "Long (int64) ID of pet to fetch": no Type column
    return FieldRow(name, depth, location, type_, required, description, bare_list=bare_list)


# A schema's keywords as "key: value" runs in one cell ("type: string description: The pet's name. format:
# …"): the description runs up to the next keyword.
_SAID_DESCRIPTION = re.compile(r"(?:^|\s)description\s*:\s*", re.I)
_NEXT_KEYWORD = re.compile(
    r"\s(?:type|format|enum|default|example|pattern|items|minimum|maximum|nullable|deprecated|required|\$?ref)\s*:\s",
    re.I,
)


def _said_description(cell: str) -> str:
    """The description a type cell states under its own label among the schema's keywords, if any."""
    said = _SAID_DESCRIPTION.search(cell)
    if said is None or not _STATED_TYPE.match(cell):
        return ""
    rest = cell[said.end() :]
    following = _NEXT_KEYWORD.search(rest)
    return (rest[: following.start()] if following else rest).strip()


def _columns_row(row: list[str], name: str, depth: int) -> FieldRow:
    """A headerless row with a cell that is only a location ("query"): each later cell is one column,
    told by its shape: the location, a cell led by a type word ("integer (int64)", "string[]"), a
    required word, and the rest a description."""
    location, type_, required, description = None, None, _required_word(" ".join(row[0].split()[1:])), []
    for cell in (c.strip() for c in row[1:]):
        first = cell.split()[0] if cell.split() else ""
        if location is None and cell in LOCATIONS:
            location = cell
        elif type_ is None and first and any(pattern.search(first) for _, pattern in _TYPE_WORDS):
            type_ = normalize_type(first)
        elif required is None and cell.lower() in ("required", "optional", "yes", "no", "true", "false"):
            required = _required_word(cell)
        elif cell:
            description.append(cell)
    return FieldRow(name, depth, location, type_, required, " ".join(description))


def _named_type(text: str) -> str | None:
    """The type a type word names in `text` ("* string", "integer ($int64) (path)"); None where no type
    word does (a capitalised word alone, "Required", names no type here)."""
    return next((name for name, pattern in _TYPE_WORDS if pattern.search(text)), None)


def _shape_row(row: list[str]) -> FieldRow | None:
    named = _clean_name(row[0])
    if named is None:
        return None
    name, depth = named
    if any(cell.strip() in LOCATIONS for cell in row[1:]):
        return _columns_row(row, name, depth)
    rest_of_first = " ".join(row[0].split()[1:])
    others = " ".join(row[1:])
    # The name's own cell may state the type ("api_key * string | You can find …"): then the next cell is
    # the description, whose capitalised first word names no schema.
    own = _named_type(rest_of_first)
    type_ = own or normalize_type(others.split(" ")[0] if others else "") or normalize_type(rest_of_first)
    if type_ is None and others:
        type_ = normalize_type(" ".join(others.split()[:4]))
    required = _required_word(rest_of_first)
    if required is None:
        required = bool(re.search(r"\brequired\b", others.lower()[:40])) or None
    location = None
    for word in rest_of_first.lower().split():
        if word in LOCATIONS:
            location = word
    first_word = others.split()[0] if others.split() else ""
    description = _TYPE_PREFIX.sub("", others, count=1) if not own and normalize_type(first_word) else others
    return FieldRow(name, depth, location, type_, required, description)
