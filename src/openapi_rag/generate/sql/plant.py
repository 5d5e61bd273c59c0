"""A database on which every gold query returns rows: synthetic rows, then rows planted from the gold.

Random rows rarely hold the album 'Thriller' or a track longer than 300000 ms, so a generated
query and the gold would agree on an empty result whatever they say. For each gold query that
returns nothing, a row is planted in each of its tables with the values its conditions need
(`= v` → v, `> v` → just above, `LIKE '2019%'` → a 2019 date, `BETWEEN a AND b` → a, `HAVING
COUNT(*) > n` → n + 1 rows), joined rows linked through their keys. A gold query still empty
after that is reported, never hidden.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from pathlib import Path
from typing import Any

from openapi_rag.generate.sql.fill import column_value, insert_rows
from openapi_rag.generate.sql.schema import DbSchema, Table, quote_ident

PLANT_SEED = 0


def prepare_database(
    schema: DbSchema, golds: list[str], out: Path, *, rows: int = 30, seed: int = 0
) -> list[str]:
    """Write `out` (SQLite) and return the gold queries that still return no row."""
    if out.exists():
        out.unlink()
    connection = sqlite3.connect(out)
    try:
        connection.executescript(schema.to_ddl())
        insert_rows(connection, schema, rows=rows, seed=seed)
        rng = random.Random(PLANT_SEED)
        for number, gold in enumerate(golds):
            if not _returns_rows(connection, gold):
                plant(connection, schema, gold, rng, number)
        connection.commit()
        return [g for g in golds if not _returns_rows(connection, g)]
    finally:
        connection.close()


def _returns_rows(connection: sqlite3.Connection, sql: str) -> bool:
    try:
        return connection.execute(sql).fetchone() is not None
    except sqlite3.Error:
        return False


def plant(
    connection: sqlite3.Connection, schema: DbSchema, gold: str, rng: random.Random, number: int
) -> None:
    """Insert the rows `gold`'s conditions ask for (see the module docstring)."""
    import sqlglot
    from sqlglot import exp

    from openapi_rag.generate.sql.compare import _conjuncts

    try:
        tree = sqlglot.parse_one(gold, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return
    aliases = {(t.alias_or_name or t.name).lower(): t.name for t in tree.find_all(exp.Table)}
    tables = [schema.table(name) for name in dict.fromkeys(aliases.values())]
    tables = [t for t in tables if t is not None]
    if not tables:
        return
    values: dict[str, dict[str, Any]] = {t.name: {} for t in tables}

    def target(column: Any) -> tuple[Table, str] | None:
        if column.table and column.table.lower() in aliases:
            table = schema.table(aliases[column.table.lower()])
            return (table, column.name) if table is not None else None
        return next(((t, column.name) for t in tables if t.column(column.name) is not None), None)

    where = tree.args.get("where")
    for condition in _conjuncts(where.this) if where else []:
        _apply(condition, target, values)
    # Joined rows point at each other: the child's key gets the parent's id.
    for join in tree.args.get("joins") or []:
        on = join.args.get("on")
        if isinstance(on, exp.EQ) and isinstance(on.left, exp.Column) and isinstance(on.right, exp.Column):
            left, right = target(on.left), target(on.right)
            if left and right:
                shared = values[right[0].name].get(right[1]) or values[left[0].name].get(left[1])
                if shared is None:
                    shared = (
                        f"planted{number}" if right[0].column(right[1]).type == "TEXT" else 900_000 + number
                    )  # type: ignore[union-attr]
                values[left[0].name][left[1]] = shared
                values[right[0].name][right[1]] = shared
    copies = 1
    having = tree.args.get("having")
    for condition in _conjuncts(having.this) if having else []:
        if isinstance(condition, exp.GT | exp.GTE) and isinstance(condition.left, exp.Count):
            if isinstance(condition.right, exp.Literal) and not condition.right.is_string:
                copies = min(1000, int(float(condition.right.this)) + 1)
    group = tree.args.get("group")
    if group is not None and copies > 1:
        for expression in group.expressions:
            if isinstance(expression, exp.Column) and (spot := target(expression)) is not None:
                values[spot[0].name].setdefault(spot[1], f"planted-group-{number}")
    for table in tables:
        for copy in range(copies):
            _insert(connection, table, values[table.name], rng, number * 1000 + copy, copy == 0)


def _apply(condition: Any, target: Any, values: dict[str, dict[str, Any]]) -> None:
    from sqlglot import exp

    if isinstance(condition, exp.Between) and isinstance(condition.this, exp.Column):
        spot = target(condition.this)
        if spot:
            values[spot[0].name][spot[1]] = _literal(condition.args["low"])
        return
    if isinstance(condition, exp.Like) and isinstance(condition.this, exp.Column):
        spot = target(condition.this)
        pattern = _literal(condition.expression)
        if spot and isinstance(pattern, str):
            filled = pattern.replace("_", "x")
            if filled.endswith("%") and len(filled) == 5 and filled[:4].isdigit():
                filled = filled[:4] + "-06-15"
            values[spot[0].name][spot[1]] = filled.replace("%", "")
        return
    if not isinstance(condition, exp.EQ | exp.GT | exp.GTE | exp.LT | exp.LTE):
        return
    column, other, flipped = condition.left, condition.right, False
    if not isinstance(column, exp.Column):
        column, other, flipped = condition.right, condition.left, True
    if not isinstance(column, exp.Column):
        return
    spot = target(column)
    if spot is None:
        return
    op = type(condition)
    if flipped:
        op = {exp.GT: exp.LT, exp.LT: exp.GT, exp.GTE: exp.LTE, exp.LTE: exp.GTE}.get(op, op)
    if isinstance(other, exp.Literal):
        value = _literal(other)
        values[spot[0].name][spot[1]] = _beyond(value, op)
    elif isinstance(other, exp.Subquery | exp.Select):
        # Compared with an aggregate of the table: an extreme value is beyond it.
        values[spot[0].name][spot[1]] = 10**9 if op in (exp.GT, exp.GTE) else -(10**9)


def _literal(node: Any) -> Any:
    from sqlglot import exp

    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal):
        return -_literal(node.this)
    if not isinstance(node, exp.Literal):
        return None
    if node.is_string:
        return node.this
    value = float(node.this)
    return int(value) if value.is_integer() else value


def _beyond(value: Any, op: Any) -> Any:
    """A value satisfying `column op value`."""
    from sqlglot import exp

    step = {exp.GT: 1, exp.LT: -1}.get(op, 0)
    if step == 0 or value is None:
        return value
    if isinstance(value, int | float):
        return value + step
    try:
        day = dt.date.fromisoformat(str(value)[:10])
        return (day + dt.timedelta(days=step)).isoformat()
    except ValueError:
        return str(value) + "z" if step > 0 else ""


def _insert(
    connection: sqlite3.Connection,
    table: Table,
    fixed: dict[str, Any],
    rng: random.Random,
    number: int,
    first: bool,
) -> None:
    keys: dict[str, list[Any]] = {}
    for col in table.columns:
        if col.references:
            parent, _, parent_col = col.references.partition(".")
            rows = connection.execute(
                f"SELECT {quote_ident(parent_col or 'id')} FROM {quote_ident(parent)} LIMIT 50"
            ).fetchall()
            keys[col.references.lower()] = [r[0] for r in rows]
    row = []
    for col in table.columns:
        if col.name in fixed and (first or not (col.primary_key or col.name.lower() == "id")):
            row.append(fixed[col.name])
        elif col.primary_key or col.name.lower() == "id":
            row.append(800_000 + number if col.type == "INTEGER" else f"planted{number}")
        else:
            row.append(column_value(table, col, number, rng, keys))
    names = ", ".join(quote_ident(c.name) for c in table.columns)
    marks = ", ".join("?" for _ in table.columns)
    connection.execute(f"INSERT OR REPLACE INTO {quote_ident(table.name)} ({names}) VALUES ({marks})", row)
