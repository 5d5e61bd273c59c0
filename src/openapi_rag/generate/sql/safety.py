"""Only reading, only one statement, bounded: every generated query passes here before it runs.

Three locks, each enough on its own for the common case, together for the rest: the statement is
parsed with sqlglot and must be a single SELECT (a `WITH … SELECT` or a UNION of SELECTs) with no
write anywhere inside; the connection runs it under SQLite's authorizer, which denies every action
but reading; and the database is opened read-only (`mode=ro`, or `PRAGMA query_only` for DDL loaded
in memory). A progress handler stops a query past its time limit; rows are fetched up to a limit.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.errors import MissingDependency
from openapi_rag.generate.sql.schema import SqlError

MAX_ROWS = 1000
TIMEOUT_S = 5.0
MAX_SQL_CHARS = 20_000


class UnsafeSql(SqlError):
    """A statement that is not one read-only SELECT; it is never run."""


@dataclass
class QueryResult:
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    truncated: bool = False  # more rows than the limit: only the first ones are here


def _sqlglot() -> Any:
    try:
        import sqlglot
    except ImportError as exc:  # pragma: no cover - the extra is installed in CI
        raise MissingDependency('SQL needs sqlglot: pip install "openapi-rag[sql]"') from exc
    return sqlglot


def parse_select(sql: str) -> Any:
    """The parsed statement when `sql` is exactly one read-only SELECT; `UnsafeSql` otherwise."""
    sqlglot = _sqlglot()
    from sqlglot import exp

    if len(sql) > MAX_SQL_CHARS:
        raise UnsafeSql(f"the statement is longer than {MAX_SQL_CHARS} characters")
    try:
        statements = [s for s in sqlglot.parse(sql, read="sqlite") if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise UnsafeSql(f"not valid SQL: {str(exc).splitlines()[0]}") from exc
    if len(statements) != 1:
        raise UnsafeSql(f"one statement expected, found {len(statements)}")
    tree = statements[0]
    if not isinstance(tree, exp.Select | exp.Union | exp.Intersect | exp.Except):
        raise UnsafeSql(f"only SELECT is allowed, not {tree.key.upper()}")
    writes = (exp.Insert, exp.Update, exp.Delete, exp.Drop, exp.Create, exp.Alter, exp.Command, exp.Pragma)
    for node in tree.walk():
        if isinstance(node, writes):
            raise UnsafeSql(f"only reading is allowed, found {node.key.upper()}")
    return tree


_READ_ACTIONS = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
_RECURSIVE = getattr(sqlite3, "SQLITE_RECURSIVE", 33)


def _authorize(action: int, *args: Any) -> int:
    return sqlite3.SQLITE_OK if action in _READ_ACTIONS or action == _RECURSIVE else sqlite3.SQLITE_DENY


def run_select(
    connection: sqlite3.Connection, sql: str, *, max_rows: int = MAX_ROWS, timeout_s: float = TIMEOUT_S
) -> QueryResult:
    """Check `sql` (`parse_select`) and run it read-only with a row and a time limit."""
    parse_select(sql)
    deadline = time.monotonic() + timeout_s
    connection.execute("PRAGMA query_only = ON")
    connection.set_authorizer(_authorize)
    connection.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        cursor = connection.execute(sql)
        fetched = cursor.fetchmany(max_rows + 1)
        columns = [d[0] for d in cursor.description or []]
    except sqlite3.Error as exc:
        if time.monotonic() > deadline:
            raise SqlError(f"the query ran past its {timeout_s:g} s limit and was stopped") from exc
        raise SqlError(f"the query failed: {exc}") from exc
    finally:
        connection.set_progress_handler(None, 0)
        connection.set_authorizer(None)
    return QueryResult(columns, [list(r) for r in fetched[:max_rows]], len(fetched) > max_rows)
