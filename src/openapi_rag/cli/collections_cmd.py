"""`openapi-rag collections list|drop`: the collections of a PostgreSQL store."""

from __future__ import annotations

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, print_json
from openapi_rag.store.pg_target import STORE_ENV, PgTarget

_STORE_HELP = f"postgresql://USER@HOST/DB (env {STORE_ENV}, which keeps a password out of `ps`)."


def _target(store: str, collection: str = "default") -> PgTarget:
    try:
        return PgTarget(store, collection)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--store/NAME") from exc


@cli.group()
def collections() -> None:
    """List and drop the collections of a PostgreSQL store (`--store` on index, search, serve ...).

    \b
    Examples:
      export OPENAPI_RAG_STORE=postgresql://catalog@db.internal/apis
      openapi-rag collections list
      openapi-rag collections drop staging
    """


@collections.command("list")
@click.option("--store", required=True, envvar=STORE_ENV, metavar="DSN", help=_STORE_HELP)
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def list_(store: str, json_: bool) -> None:
    """Every collection: services, operations, chunks, embedder, last update."""
    from openapi_rag.store.pg_write import list_collections

    found = list_collections(_target(store))
    if json_:
        print_json(found)
        return
    if not found:
        err(f"no collections in {_target(store).redacted_dsn}")
    for c in found:
        click.echo(
            f"{c['collection']}\t{c['services']} services, {c['operations']} operations, {c['chunks']} chunks\t"
            f"{c['embedder']} ({c['dimensions']} d), {c['strategy']}\tupdated {c['updated_at']}"
        )


@collections.command()
@click.argument("name")
@click.option("--store", required=True, envvar=STORE_ENV, metavar="DSN", help=_STORE_HELP)
@click.option("--wait", is_flag=True, help="If a writer is updating it, wait instead of stopping.")
@handle_errors
def drop(name: str, store: str, wait: bool) -> None:
    """Delete collection NAME and everything in it (other collections are untouched)."""
    from openapi_rag.errors import IndexNotFound
    from openapi_rag.store.pg_write import drop_collection

    target = _target(store, name)
    if not drop_collection(target, wait=wait):
        raise IndexNotFound(
            f"no collection {name!r} in {target.redacted_dsn}: see `openapi-rag collections list`"
        )
    err(f"dropped {target}")
