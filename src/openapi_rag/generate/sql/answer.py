"""From a request to rows: choose tables, generate SQL, check it, run it read-only.

`answer_sql` is what `openapi-rag sql` and `ask` call. Whatever the generator, the statement is
checked before it runs (one SELECT, no writes, only the schema's tables), so an LLM's mistake is a
problem in the answer, never a change to the database.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.generate.sql.llm_sql import LlmTrace, generate_llm, select_tables
from openapi_rag.generate.sql.offline import generate_offline, render_sql
from openapi_rag.generate.sql.safety import MAX_ROWS, TIMEOUT_S, parse_select, run_select
from openapi_rag.generate.sql.schema import DbSchema, SqlError
from openapi_rag.llm.base import LLM

GENERATORS = ("offline", "llm")


@dataclass
class SqlAnswer:
    request: str
    sql: str = ""
    tables: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    executed: bool = False  # ran without error
    truncated: bool = False
    generator: str = "offline"
    policy: str = "rag"
    context: str = "db"
    llm: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = {
            "request": self.request,
            "sql": self.sql,
            "tables": self.tables,
            "columns": self.columns,
            "rows": self.rows,
            "problems": self.problems,
            "executed": self.executed,
            "truncated": self.truncated,
            "generator": self.generator,
            "policy": self.policy,
            "context": self.context,
        }
        if self.llm:
            out["llm"] = self.llm
        return out


def generate_sql(
    request: str,
    schema: DbSchema,
    *,
    generator: str = "offline",
    policy: str = "rag",
    context: str = "db",
    index: Any = None,
    llm: LLM | None = None,
) -> SqlAnswer:
    """The SQL for `request` (not run); problems say why there is none."""
    if generator not in GENERATORS:
        raise SqlError(f"unknown generator {generator!r}: use one of {', '.join(GENERATORS)}")
    answer = SqlAnswer(request, generator=generator, policy=policy, context=context)
    trace = LlmTrace()
    hits = select_tables(request, schema, policy=policy, context=context, index=index, llm=llm, trace=trace)
    if generator == "offline":
        # Without a policy the generator reads every table (the request's words pick); a policy or an
        # API context narrows them to those retrieved.
        narrowed = policy != "rag" or context != "db"
        draft, why = generate_offline(request, schema, [h.table for h in hits] if narrowed else None)
        if draft is None:
            answer.problems.append(why)
        else:
            answer.sql, answer.tables = render_sql(draft), draft.tables()
    else:
        if llm is None:
            raise SqlError("the llm generator needs an LLM (--llm NAME or OPENAPI_RAG_LLM)")
        answer.sql, _ = generate_llm(request, hits, llm, trace)
        if not answer.sql:
            answer.problems.append("no table answers this request (the LLM wrote no SQL)")
    if trace.calls:
        answer.llm = trace.to_dict()
    if answer.sql:
        _check(answer, schema)
    return answer


def _check(answer: SqlAnswer, schema: DbSchema) -> None:
    """Refuse anything but one SELECT over the schema's own tables; the SQL is kept to show why."""
    try:
        tree = parse_select(answer.sql)  # raises MissingDependency first when sqlglot is absent
    except SqlError as exc:
        answer.problems.append(f"refused: {exc}")
        return
    from sqlglot import exp

    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    named = []
    for table in tree.find_all(exp.Table):
        name = table.name
        if name.lower() in ctes:
            continue
        if schema.table(name) is None:
            answer.problems.append(f"refused: no table {name!r} in the schema")
        elif name not in named:
            named.append(schema.table(name).name)  # type: ignore[union-attr]
    answer.tables = named


def answer_sql(
    request: str,
    schema: DbSchema,
    connection: sqlite3.Connection | None = None,
    *,
    generator: str = "offline",
    policy: str = "rag",
    context: str = "db",
    index: Any = None,
    llm: LLM | None = None,
    max_rows: int = MAX_ROWS,
    timeout_s: float = TIMEOUT_S,
) -> SqlAnswer:
    """Generate the SQL for `request` and, given a connection, run it read-only."""
    answer = generate_sql(
        request, schema, generator=generator, policy=policy, context=context, index=index, llm=llm
    )
    if connection is None or not answer.sql or any(p.startswith("refused") for p in answer.problems):
        return answer
    try:
        result = run_select(connection, answer.sql, max_rows=max_rows, timeout_s=timeout_s)
    except SqlError as exc:
        answer.problems.append(str(exc))
        return answer
    answer.columns, answer.rows, answer.truncated = result.columns, result.rows, result.truncated
    answer.executed = True
    if result.truncated:
        answer.problems.append(f"more than {max_rows} rows: only the first {max_rows} are shown")
    return answer
