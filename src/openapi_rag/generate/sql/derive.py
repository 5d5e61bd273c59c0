"""Derive a relational schema from API descriptions: one table per object that GET operations return.

The study this follows (RAG, Self-RAG and CoRAG over banking APIs) builds one table per response
object with at least two meaningful columns. Here:

- The objects are found in each GET operation's success response: the object itself, the items of
  an array, or the objects a wrapper holds (`{"items": [...]}`, `{"data": {...}}`), a few levels deep.
  Without a schema, the response example is used (`convert.infer`), as SOCBench-D's specs have none.
- Versions of one object (`SimplifiedAlbumObject`, `AlbumObject`) are one table, columns united.
- Scalar properties are columns. A nested object that is an entity (it has an `id` and is a table
  itself) becomes a foreign key `<property>_id`; any other nested object is flattened one level
  (`followers_total`). Arrays are left out: a list inside a row is not a column.
- A column `<thing>Id` / `<thing>_id` that names another table with an `id` is a foreign key too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from openapi_rag.convert.infer import infer_schema
from openapi_rag.generate.sql.schema import Column, DbSchema, Table
from openapi_rag.model import SCHEMA_REF_PREFIX, Service

MIN_COLUMNS = 2
MAX_DEPTH = 4  # how far into wrappers and nested objects objects are looked for
MAX_COLUMNS = 60
MAX_TABLES = 5000  # a bound, not a target: the 209 realworld services derive ~2,900 tables
_LINK_NAMES = {"href", "uri", "url", "_links", "links", "self", "next", "previous", "prev"}
# Page bookkeeping: a wrapper that holds only these and links is not a table of its own.
_PAGING_NAMES = {
    "limit",
    "offset",
    "total",
    "page",
    "per_page",
    "page_size",
    "cursor",
    "cursors",
    "count",
    "total_pages",
    "total_results",
    "total_count",
    "next_page",
    "has_more",
}
_PREFIXES = ("Simplified", "Full", "Private", "Public", "Detailed", "Basic", "Base", "Extended")
_SUFFIXES = ("Object", "Response", "Dto", "DTO", "Model", "Schema", "Resource", "Entity", "Details")
_SCALAR_TYPES = {"string": "TEXT", "integer": "INTEGER", "number": "REAL", "boolean": "INTEGER"}


def derive_schema(services: Iterable[Service], problems: list[str] | None = None) -> DbSchema:
    """One table per object returned by GET operations (see the module docstring for the rules).

    An operation whose response cannot be read is skipped with a line in `problems` (file and
    operation), so one odd description never stops a corpus.
    """
    found: dict[tuple[str, str], _Found] = {}  # (service id, table name) → what it holds
    for service in services:
        for op in service.operations:
            if op.method != "GET":
                continue
            try:
                schema = _response_schema(op.responses)
                if schema:
                    _collect(service, schema, op.id, _path_noun(op.path), found, depth=0, stack=())
            except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
                if problems is not None:
                    problems.append(f"{service.file}: {op.id}: response not read as a table ({exc!r})")
    keys = [k for k, f in found.items() if _meaningful(f.service, f.schema) >= MIN_COLUMNS]
    entities = {k for k in keys if "id" in _scalar_props(found[k].service, found[k].schema)}
    # Two services returning `users` get a table each, named after their service.
    services_of: dict[str, set[str]] = {}
    for service_id, name in keys:
        services_of.setdefault(name, set()).add(service_id)
    final = {k: k[1] if len(services_of[k[1]]) == 1 else f"{_snake(k[0])}_{k[1]}" for k in keys}
    if len(keys) > MAX_TABLES and problems is not None:
        problems.append(f"{len(keys)} tables found; only the first {MAX_TABLES} by name are kept")
    tables = [
        _build_table(k, found[k], entities, final) for k in sorted(keys, key=lambda k: final[k])[:MAX_TABLES]
    ]
    _link_by_name(tables)
    return DbSchema(_parents_first(tables))


class _Found:
    """An object that will become a table: its merged schema and where it was seen."""

    def __init__(self, service: Service, schema: dict[str, Any], description: str) -> None:
        self.service = service
        self.schema = schema
        self.description = description
        self.schema_names: list[str] = []
        self.operations: list[str] = []


def _resolve(service: Service, node: Any, depth: int = 0) -> tuple[str | None, dict[str, Any]]:
    """(component name or None, schema) with `$ref`s followed and `allOf` merged; cycle-safe by depth."""
    name = None
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) and depth < 20:
        ref = node["$ref"]
        if not ref.startswith(SCHEMA_REF_PREFIX):
            return None, {}
        name = ref[len(SCHEMA_REF_PREFIX) :]
        target = service.schemas.get(name)
        node = target.schema if target else {}
        depth += 1
    if not isinstance(node, dict):
        return name, {}
    parts = node.get("allOf")
    if isinstance(parts, list) and len(parts) == 1 and "properties" not in node and depth < 20:
        return _resolve(service, parts[0], depth + 1)  # `allOf: [$ref]`, the 3.0 way to describe a $ref
    if "allOf" in node and depth < 20:
        merged: dict[str, Any] = {"type": "object", "properties": {}}
        for part in node.get("allOf") or []:
            _, body = _resolve(service, part, depth + 1)
            merged["properties"].update(body.get("properties") or {})
            merged.setdefault("description", body.get("description"))
        merged["properties"].update(node.get("properties") or {})
        return name, merged
    for key in ("oneOf", "anyOf"):
        options = node.get(key)
        if isinstance(options, list) and options and "properties" not in node:
            return _resolve(service, options[0], depth + 1)
    return name, node


def _response_schema(responses: dict[str, Any]) -> dict[str, Any] | None:
    for status in ("200", "201", "default"):
        response = responses.get(status)
        if not isinstance(response, dict):
            continue
        for media, body in (response.get("content") or {}).items():
            if "json" not in media or not isinstance(body, dict):
                continue
            if isinstance(body.get("schema"), dict) and body["schema"]:
                return body["schema"]
            if "example" in body:
                return infer_schema(body["example"])
            examples = body.get("examples")
            if isinstance(examples, dict):
                for example in examples.values():
                    if isinstance(example, dict) and "value" in example:
                        return infer_schema(example["value"])
        if isinstance(response.get("schema"), dict):
            return response["schema"]
    return None


def _kind(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):  # OpenAPI 3.1: ["string", "null"]
        kind = next((k for k in kind if k != "null"), None)
    if kind is None and "properties" in schema:
        return "object"
    return kind if isinstance(kind, str) else ""


def _scalar_props(service: Service, schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for prop, raw in (schema.get("properties") or {}).items():
        _, body = _resolve(service, raw)
        if _kind(body) in _SCALAR_TYPES and prop not in _LINK_NAMES:
            out[prop] = body
    return out


def _meaningful(service: Service, schema: dict[str, Any]) -> int:
    return len([p for p in _scalar_props(service, schema) if p not in _PAGING_NAMES])


def _collect(
    service: Service,
    node: Any,
    operation: str,
    noun: str,
    found: dict[tuple[str, str], _Found],
    *,
    depth: int,
    stack: tuple[str, ...],
    inside_table: bool = False,
) -> None:
    if depth > MAX_DEPTH:
        return
    ref_name, schema = _resolve(service, node)
    if ref_name and ref_name in stack:
        return
    stack = stack + (ref_name,) if ref_name else stack
    kind = _kind(schema)
    if kind == "array":
        _collect(
            service,
            schema.get("items"),
            operation,
            noun,
            found,
            depth=depth + 1,
            stack=stack,
            inside_table=inside_table,
        )
        return
    if kind != "object":
        return
    props = schema.get("properties") or {}
    is_table = _meaningful(service, schema) >= MIN_COLUMNS
    if inside_table and "id" not in _scalar_props(service, schema):
        is_table = False  # a part of a row (images, external ids) rather than a thing of its own
    if is_table:
        name = table_name(ref_name) if ref_name else noun
        if name:
            entry = found.get((service.id, name))
            if entry is None:
                description = schema.get("description") or ""
                entry = found[(service.id, name)] = _Found(
                    service, {"type": "object", "properties": {}}, description
                )
            for prop, value in props.items():
                entry.schema["properties"].setdefault(prop, value)
            if ref_name and ref_name not in entry.schema_names:
                entry.schema_names.append(ref_name)
            if operation not in entry.operations:
                entry.operations.append(operation)
    # Objects inside: the items of a page, entities nested in this one.
    for prop, value in props.items():
        child_noun = _snake(prop) if depth or not noun else noun
        _collect(
            service,
            value,
            operation,
            _plural(child_noun),
            found,
            depth=depth + 1,
            stack=stack,
            inside_table=inside_table or is_table,
        )


def _build_table(
    key: tuple[str, str], found: _Found, entities: set[tuple[str, str]], final: dict[tuple[str, str], str]
) -> Table:
    service = found.service
    name = final[key]
    columns: list[Column] = []
    taken: set[str] = set()

    def add(column: Column) -> None:
        if column.name.lower() not in taken and len(columns) < MAX_COLUMNS:
            taken.add(column.name.lower())
            columns.append(column)

    for prop, raw in (found.schema.get("properties") or {}).items():
        if prop in _LINK_NAMES or prop in _PAGING_NAMES - {"count", "total"}:
            continue
        ref_name, body = _resolve(service, raw)
        kind = _kind(body)
        if kind in _SCALAR_TYPES:
            add(_column(prop, body, primary_key=prop == "id"))
        elif kind == "object":
            target_key = (service.id, table_name(ref_name) if ref_name else "")
            target = final.get(target_key, "")
            nested = _scalar_props(service, body)
            if target_key in entities and target != name:
                add(
                    Column(
                        f"{prop}_id",
                        _type_of(nested.get("id", {})),
                        f"The {prop} ({target}.id)",
                        references=f"{target}.id",
                    )
                )
            else:
                for sub, sub_body in list(nested.items())[:12]:
                    add(_column(f"{prop}_{sub}", sub_body, prefix=prop))
    description = found.description or (f"Returned by {', '.join(found.operations[:3])}")
    source = {"service": service.id, "schemas": found.schema_names, "operations": found.operations}
    return Table(name, columns, " ".join(str(description).split()), source)


def _type_of(schema: dict[str, Any]) -> str:
    return _SCALAR_TYPES.get(_kind(schema), "TEXT")


def _column(name: str, schema: dict[str, Any], *, primary_key: bool = False, prefix: str = "") -> Column:
    kind = _kind(schema)
    fmt = "boolean" if kind == "boolean" else str(schema.get("format") or "")
    enum = [v for v in (schema.get("enum") or []) if isinstance(v, str | int | float)]
    description = " ".join(str(schema.get("description") or "").split())
    if prefix and description:
        description = f"{prefix}: {description}"
    return Column(name, _SCALAR_TYPES[kind], description, enum, fmt, primary_key=primary_key)


def _link_by_name(tables: list[Table]) -> None:
    """`guestId` → `guests.id` where a table of that name has an `id`: the naming convention of REST APIs."""
    by_singular = {_singular(t.name): t for t in tables if t.column("id")}
    for table in tables:
        for col in table.columns:
            if col.references or col.primary_key:
                continue
            match = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]*?)_?(?:id|Id|ID)", col.name)
            if not match:
                continue
            target = by_singular.get(_singular(_snake(match.group(1))))
            if target is not None and target is not table:
                col.references = f"{target.name}.id"


def _parents_first(tables: list[Table]) -> list[Table]:
    by_name = {t.name: t for t in tables}
    ordered: list[Table] = []
    seen: set[str] = set()

    def visit(table: Table, trail: tuple[str, ...]) -> None:
        if table.name in seen or table.name in trail:
            return
        for col in table.columns:
            parent = by_name.get(col.references.partition(".")[0])
            if parent is not None:
                visit(parent, trail + (table.name,))
        seen.add(table.name)
        ordered.append(table)

    for table in tables:
        visit(table, ())
    return ordered


def table_name(schema_name: str | None) -> str:
    """`SimplifiedPlaylistObject` → `playlists`: affixes that name a view of the object dropped, plural."""
    if not schema_name:
        return ""
    name = re.sub(r"[^A-Za-z0-9]+", "_", schema_name)
    for prefix in _PREFIXES:
        if name.startswith(prefix) and len(name) > len(prefix) and name[len(prefix)].isupper():
            name = name[len(prefix) :]
    for suffix in _SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            name = name[: -len(suffix)]
    return _plural(_snake(name))


def _snake(name: str) -> str:
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


# Plural and singular by the common English endings: names here are API nouns, and a wrong form
# costs only a less pretty name, not a wrong result (an inflection library would be a dependency).
def _plural(word: str) -> str:
    if not word or word.endswith("s") and not word.endswith("ss"):
        return word
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", word):
        return word + "es"
    return word + "s"


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if re.search(r"(ss|x|z|ch|sh)es$", word):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _path_noun(path: str) -> str:
    """The table name for an inline (unnamed) response: the path's last literal segment."""
    segments = [s for s in path.split("/") if s and not s.startswith("{")]
    return _plural(_snake(segments[-1])) if segments else ""
