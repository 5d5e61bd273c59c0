"""Comparing a generated query with the gold one: clause by clause through the parser, and by rows.

Exact match follows the clause-set idea of Spider's evaluation: both statements are parsed with
sqlglot, column references qualified with their table (aliases resolved, through the schema), and
split into clauses: SELECT items, FROM tables, WHERE and HAVING conjuncts (order-free sets), GROUP
BY (a set), ORDER BY (a list), LIMIT. Two queries match exactly when every clause does, so
`WHERE a = 1 AND b = 2` equals `WHERE b = 2 AND a = 1` and `t.x` equals `x`.
"""

from __future__ import annotations

import math
from typing import Any

from openapi_rag.generate.sql.schema import DbSchema

CLAUSES = ("select", "from", "where", "group_by", "having", "order_by", "limit")


def _mapping(schema: DbSchema) -> dict[str, dict[str, str]]:
    return {t.name: {c.name: c.type for c in t.columns} for t in schema.tables}


def _conjuncts(node: Any) -> list[Any]:
    from sqlglot import exp

    if isinstance(node, exp.And):
        return _conjuncts(node.left) + _conjuncts(node.right)
    if isinstance(node, exp.Paren):
        return _conjuncts(node.this)
    return [node]


def _text(node: Any) -> str:
    from sqlglot import exp

    node = node.copy()
    for literal in node.find_all(exp.Literal):  # 50 and 50.0 are one number
        if not literal.is_string:
            try:
                value = float(literal.this)
                literal.set("this", str(int(value)) if value.is_integer() else repr(value))
            except ValueError:
                pass
    if isinstance(node, exp.Alias):
        node = node.this
    for alias in list(node.find_all(exp.TableAlias)):
        alias.pop()
    return node.sql(dialect="sqlite").lower()


def clauses(sql: str, schema: DbSchema | None = None) -> dict[str, Any] | None:
    """The statement's clauses in comparable form, or None when it does not parse as a SELECT."""
    import sqlglot
    from sqlglot import exp
    from sqlglot.optimizer.qualify import qualify

    try:
        tree = sqlglot.parse_one(sql, read="sqlite")
    except sqlglot.errors.SqlglotError:
        return None
    if not isinstance(tree, exp.Select):
        return {"select": {_text(tree)}} if tree is not None else None
    if schema is not None:
        try:
            tree = qualify(
                tree,
                schema=_mapping(schema),
                dialect="sqlite",
                expand_stars=False,
                quote_identifiers=False,
                identify=False,
                validate_qualify_columns=False,
            )
        except Exception:  # noqa: BLE001 - a query the schema does not fit is compared as written
            tree = sqlglot.parse_one(sql, read="sqlite")
    aliases = {}
    for table in tree.find_all(exp.Table):
        aliases[(table.alias_or_name or "").lower()] = table.name.lower()
    for column in tree.find_all(exp.Column):
        if column.table and column.table.lower() in aliases:
            column.set("table", exp.to_identifier(aliases[column.table.lower()]))
    tables = {t.name.lower() for t in tree.find_all(exp.Table)}
    where = tree.args.get("where")
    having = tree.args.get("having")
    group = tree.args.get("group")
    order = tree.args.get("order")
    limit = tree.args.get("limit")
    return {
        "select": sorted(_text(e) for e in tree.expressions),
        "from": sorted(tables),
        "where": sorted(_text(c) for c in _conjuncts(where.this)) if where else [],
        "group_by": sorted(_text(e) for e in group.expressions) if group else [],
        "having": sorted(_text(c) for c in _conjuncts(having.this)) if having else [],
        "order_by": [_text(e) for e in order.expressions] if order else [],
        "limit": _text(limit.expression) if limit is not None and limit.expression is not None else "",
    }


def component_match(predicted: str, gold: str, schema: DbSchema | None = None) -> dict[str, float]:
    """Per clause 1.0 (same) or 0.0, for the clauses either query has; plus `exact`."""
    gold_parts = clauses(gold, schema)
    pred_parts = clauses(predicted, schema) if predicted.strip() else None
    out: dict[str, float] = {}
    if gold_parts is None:
        return {"exact": math.nan}
    for clause in CLAUSES:
        g = gold_parts.get(clause) or []
        p = (pred_parts or {}).get(clause) or []
        if g or p:
            out[clause] = float(g == p)
    out["exact"] = float(pred_parts is not None and all(out.values()))
    return out


def _cell(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, 4)
    return value


def same_rows(predicted: list[list[Any]], gold: list[list[Any]], *, ordered: bool) -> bool:
    """Row sets equal (as lists when the gold is ordered); floats compared to four places."""
    a = [tuple(_cell(v) for v in row) for row in predicted]
    b = [tuple(_cell(v) for v in row) for row in gold]
    if ordered:
        return a == b
    key = repr
    return sorted(a, key=key) == sorted(b, key=key)
