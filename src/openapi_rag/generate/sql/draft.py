"""What the offline generator understood of a request, and the SQL it renders to."""

from __future__ import annotations

from dataclasses import dataclass, field

from openapi_rag.generate.sql.schema import Column, Table, quote_ident


@dataclass
class Draft:
    """What the generator understood; `sql` renders it."""

    table: Table
    select: list[tuple[Table, Column]] = field(default_factory=list)
    aggregate: str = ""  # COUNT | SUM | AVG | MAX | MIN
    aggregate_column: tuple[Table, Column] | None = None
    where: list[tuple[Table, Column, str, object]] = field(default_factory=list)
    group_by: tuple[Table, Column] | None = None
    order_by: tuple[Table, Column] | None = None
    descending: bool = False
    limit: int | None = None
    join: tuple[Table, Column, Table, Column] | None = None  # left.col = right.col
    having_count: tuple[str, int] | None = None  # "more than 5 albums" per group: COUNT(*) > 5
    order_by_count: bool = False  # "the most albums" per group: ORDER BY COUNT(*)

    def tables(self) -> list[str]:
        return [self.table.name] + ([self.join[2].name] if self.join else [])


# --- rendering -------------------------------------------------------------------------------------


def render_sql(draft: Draft) -> str:
    qualify = draft.join is not None

    def name(table: Table, col: Column) -> str:
        return f"{quote_ident(table.name)}.{quote_ident(col.name)}" if qualify else quote_ident(col.name)

    def literal(value: object) -> str:
        if isinstance(value, str):
            return "'" + value.replace("'", "''") + "'"
        return repr(value)

    columns = [name(t, c) for t, c in draft.select]
    if draft.aggregate:
        inner = name(*draft.aggregate_column) if draft.aggregate_column else "*"
        columns = ([name(*draft.group_by)] if draft.group_by else []) + [f"{draft.aggregate}({inner})"]
    sql = f"SELECT {', '.join(columns) or '*'} FROM {quote_ident(draft.table.name)}"
    if draft.join:
        left, lcol, right, rcol = draft.join
        sql += f" JOIN {quote_ident(right.name)} ON {name(left, lcol)} = {name(right, rcol)}"
    conditions = []
    for table, col, op, value in draft.where:
        if op == "BETWEEN":
            low, high = value  # type: ignore[misc]
            conditions.append(f"{name(table, col)} BETWEEN {literal(low)} AND {literal(high)}")
        else:
            conditions.append(f"{name(table, col)} {op} {literal(value)}")
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    if draft.group_by:
        sql += f" GROUP BY {name(*draft.group_by)}"
        if draft.having_count:
            sql += f" HAVING COUNT(*) {draft.having_count[0]} {draft.having_count[1]}"
    if draft.order_by_count and draft.group_by:
        sql += f" ORDER BY COUNT(*){' DESC' if draft.descending else ''}"
    elif draft.order_by:
        sql += f" ORDER BY {name(*draft.order_by)}{' DESC' if draft.descending else ''}"
    elif draft.aggregate and draft.group_by and draft.limit:
        sql += f" ORDER BY {draft.aggregate}({name(*draft.aggregate_column) if draft.aggregate_column else '*'}) DESC"
    if draft.limit:
        sql += f" LIMIT {draft.limit}"
    return sql
