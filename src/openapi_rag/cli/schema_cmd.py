"""`openapi-rag schema derive` and `openapi-rag schema fill`: a database from API descriptions."""

from __future__ import annotations

from pathlib import Path

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, index_option, print_json


@cli.group()
def schema() -> None:
    """Database schemas derived from APIs: one table per object GET operations return.

    \b
    openapi-rag schema derive specs/ -o schema.sql      # SQLite DDL + schema.json beside it
    openapi-rag schema fill schema.sql -o data.sqlite --rows 50 --seed 1
    openapi-rag schema index schema.sql --index idx/    # table chunks beside the API's
    """


@schema.command()
@click.argument("specs", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="DDL file to write.")
@click.option("--json", "json_", is_flag=True, help="Print the derived tables as JSON.")
@handle_errors
def derive(specs: tuple[str, ...], out: str, json_: bool) -> None:
    """Derive SQLite DDL (and a sidecar JSON of descriptions and enums) from API descriptions.

    Nested entities (objects with an `id`) become tables referenced by a foreign key; other nested
    objects are flattened one level (`followers_total`); arrays are left out.

    \b
    openapi-rag schema derive spotify.json -o spotify.sql
    """
    from openapi_rag.generate.sql import derive_schema
    from openapi_rag.spec import load_services

    result = load_services(list(specs))
    for failure in result.failed:
        where = f" ({failure.where})" if failure.where else ""
        err(f"warning: {failure.file}{where}: {failure.error}")
    problems: list[str] = []
    derived = derive_schema(result.services, problems)
    for problem in problems:
        err(f"warning: {problem}")
    sidecar = derived.save(out)
    err(f"{len(derived.tables)} tables → {out} (descriptions in {sidecar})")
    if json_:
        print_json(derived.to_dict())
    else:
        for table in derived.tables:
            click.echo(f"{table.name}\t{len(table.columns)} columns")


@schema.command()
@click.argument("ddl", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-o", "--out", "out", required=True, type=click.Path(dir_okay=False), help="SQLite file to write."
)
@click.option("--rows", default=20, show_default=True, help="Rows per table.")
@click.option("--seed", default=0, show_default=True, help="The same seed gives the same rows.")
@handle_errors
def fill(ddl: str, out: str, rows: int, seed: int) -> None:
    """Create a SQLite database from DDL with synthetic rows (types, formats, enums, foreign keys kept).

    \b
    openapi-rag schema fill schema.sql -o data.sqlite --rows 50 --seed 1
    """
    from openapi_rag.generate.sql import fill_database, load_db_schema

    if Path(out).resolve() == Path(ddl).resolve():
        raise click.UsageError("--out must not be the DDL file itself")
    counts = fill_database(load_db_schema(ddl), out, rows=rows, seed=seed)
    err(f"{sum(counts.values())} rows in {len(counts)} tables → {out}")


@schema.command("index")
@click.argument("db", type=click.Path(exists=True, dir_okay=False))
@index_option("The API index to store the table chunks in (built with `openapi-rag index`).")
@click.option("--wait", is_flag=True, help="If another process is updating the index, wait for it.")
@handle_errors
def index_tables(db: str, index_dir: str, wait: bool) -> None:
    """Store a database's table chunks in an API index, beside the operation chunks.

    `sql` and `ask --index` then read the tables (descriptions, enums, the operations each came
    from) from the index; endpoint search never returns them. Run again to replace them.

    \b
    openapi-rag schema index schema.sql --index idx/
    """
    from openapi_rag.cli.sql_options import store_table_chunks

    store_table_chunks(index_dir, db, wait)


@schema.command()
@click.argument("db", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "-i", "--index", "index_dir", default=None, type=click.Path(), help="Show the chunks an index holds."
)
@click.option("--json", "json_", is_flag=True, help="Print the chunks as JSON (the index's chunk records).")
@handle_errors
def chunks(db: str | None, index_dir: str | None, json_: bool) -> None:
    """Show the table chunks (one per table) that SQL generation retrieves and an LLM reads.

    \b
    openapi-rag schema chunks schema.sql
    openapi-rag schema chunks --index idx/
    """
    from openapi_rag.generate.sql import load_db_schema
    from openapi_rag.generate.sql.retrieve import table_chunks
    from openapi_rag.generate.sql.table_index import load_table_chunks

    if (db is None) == (index_dir is None):
        raise click.UsageError("give a DB file or --index DIR (one of them)")
    found = table_chunks(load_db_schema(db)) if db else load_table_chunks(index_dir or "")
    if json_:
        print_json([chunk.to_dict() for chunk in found])
        return
    for chunk in found:
        click.echo(chunk.content + "\n")
