"""`openapi-rag sql`: a question answered by SQL over the derived (or given) database."""

from __future__ import annotations

from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import handle_errors, print_json, print_json_line
from openapi_rag.cli.sql_options import (
    db_option,
    generation_options,
    load_llm,
    needs_llm,
    open_sources,
    read_tasks,
)


@cli.command()
@click.argument("request", required=False)
@db_option
@click.option(
    "-i",
    "--index",
    "index_dir",
    default=None,
    type=click.Path(),
    help="API index: its table chunks (`schema index`) document the tables; --context api|hybrid search it.",
)
@generation_options
@click.option(
    "--queries", type=click.File("r"), default=None, help='JSONL of {"query": ...}; one line out per task.'
)
@click.option("--max-rows", default=100, show_default=True, help="The most rows returned.")
@click.option("--timeout", default=5.0, show_default=True, help="Seconds a query may run.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def sql(
    request: str | None,
    db: str | None,
    index_dir: str | None,
    generator: str,
    policy: str,
    context: str,
    llm_name: str | None,
    queries: Any,
    max_rows: int,
    timeout: float,
    json_: bool,
) -> None:
    """Answer a data question with one read-only SELECT.

    \b
    openapi-rag sql "How many of my playlists have more than 50 tracks?" --db data.sqlite
    openapi-rag sql --queries tasks.jsonl --db schema.sql --json
    openapi-rag sql "..." --db data.sqlite --index idx/ --context hybrid   # tables from the index
    """
    from openapi_rag.generate.sql.answer import answer_sql

    if (request is None) == (queries is None):
        raise click.UsageError("give a REQUEST or --queries FILE (one of them)")
    schema, connection, index = open_sources(db, index_dir)
    llm = load_llm(llm_name) if needs_llm(generator, policy) else None
    tasks = [{"id": None, "query": request}] if request is not None else list(read_tasks(queries))
    for task in tasks:
        answer = answer_sql(
            task["query"],
            schema,
            connection,
            generator=generator,
            policy=policy,
            context=context,
            index=index,
            llm=llm,
            max_rows=max_rows,
            timeout_s=timeout,
        )
        data = answer.to_dict()
        if queries is not None:
            print_json_line({"id": task["id"], **data})
        elif json_:
            print_json(data)
        else:
            _print_human(data)


def _print_human(data: dict[str, Any]) -> None:
    click.echo(data["sql"] or "-- no SQL")
    if data["columns"]:
        click.echo("\t".join(data["columns"]))
    for row in data["rows"]:
        click.echo("\t".join("" if v is None else str(v) for v in row))
    for problem in data["problems"]:
        click.echo(f"problem: {problem}", err=True)
