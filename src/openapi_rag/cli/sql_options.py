"""Options and input shared by `sql`, `ask` and `eval-sql`: the database, generator, policy, context."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from openapi_rag.cli.common import err, llm_option

F = TypeVar("F", bound=Callable[..., Any])


def db_option(func: F) -> F:
    return click.option(
        "--db",
        "db",
        default=None,
        envvar="OPENAPI_RAG_DB",
        type=click.Path(exists=True, dir_okay=False),
        help="DDL (from `schema derive` or written by hand) or a SQLite database (opened read-only); "
        "without it, the SQL is written from the --index's tables and not run.",
    )(func)


def open_index(index_dir: str | None) -> tuple[Any, Any]:
    """(index, the tables it holds or None) for `--index DIR`; (None, None) without one."""
    if not index_dir:
        return None, None
    from openapi_rag.generate.sql.table_index import load_tables
    from openapi_rag.index import Index

    return Index.open(index_dir), load_tables(index_dir)


def store_table_chunks(index_dir: str, db: str, wait: bool) -> int:
    """Store `db`'s table chunks in the index at `index_dir` (`index --db`, `schema index`); their count."""
    from openapi_rag.generate.sql import load_db_schema
    from openapi_rag.generate.sql.table_index import save_tables

    count = save_tables(index_dir, load_db_schema(db), wait=wait)
    err(f"{index_dir}: {count} table chunks from {db}")
    return count


def open_sources(db: str | None, index_dir: str | None, *, need_db: bool = True) -> tuple[Any, Any, Any]:
    """(schema, connection, index) for `sql`/`ask`: the database, with the tables the index holds
    (`schema index`) as their documentation; the index's tables alone when there is no --db."""
    from openapi_rag.generate.sql.database import open_database_and_schema

    index, tables = open_index(index_dir)
    if db is None:
        if tables is None and need_db:
            raise click.UsageError(
                "give --db, or an --index holding tables (`openapi-rag schema index DDL --index DIR`)"
            )
        return tables, None, index
    schema, connection = open_database_and_schema(db)
    if tables is not None:
        from openapi_rag.generate.sql.table_index import with_index_tables

        missing = with_index_tables(schema, tables)
        if missing:
            err(
                f"warning: {db} has no table {', '.join(missing[:5])} of the index's tables: SQL cannot use them"
            )
    return schema, connection, index


def generation_options(func: F) -> F:
    for option in reversed(
        [
            click.option(
                "-g",
                "--generator",
                type=click.Choice(["offline", "llm"]),
                default="offline",
                show_default=True,
                help="offline: no LLM; llm: the configured LLM writes the SQL.",
            ),
            click.option(
                "--policy",
                type=click.Choice(["rag", "self-rag", "corag"]),
                default="rag",
                show_default=True,
                help="How tables are retrieved: top-k, or LLM-judged (self-rag) or LLM-led rounds (corag).",
            ),
            click.option(
                "--context",
                type=click.Choice(["db", "api", "hybrid"]),
                default="db",
                show_default=True,
                help="Documentation: the table chunks (db), the index's API operation chunks (api), or both.",
            ),
            llm_option("LLM (default: configured)."),
        ]
    ):
        func = option(func)
    return func


def needs_llm(generator: str, policy: str) -> bool:
    return generator == "llm" or policy != "rag"


def load_llm(name: str | None) -> Any:
    from openapi_rag.llm import get_llm

    return get_llm(name, cache=True)


def read_tasks(handle: Any) -> Iterator[dict[str, Any]]:
    """JSONL tasks: `{"query"|"input"|"request": "...", "id": ...}` per line; a bad line is a usage error."""
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            task = json.loads(line)
        except ValueError as exc:
            raise click.BadParameter(f"line {number}: not JSON ({exc})", param_hint="--queries") from exc
        text = (
            task.get("query") or task.get("input") or task.get("request") if isinstance(task, dict) else None
        )
        if not isinstance(text, str):
            raise click.BadParameter(f'line {number}: no "query" text', param_hint="--queries")
        yield {"id": task.get("id", number), "query": text}
