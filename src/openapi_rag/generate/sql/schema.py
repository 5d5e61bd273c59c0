"""The database schema records: tables, columns, foreign keys; SQLite DDL and the sidecar JSON.

A `DbSchema` comes from API descriptions (`derive`), from a DDL file or from a SQLite database
(`ddl.load_db_schema`). The DDL carries descriptions and enums as `--` comments (SQLite keeps them
in `sqlite_master.sql`, so they survive into a filled database); the sidecar JSON carries them as
data, with the operations each table came from.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.errors import OpenAPIRagError


class SqlError(OpenAPIRagError):
    """A schema, database or SQL statement could not be read, derived or run."""


@dataclass
class Column:
    name: str
    type: str = "TEXT"  # TEXT | INTEGER | REAL (booleans are INTEGER 0/1, as SQLite stores them)
    description: str = ""
    enum: list[Any] = field(default_factory=list)
    format: str = ""  # the OpenAPI format (date, date-time, email, uri, uuid, ...), or "boolean"
    references: str = ""  # "table.column" of a foreign key, or ""
    primary_key: bool = False


@dataclass
class Table:
    name: str
    columns: list[Column]
    description: str = ""
    source: dict[str, Any] = field(default_factory=dict)  # service, schema, operations it came from

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name.lower() == name.lower()), None)

    def to_text(self) -> str:
        """The table chunk: name, description, columns with types, descriptions and enums."""
        lines = [f"Table {self.name}: {self.description}".rstrip(": ")]
        for col in self.columns:
            parts = [f"- {col.name} {col.type}"]
            if col.format:
                parts.append("(boolean 0/1)" if col.format == "boolean" else f"({col.format})")
            if col.references:
                parts.append(f"references {col.references}")
            if col.description:
                parts.append(col.description)
            if col.enum:
                parts.append("one of " + ", ".join(map(str, col.enum[:20])))
            lines.append(" ".join(parts))
        return "\n".join(lines)


@dataclass
class DbSchema:
    tables: list[Table]
    source: str = ""  # the file it was read from, for messages

    def table(self, name: str) -> Table | None:
        return next((t for t in self.tables if t.name.lower() == name.lower()), None)

    def to_dict(self) -> dict[str, Any]:
        return {"tables": [asdict(t) for t in self.tables]}

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "") -> DbSchema:
        tables = []
        for raw in data.get("tables", []):
            columns = [Column(**c) for c in raw.get("columns", [])]
            tables.append(
                Table(raw["name"], columns, raw.get("description", ""), raw.get("source", {}) or {})
            )
        return cls(tables, source)

    def to_ddl(self) -> str:
        """SQLite DDL, parents before children, descriptions and enums as comments."""
        out = []
        for table in self.tables:
            # The table's description on the opening line: SQLite keeps it in sqlite_master.sql.
            head = f" -- {_one_line(table.description)}" if table.description else ""
            body = []
            for i, col in enumerate(table.columns):
                line = f"  {quote_ident(col.name)} {col.type}"
                if col.primary_key:
                    line += " PRIMARY KEY"
                if col.references:
                    ref_table, _, ref_col = col.references.partition(".")
                    line += f" REFERENCES {quote_ident(ref_table)}({quote_ident(ref_col)})"
                if i < len(table.columns) - 1:
                    line += ","
                note = _column_note(col)
                if note:
                    line += f" -- {note}"
                body.append(line)
            out.append(f"CREATE TABLE {quote_ident(table.name)} ({head}\n" + "\n".join(body) + "\n);\n")
        return "\n".join(out)

    def save(self, ddl_path: str | Path) -> Path:
        """Write the DDL and its sidecar JSON (`schema.sql` → `schema.json`); returns the sidecar's path."""
        ddl_path = Path(ddl_path)
        ddl_path.write_text(self.to_ddl(), encoding="utf-8")
        sidecar = sidecar_path(ddl_path)
        sidecar.write_text(json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return sidecar


_PLAIN_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# SQLite's keywords (sqlite.org/lang_keywords.html): a column named `default` or `order` must be quoted.
_RESERVED = set(
    """abort action add after all alter always analyze and as asc attach autoincrement before begin between
    by cascade case cast check collate column commit conflict constraint create cross current current_date
    current_time current_timestamp database default deferrable deferred delete desc detach distinct do drop
    each else end escape except exclude exclusive exists explain fail filter first following for foreign
    from full generated glob group groups having if ignore immediate in index indexed initially inner insert
    instead intersect into is isnull join key last left like limit match materialized natural no not nothing
    notnull null nulls of offset on or order others outer over partition plan pragma preceding primary query
    raise range recursive references regexp reindex release rename replace restrict returning right rollback
    row rows savepoint select set table temp temporary then ties to transaction trigger unbounded union
    unique update using vacuum values view virtual when where window with without""".split()
)


def quote_ident(name: str) -> str:
    """An identifier as SQL text: bare where it can be, double-quoted otherwise."""
    if _PLAIN_IDENT.match(name) and name.lower() not in _RESERVED:
        return name
    return '"' + name.replace('"', '""') + '"'


def sidecar_path(ddl_path: Path) -> Path:
    return ddl_path.with_suffix(".json")


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _column_note(col: Column) -> str:
    parts = []
    if col.description:
        parts.append(_one_line(col.description, 160))
    if col.format and col.format != "boolean":
        parts.append(f"format: {col.format}")
    if col.format == "boolean":
        parts.append("boolean 0/1")
    if col.enum:
        parts.append("one of: " + ", ".join(map(str, col.enum[:30])))
    return "; ".join(parts)
