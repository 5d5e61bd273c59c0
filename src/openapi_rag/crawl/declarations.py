"""Fields written as type declarations in a code block, as many generators and SDK docs show them:

    {
      // The name of the pet
      name: string
      tag?: string
      owner: {
        id: integer
      }
      photos?: {
        url: string
      }[]
    }

TypeScript-style: `name: type`, `?` marks an optional field, `{` opens the fields of an object
(`}[]` closes a list of them), `//` comments before a field describe it. A block becomes a field
table (name, type, required, description; depth as `»` marks, as schema tables show nesting), so
labels, kinds and nesting downstream treat it like any table. A block with any other line is code.
"""

from __future__ import annotations

import re
import unicodedata

MAX_LINES = 5_000
_FIELD = re.compile(r"^([A-Za-z0-9_$][\w$.-]{0,99})(\?)?\s*:\s*(.*?)\s*[,;]?$")  # "vote_count.gte?: integer"
_STARRED = re.compile(r"^([A-Za-z0-9_$][\w$.-]{0,99})\s*(\*)?\s*:\s*(.*?)\s*[,;]?$")  # "id * : integer"
_OPTION = re.compile(r"^\d{1,3}\s*{$")
_BARE_TYPE = re.compile(r"^(\[\])+$|^(string|integer|number|boolean|enum\[[^\]]*\])(\[\])*$", re.I)
_CLOSE = re.compile(r"^}\s*(\[\]|\])?\s*[,;]?$")  # "}", "}[]" or "}]": the end of a list of objects
# A declared type starts with a type word, a reference or a brace; a YAML example's values
# ("Enabled: true", "rows: 100", "ClientId: OQ7c...") do not, so an example is never read as fields.
# A string's format drawn where its type would be ("url: uri┃null", "id: uuid"): a type too, when nothing but
# marks follow it ("email: ops@example.com" is an example's value). Issue 17's thirty-ninth round.
_TYPE = re.compile(
    r"^(string|integer|number|boolean|object|array|int\d*|float|double|long|date|date-time|datetime|any|"
    r"unknown|null|enum|binary|file|map|record)\b|^\[(string|integer|number|boolean|object)\]|^#/|^{|{$"
    r"|^(?:uri|url|email|uuid|byte)(?=$|[\s┃|\[(<,;])", re.I
)  # fmt: skip
_ANONYMOUS = {"undefined"}
# A type written as a wrapper around a type word or an object ("Partial(string) & Partial({"): the thirty-sixth
# round's combined types, whose parentheses may span lines.
_WRAPPED = re.compile(r"^\w+\(\s*(string|integer|number|boolean|object|array|\{)", re.I)
_REFERENCE = re.compile(r"#/[\w./-]+")  # what some generators print for a schema with no name of its own


def without_symbols(run: str) -> str:
    """A run less the symbols drawn in it as marks ("id: string 🆁", "custom_mappings 🆁: null┃{": read-only,
    write-only), which are no part of a name or a type (thirty-fifth round)."""
    if not any(unicodedata.category(c) == "So" for c in run):
        return run.strip()
    return re.sub(r"\s+", " ", "".join(" " if unicodedata.category(c) == "So" else c for c in run)).strip()


def declaration_runs(runs: list[str]) -> str | None:
    """A schema tree drawn as runs of text, one declaration a run ("{", "id: integer", "tags: [{",
    "Pattern: ^[a-z]+$", "}]", "}"), as a block of declarations: the runs that declare a field or
    open or close an object, the notes between them (constraints, allowed values) left out. None
    when that leaves no field table."""
    kept = []
    for run in runs:
        line = _OPTION.sub("{", without_symbols(run))  # "ONE OF", "1 {", "2 {": each option's fields in turn
        if line in ("{", "[{") or _CLOSE.match(line):
            kept.append(line)
        elif (found := _STARRED.match(line)) and _TYPE.search(found.group(3)):
            # Drawn trees mark a required field with an asterisk ("id * : integer"), so an unmarked
            # one is optional: written as declarations mark them ("id: integer", "tag?: string").
            kept.append(f"{found.group(1)}{'' if found.group(2) else '?'}: {found.group(3)}")
    text = "\n".join(kept)
    return text if declaration_rows(text) is not None else None


def declaration_rows(text: str) -> list[list[str]] | None:
    """[header, rows...] of a block of field declarations, or None when the block is anything else."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or len(lines) > MAX_LINES:
        return None
    rows: list[list[str]] = [["name", "type", "required", "description"]]
    opened: list[int | None] = []  # per open brace: the row it belongs to (None: an anonymous object)
    comment: list[str] = []
    open_parens = 0  # parentheses a combined type left open: its lines run on until they close
    for line in lines:
        if open_parens > 0:
            open_parens += line.count("(") - line.count(")")
            continue
        if not line:
            continue
        if line.startswith("//"):
            comment.append(line[2:].strip())
            continue
        if line in ("{", "[{"):  # an object, or a list of them, with no name of its own
            opened.append(None)
            continue
        if _BARE_TYPE.match(line):  # the item type of an unnamed list ("[][]", "string"): no field
            continue
        closing = _CLOSE.match(line)
        if closing:
            if not opened:
                return None
            owner = opened.pop()
            if owner is not None and closing.group(1):
                rows[owner][1] = "array"  # "}[]": a list of such objects
            continue
        found = _FIELD.match(line)
        if found is None:
            return None
        name, optional, type_text = found.groups()
        if wrapped := _WRAPPED.match(type_text):
            # A combined type ("value?: Partial(string) & Partial({"), its parentheses perhaps running over the
            # following lines ("}) & Partial(…", "})[])"): one field, the lines inside no fields of their own;
            # its type the first one it combines.
            open_parens = type_text.count("(") - type_text.count(")")
            type_text = wrapped.group(1).replace("{", "")
        elif not _TYPE.search(type_text):
            return None
        depth = sum(owner is not None for owner in opened)
        opens = type_text.endswith("{")
        description = " ".join(c for c in comment if c)
        comment = []
        reference = _REFERENCE.match(type_text)
        if name in _ANONYMOUS:
            if reference:  # "undefined?: #/components/schemas/NewPet & {": NewPet's fields, then these
                rows.append(["» " * depth + "allOf", reference.group(0), "", ""])
            if opens:
                opened.append(None)
            continue
        rows.append(
            [
                "» " * depth + name,
                _referenced(type_text, reference.group(0)) if reference else "object" if opens else type_text,
                "optional" if optional else "required",
                description,
            ]
        )
        if opens:
            opened.append(len(rows) - 1)
    return rows if len(rows) > 1 and not opened and open_parens <= 0 else None


def _referenced(type_text: str, reference: str) -> str:
    """A reference's type cell: a list of the schema where the reference ends in brackets
    ("#/components/schemas/Address[]", thirty-sixth round), as a table writes it ("array #/…")."""
    return f"array {reference}" if type_text[len(reference) :].startswith("[]") else reference


_SCHEMA_KEYWORDS = {
    "type",
    "$ref",
    "properties",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "enum",
    "format",
    "description",
}
MAX_SCHEMA_ROWS = 5_000


def json_schema_rows(value: object) -> list[list[str]] | None:
    """[header, rows...] of a JSON Schema shown as a code block ({"type": "object", "properties":
    {...}}, or an array of such objects), the same rows as a block of declarations: a schema states
    its fields, types, descriptions and `required`, where an example shows values. None for any
    other JSON (an example whose values are not all schemas)."""
    rows: list[list[str]] = [["name", "type", "required", "description"]]
    if isinstance(value, dict) and isinstance(own := value.get("definitions", value.get("$defs")), dict):
        value = _inlined(value, own, (), [20_000])  # the block's own definitions hold what its `$ref`s name
    if _is_reference(_items_of(value)):
        # The whole body is another schema ({"type": "array", "items": {"$ref": ...}}): an anonymous
        # row that names it, whose fields come from the page's section of that name.
        # Named "anonymous", never "items": a row named so beside others is a property of that name.
        return [*rows, ["anonymous", _reference_type(value), "", ""]]  # type: ignore[arg-type]
    if not _is_object_schema(_items_of(value)):
        return None
    _schema_fields(_items_of(value), 0, rows)
    return rows if len(rows) > 1 else None


def _inlined(schema: object, own: dict, path: tuple[str, ...], budget: list[int]) -> object:
    """The schema with each `$ref` to the block's own definitions ("#/definitions/movie", "#/$defs/x")
    replaced by what it names, as JSON Schema resolves a local pointer. Bounded: 5 references deep, a
    definition already on the way down stays a reference (cyclic schemas), and at most 20,000 nodes
    made in all (references shared by many fields could multiply them)."""
    budget[0] -= 1
    if budget[0] < 0:
        return schema
    if isinstance(schema, list):
        return [_inlined(item, own, path, budget) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and (name := re.sub(r"^#/(?:definitions|\$defs)/", "", ref)) != ref:
        if name in own and name not in path and len(path) < 5 and isinstance(own[name], dict):
            merged = {**own[name], **{k: v for k, v in schema.items() if k != "$ref"}}
            return _inlined(merged, own, (*path, name), budget)
        return schema
    return {
        key: value if key in ("definitions", "$defs") else _inlined(value, own, path, budget)
        for key, value in schema.items()
    }


def _items_of(schema: object) -> object:
    """An array schema's item schema (nested arrays unwrapped, bounded), else the schema itself."""
    for _ in range(8):
        if not (
            isinstance(schema, dict)
            and schema.get("type") == "array"
            and isinstance(schema.get("items"), dict)
        ):
            break
        schema = schema["items"]
    return schema


def _is_object_schema(schema: object) -> bool:
    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return False
    properties = schema.get("properties")
    if isinstance(properties, dict) and properties:
        return all(isinstance(p, dict) and p.keys() & _SCHEMA_KEYWORDS for p in properties.values())
    parts = schema.get("allOf")
    return (
        isinstance(parts, list)
        and bool(parts)
        and all(_is_object_schema(p) or _is_reference(p) for p in parts)
    )


def _reference_type(schema: dict) -> str:
    """The type cell of a reference, or of a list of one ("array #/components/schemas/Pet"): the page's
    section of that name holds its fields (followed downstream, bounded and cycle-safe)."""
    inner = _items_of(schema)
    return inner["$ref"] if inner is schema else f"array {inner['$ref']}"  # type: ignore[index]


def _is_reference(schema: object) -> bool:
    return isinstance(schema, dict) and isinstance(schema.get("$ref"), str)


def _schema_fields(schema: dict, depth: int, rows: list[list[str]]) -> None:
    """Rows for the schema's properties (allOf parts in turn), nested ones one `»` deeper; 4 levels at
    most, as the field tables are read."""
    for part in schema.get("allOf") or []:
        if _is_reference(part):
            rows.append(["» " * depth + "allOf", part["$ref"], "", ""])
        elif isinstance(part, dict):
            _schema_fields(part, depth, rows)
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    for name, field in (schema.get("properties") or {}).items():
        if not isinstance(field, dict) or len(rows) > MAX_SCHEMA_ROWS:
            continue
        inner = _items_of(field)
        kind = (
            _reference_type(field)
            if _is_reference(inner)
            else str(field.get("type") or ("object" if "properties" in field else ""))
        )
        description = field.get("description") if isinstance(field.get("description"), str) else ""
        rows.append(
            [
                "» " * depth + str(name),
                kind,
                "required" if name in required else "optional",
                " ".join(description.split()),
            ]
        )
        if depth < 3 and isinstance(inner, dict) and (inner.get("properties") or inner.get("allOf")):
            _schema_fields(inner, depth + 1, rows)
