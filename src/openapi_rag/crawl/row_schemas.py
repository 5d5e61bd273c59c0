"""Schemas from field rows: rows of a table (» depth marks, nested tables) become a nested object
schema, and a row that names a schema documented in its own page section takes that section's fields."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from openapi_rag.crawl.page_words import PageWords
from openapi_rag.crawl.schema_sections import schema_named as page_schema
from openapi_rag.crawl.tables import FieldRow

_REFERENCE_LEVELS = 3  # schemas entered by reference below one row (the scorer reads four levels)
# A row named for the part it stands in ("body", "Response": a schema of no fields of its own drawn as one
# row, its fields as "Response.id" below it) wraps them, as an allOf's part or an array's items do.
_ANONYMOUS = {"anonymous", "body", "response", "allof", "oneof", "anyof", "items", "root", "data*"}


def with_references(
    rows: list[FieldRow], named: dict[str, list[FieldRow]], path: tuple[str, ...] = ()
) -> list[FieldRow]:
    """Rows with the fields of each schema a row names by reference (documented in its own page
    section) inserted under it, and theirs under them: at most _REFERENCE_LEVELS deep, and a schema
    already on the way down is not entered again, so cyclic schemas cannot loop."""
    out: list[FieldRow] = []
    wrappers = _wrappers(rows)
    for index, row in enumerate(rows):
        if index in wrappers and row.name.lower() == "items":
            # An array's item wrapper stays one when the fields it names join it at its level.
            row = replace(row, name="anonymous")
        name = page_schema(row.ref, named) if row.ref else _named_untyped(rows, index, named)
        if not name and not row.ref and (listed := _listed_items(rows, index, named)):
            name, row = listed, replace(row, type="array")
        if not name and not row.type and _untyped_as_named(rows, index, named):
            # No stated type, no fields of its own, named exactly as a schema the page draws as fields ("HomeAddress"
            # | | over a section "HomeAddress") among rows that state theirs: an object, whose fields are not read in
            # (a row so named may be a list of the page's sections, thirty-sixth round). Fortieth round.
            row = replace(row, type="object")
        if name and not row.type and named[name]:
            # No stated type but a link to a schema the page draws as fields ("ExternalUrlObject"): an
            # object, whether or not its fields are read in below (past the levels followed, or on the way down).
            row = replace(row, type="object")
        out.append(row)
        if name and name not in path and len(path) < _REFERENCE_LEVELS:
            below = row.depth + (0 if index in wrappers else 1)
            children = with_references(named[name], named, (*path, name))
            out.extend(replace(child, depth=child.depth + below, ref="") for child in children)
    return out


def _named_untyped(rows: list[FieldRow], index: int, named: dict[str, list[FieldRow]]) -> str | None:
    """The page schema a row of no stated type, no link and no fields of its own is named after: a field drawn
    with an empty type cell among fields whose cells state theirs (a reference its renderer does not print),
    named as the schema the page documents under its own heading but for its first letter's case
    ("bookDepreciationSetting" | | over a section "BookDepreciationSetting"). Rows of which none states a type
    name one only where each is named so.
    Issue 17's thirty-sixth round."""
    row = rows[index]
    if row.type or row.ref or (index + 1 < len(rows) and rows[index + 1].depth > row.depth):
        return None
    found = _schema_of_name(row.name, named)
    if not found:
        return None
    if not any(other.type for other in rows) and not all(_schema_of_name(other.name, named) for other in rows):
        # None of the rows states a type: a field named as a schema is one only where every row is
        # ("pagination", "problem", "earningsRate" over sections "Pagination", "Problem", "EarningsRate": an
        # object of references its renderer does not print). Issue 17's thirty-ninth round.
        return None
    return found


def _untyped_as_named(rows: list[FieldRow], index: int, named: dict[str, list[FieldRow]]) -> bool:
    row = rows[index]
    if row.ref or (index + 1 < len(rows) and rows[index + 1].depth > row.depth):
        return False
    found = _schema_as_named(row.name, named)
    return bool(found and named[found] and any(other.type for other in rows))


def _listed_items(rows: list[FieldRow], index: int, named: dict[str, list[FieldRow]]) -> str | None:
    """The page schema a list's items are, by the list's name: a row whose type cell says `array` alone, or of no
    stated type among rows that state theirs, with no link and no fields of its own, named as the plural of a schema
    the page documents under its own heading ("invalidFields | array" over a section "InvalidField",
    "timesheetLines | |" over "TimesheetLine"), as code names a list of them. Issue 17's thirty-ninth round."""
    row = rows[index]
    if (row.type == "array" and not row.bare_list) or row.type not in ("array", None):
        return None  # a list whose items the page states ("string[]", "array(string)")
    if index + 1 < len(rows) and rows[index + 1].depth > row.depth:
        return None
    if row.type is None and not any(other.type for other in rows):
        return None
    for singular in _singulars(row.name):
        if (found := _schema_of_name(singular, named)) and named[found] and not _scalar_section(found, named):
            return found
    return None


def _schema_as_named(name: str, named: dict[str, list[FieldRow]]) -> str | None:
    """The page schema of exactly a name, in the schema's own case ("HomeAddress" of a section "HomeAddress"), not
    a section of parameters."""
    found = page_schema(name, named)
    if found != name or any(field.location for field in named[found]):
        return None
    return found


def _singulars(name: str) -> list[str]:
    """The singulars an English plural may stand for ("categories" → "category", "addresses" → "address",
    "pets" → "pet"); none for a word not ending in a plural's "s"."""
    if not name.endswith("s") or name.endswith("ss"):
        return []
    out = [name[:-3] + "y"] if name.endswith("ies") else []
    if name.endswith("es"):
        out.append(name[:-2])
    return [*out, name[:-1]]


def _scalar_section(name: str, named: dict[str, list[FieldRow]]) -> bool:
    """Whether a section draws a scalar schema as one row named as itself ("Language | string" under "Language"):
    a list of them holds such values ("languages | array(string)"), no objects."""
    rows = named[name]
    return len(rows) == 1 and rows[0].name.lower() == name.lower()


def _schema_of_name(name: str, named: dict[str, list[FieldRow]]) -> str | None:
    """The page schema a property is named after as code names them: the schema's name with its first letter in
    lower case ("bookDepreciationSetting" of "BookDepreciationSetting"); a row named exactly as a section is a
    list of the page's sections (its tags), no field. The section's table is a schema's, not parameters' (a tag's
    section headed "Tracks" over its first operation's parameters, "ids" in query)."""
    found = page_schema(name, named)
    if not found or not found[:1].isupper() or name != found[:1].lower() + found[1:]:
        return None
    return None if any(field.location for field in named[found]) else found


def _wrappers(rows: list[FieldRow]) -> set[int]:
    """Rows that only wrap their children (allOf parts, a body, an array's items): transparent. A row
    named "items" beside fields of its own level is a property of that name (a paging object's
    `items` next to `total` and `next`), not an array's item wrapper; so is one typed a list (a body's
    only field "items: object[]", its fields nested under it), as the wrapper is the item itself."""
    out = set()
    for index, row in enumerate(rows):
        if row.name.isdigit() and row.depth > 0:
            # "vote_average.0", "item.0.album": an alternative of a oneOf or anyOf named by its position
            out.add(index)
            continue
        if row.name.lower().strip("*") not in _ANONYMOUS:
            continue
        if row.name.lower() == "items" and (_has_sibling(rows, index) or row.type == "array"):
            if not _items_of_list(rows, index):
                continue  # beside fields of its own level, or itself a list ("items: object[]"): a property
        out.add(index)
    return out


def _items_of_list(rows: list[FieldRow], index: int) -> bool:
    """Whether an "items" row is the only row one level below a list's ("categories", array, then "items",
    array, then its own "items"): the list's item wrapper, itself a list where the list holds lists."""
    row = rows[index]
    parent = index - 1
    if parent < 0 or rows[parent].depth != row.depth - 1 or rows[parent].type != "array":
        return False
    return not _has_sibling(rows, index)


def _has_sibling(rows: list[FieldRow], index: int) -> bool:
    """Whether another row of the same parent shares this row's level (bounded: 500 rows each way)."""
    depth = rows[index].depth
    for step in (-1, 1):
        at = index + step
        while 0 <= at < len(rows) and abs(at - index) <= 500 and rows[at].depth >= depth:
            if rows[at].depth == depth:
                return True
            at += step
    return False


def schema_from_rows(rows: list[FieldRow], page_text: PageWords, dropped: list[str]) -> dict[str, Any]:
    """A nested object schema from table rows; » depth marks (or nested tables) give the nesting."""
    root: dict[str, Any] = {"type": "object", "properties": {}}
    # stack[d] is the properties dict at depth d; anonymous rows (allOf parts, "body") are transparent.
    stack: list[dict[str, Any]] = [root["properties"]]
    required_at: list[list[str]] = [[]]
    parents: list[dict[str, Any]] = [root]
    wrappers = _wrappers(rows)
    for index, row in enumerate(rows):
        name = row.name
        depth = min(row.depth, len(stack) - 1)
        if index in wrappers:
            del stack[depth + 1 :], parents[depth + 1 :], required_at[depth + 1 :]
            stack.append(stack[depth])
            parents.append(parents[depth])
            required_at.append(required_at[depth])
            continue
        if name not in page_text:
            dropped.append(name)
            continue
        del stack[depth + 1 :], parents[depth + 1 :], required_at[depth + 1 :]
        if not row.type and index + 1 < len(rows) and rows[index + 1].depth > row.depth:
            row = replace(row, type="object")  # no stated type ("owner any", an allOf's) over fields of its own
        schema: dict[str, Any] = {"type": row.type or "string"}
        if row.description and row.description.lower() != "none":
            schema["description"] = row.description[:500]
        if row.type == "array":
            schema["items"] = {"type": "object", "properties": {}}
            children = schema["items"]
        else:
            children = schema
            if row.type == "object":
                schema["properties"] = {}
        stack[depth][name] = schema
        if row.required:
            parent = parents[depth]
            parent.setdefault("required", [])
            if name not in parent["required"]:
                parent["required"].append(name)
        stack.append(children.setdefault("properties", {}) if row.type in ("object", "array") else {})
        parents.append(children)
        required_at.append([])
    _prune(root)
    return root


def _prune(schema: dict[str, Any]) -> None:
    """Drop empty `properties` and `required` the tables left (they are not wrong, only noise)."""
    props = schema.get("properties")
    if isinstance(props, dict):
        for child in props.values():
            if isinstance(child, dict):
                _prune(child)
        if not props and schema.get("type") != "object":
            del schema["properties"]
    items = schema.get("items")
    if isinstance(items, dict):
        _prune(items)
        if items.get("properties") == {}:
            items.pop("properties")
        if items == {"type": "object"}:
            schema["items"] = {}
    if schema.get("properties") == {}:
        del schema["properties"]
    if not schema.get("required"):
        schema.pop("required", None)
    else:
        schema["required"] = [n for n in schema["required"] if n in schema.get("properties", {})] or None
        if schema["required"] is None:
            del schema["required"]
