"""Reading a database: a DDL file (derived or written by hand) or an existing SQLite database.

`load_db_schema` gives the `DbSchema` (tables, columns, foreign keys, descriptions); `open_database`
gives a read-only connection. A DDL file is run statement by statement into an in-memory database
so that an error names its line; a `.sqlite` file is opened with `mode=ro`, never written.
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from openapi_rag.generate.sql.schema import Column, DbSchema, SqlError, Table, sidecar_path

SQLITE_MAGIC = b"SQLite format 3\x00"
MAX_DDL_BYTES = 20_000_000


def is_sqlite_file(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(16) == SQLITE_MAGIC
    except OSError:
        return False


def load_db_schema(path: str | Path) -> DbSchema:
    """The schema of a DDL file or SQLite database; descriptions from the sidecar JSON when there is one."""
    schema, connection = open_database_and_schema(path)
    connection.close()
    return schema


def open_database_and_schema(path: str | Path) -> tuple[DbSchema, sqlite3.Connection]:
    """`load_db_schema` and `open_database` at once: a DDL file (up to tens of MB) is run once."""
    path = Path(path)
    if not path.is_file():
        raise SqlError(
            f"{path}: no such file (give a DDL file from `openapi-rag schema derive` or a .sqlite)"
        )
    connection = open_database(path)
    try:
        schema = introspect(connection, str(path))
        _add_sidecar(schema, path)
    except BaseException:
        connection.close()
        raise
    return schema, connection


def _add_sidecar(schema: DbSchema, path: Path) -> None:
    sidecar = sidecar_path(path)
    if not is_sqlite_file(path) and sidecar.is_file():
        try:
            described = DbSchema.from_dict(json.loads(sidecar.read_text(encoding="utf-8")), str(path))
        except (ValueError, KeyError, TypeError) as exc:
            raise SqlError(f"{sidecar}: not a schema sidecar ({exc})") from exc
        _merge_descriptions(schema, described)


def open_database(path: str | Path) -> sqlite3.Connection:
    """A connection to the database: a `.sqlite` opened read-only, or a DDL file loaded in memory."""
    path = Path(path)
    if is_sqlite_file(path):
        try:
            connection = sqlite3.connect(
                f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
            )
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            raise SqlError(f"{path}: cannot open the database read-only ({exc})") from exc
        return connection
    connection = sqlite3.connect(":memory:", check_same_thread=False)
    execute_ddl(connection, path)
    return connection


# A DDL file runs in memory, but ATTACH (and VACUUM INTO, which SQLite authorizes as ATTACH) would
# read or write another file, and these pragmas would move temporary files: hostile input must not.
_DDL_DENIED = {sqlite3.SQLITE_ATTACH: "ATTACH", sqlite3.SQLITE_DETACH: "DETACH"}
_DDL_DENIED_PRAGMAS = {"temp_store_directory", "data_store_directory"}


def _ddl_authorizer(denied: list[str]) -> Any:
    def authorize(action: int, arg1: str | None, *_: Any) -> int:
        if action in _DDL_DENIED:
            denied.append(f"{_DDL_DENIED[action]} {arg1 or ''}".strip())
            return sqlite3.SQLITE_DENY
        if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in _DDL_DENIED_PRAGMAS:
            denied.append(f"PRAGMA {arg1}")
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    return authorize


def execute_ddl(connection: sqlite3.Connection, path: Path) -> None:
    """Run a DDL file one statement at a time; the first error names the file and the statement's line.

    Nothing in it may reach another file (ATTACH, VACUUM INTO): refused with the line named."""
    try:
        if path.stat().st_size > MAX_DDL_BYTES:
            raise SqlError(f"{path}: larger than {MAX_DDL_BYTES // 1_000_000} MB, not read as DDL")
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SqlError(f"{path}: not a text DDL file nor a SQLite database ({exc.reason})") from exc
    except OSError as exc:
        raise SqlError(f"{path}: cannot read ({exc.strerror})") from exc
    denied: list[str] = []
    connection.set_authorizer(_ddl_authorizer(denied))
    try:
        _execute_lines(connection, text, path, denied)
    finally:
        connection.set_authorizer(None)


def _execute_lines(connection: sqlite3.Connection, text: str, path: Path, denied: list[str]) -> None:
    statement: list[str] = []
    start = 1
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if not statement:
            if not _strip_comments(line).strip():
                continue  # blank and comment lines before a statement: its line is the first code line
            start = number
        statement.append(line)
        sql = "".join(statement)
        if sqlite3.complete_statement(sql):
            _run(connection, sql, path, start, denied)
            statement = []
    rest = "".join(statement)
    if _strip_comments(rest).strip():
        _run(connection, rest + ";", path, start, denied)


def _run(connection: sqlite3.Connection, sql: str, path: Path, line: int, denied: list[str]) -> None:
    if not _strip_comments(sql).strip(" \n\t;"):
        return
    try:
        connection.execute(sql)
    except sqlite3.Error as exc:
        if denied:
            raise SqlError(
                f"{path}:{line}: {denied[0]} refused: a DDL file may not read or write other files"
            ) from exc
        raise SqlError(f"{path}:{line + _line_in_statement(sql)}: {exc}") from exc


def _line_in_statement(sql: str) -> int:
    """How many lines into the statement the parser sees the fault (SQLite reports none); 0 if unknown."""
    try:
        import sqlglot
    except ImportError:
        return 0
    try:
        sqlglot.parse(sql, read="sqlite")
    except sqlglot.errors.ParseError as exc:
        where = exc.errors[0].get("line") if exc.errors else None
        return max(0, int(where) - 1) if where else 0
    except sqlglot.errors.SqlglotError:
        return 0
    return 0


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*|/\*.*?\*/", "", sql, flags=re.S)


def introspect(connection: sqlite3.Connection, source: str = "") -> DbSchema:
    """Tables, columns, keys and `--` comments as SQLite reports them."""
    tables = []
    rows = connection.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ).fetchall()
    for name, ddl in rows:
        comments = _column_comments(ddl or "")
        keys = {
            row[3]: f"{row[2]}.{row[4] or 'id'}"
            for row in connection.execute(f"PRAGMA foreign_key_list({_quote(name)})").fetchall()
        }
        columns = []
        for _, col_name, col_type, _, _, pk in connection.execute(f"PRAGMA table_info({_quote(name)})"):
            note = comments.get(col_name.lower(), "")
            description, enum, fmt = _parse_note(note)
            columns.append(
                Column(
                    col_name,
                    _affinity(col_type),
                    description,
                    enum,
                    fmt,
                    keys.get(col_name, ""),
                    bool(pk),
                )
            )
        tables.append(Table(name, columns, _table_comment(connection, name, ddl or "")))
    return DbSchema(tables, source)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _affinity(declared: str) -> str:
    """SQLite's type affinity rules (section 3.1 of its datatype page), reduced to three kinds."""
    upper = (declared or "").upper()
    if "INT" in upper or "BOOL" in upper:
        return "INTEGER"
    if any(word in upper for word in ("REAL", "FLOA", "DOUB", "NUMERIC", "DECIMAL")):
        return "REAL"
    return "TEXT"


def _column_comments(ddl: str) -> dict[str, str]:
    """`name TYPE ..., -- note` → {name: note}, for DDL written as one column per line."""
    notes = {}
    for line in ddl.splitlines():
        code, sep, note = line.partition("--")
        if not sep:
            continue
        match = re.match(r'\s*["`\[]?([A-Za-z_][\w]*)["`\]]?\s+\w', code)
        if match:
            notes[match.group(1).lower()] = note.strip()
    return notes


def _parse_note(note: str) -> tuple[str, list[str], str]:
    """The description, enum and format written by `DbSchema.to_ddl` (free text stays a description)."""
    enum: list[str] = []
    fmt = ""
    parts = []
    for part in note.split("; "):
        if part.startswith("one of: "):
            enum = [v.strip() for v in part[len("one of: ") :].split(",") if v.strip()]
        elif part.startswith("format: "):
            fmt = part[len("format: ") :].strip()
        elif part == "boolean 0/1":
            fmt = "boolean"
        else:
            parts.append(part)
    return "; ".join(parts), enum, fmt


def _table_comment(connection: sqlite3.Connection, name: str, ddl: str) -> str:
    # SQLite keeps the statement from CREATE on, so `to_ddl` writes the description on its first line.
    first = ddl.split("\n", 1)[0]
    _, sep, note = first.partition("--")
    return note.strip() if sep else ""


def _merge_descriptions(schema: DbSchema, described: DbSchema) -> None:
    for table in schema.tables:
        other = described.table(table.name)
        if other is None:
            continue
        table.description = other.description or table.description
        table.source = other.source
        for col in table.columns:
            match = other.column(col.name)
            if match is not None:
                col.description = match.description or col.description
                col.enum = match.enum or col.enum
                col.format = match.format or col.format
