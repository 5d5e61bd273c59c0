"""`openapi-rag ask`: a request classified (read or change) and answered with SQL or an API call."""

from __future__ import annotations

from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import handle_errors, print_json, print_json_line
from openapi_rag.cli.sql_options import generation_options, load_llm, needs_llm, open_sources, read_tasks


@cli.command()
@click.argument("request", required=False)
@click.option(
    "-i",
    "--index",
    "index_dir",
    default=None,
    envvar="OPENAPI_RAG_INDEX",
    type=click.Path(),
    help="API index (answers change requests; its table chunks document the tables; --context api|hybrid).",
)
@click.option(
    "--db",
    "db",
    default=None,
    envvar="OPENAPI_RAG_DB",
    type=click.Path(exists=True, dir_okay=False),
    help="DDL or SQLite database (answers read requests).",
)
@generation_options
@click.option(
    "--queries", type=click.File("r"), default=None, help='JSONL of {"query": ...}; one line out per task.'
)
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def ask(
    request: str | None,
    index_dir: str | None,
    db: str | None,
    generator: str,
    policy: str,
    context: str,
    llm_name: str | None,
    queries: Any,
    json_: bool,
) -> None:
    """Classify a request (read → SQL, change → API call) and answer it.

    \b
    openapi-rag ask "How many rooms are available?" --db hotel.sqlite --index idx/
    openapi-rag ask "Cancel reservation 12" --db hotel.sqlite --index idx/ --json
    openapi-rag ask --queries tasks.jsonl --db hotel.sql --index idx/
    """
    from openapi_rag.generate.sql.ask import ask as ask_request

    if (request is None) == (queries is None):
        raise click.UsageError("give a REQUEST or --queries FILE (one of them)")
    if db is None and index_dir is None:
        raise click.UsageError("give --db (for reads), --index (for changes), or both")
    schema, connection, index = open_sources(db, index_dir, need_db=False)
    llm = load_llm(llm_name) if needs_llm(generator, policy) else None
    tasks = [{"id": None, "query": request}] if request is not None else list(read_tasks(queries))
    for task in tasks:
        data = ask_request(
            task["query"],
            schema,
            connection,
            index=index,
            generator=generator,
            policy=policy,
            context=context,
            llm=llm,
        )
        if queries is not None:
            print_json_line({"id": task["id"], **data})
        elif json_:
            print_json(data)
        else:
            _print_human(data)


def _print_human(data: dict[str, Any]) -> None:
    click.echo(f"{data['classification']} → {data['answered_by']}")
    if "sql" in data:
        click.echo(data["sql"]["sql"] or "-- no SQL")
        if data["sql"]["columns"]:
            click.echo("\t".join(data["sql"]["columns"]))
        for row in data["sql"]["rows"]:
            click.echo("\t".join("" if v is None else str(v) for v in row))
    if data.get("call"):
        call = data["call"]
        click.echo(
            " ".join(str(call.get(k, "")) for k in ("service", "operation", "method", "url") if call.get(k))
        )
    for problem in data["problems"]:
        click.echo(f"problem: {problem}", err=True)
