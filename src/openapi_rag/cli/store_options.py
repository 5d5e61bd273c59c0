"""`--store DSN --collection NAME`: an index kept in PostgreSQL instead of a directory.

The commands that read or write an index (`index`, `search`, `show`, `serve`, `mcp`) take these
beside `-i/--index`; the command body receives one `index_dir` value, a directory or a `PgTarget`,
and passes it on to `Index.open` / `build_index` unchanged. The DSN also comes from
`OPENAPI_RAG_STORE`, so a password never has to appear on a command line (or in `ps`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from openapi_rag.store.pg_target import COLLECTION_ENV, DEFAULT_COLLECTION, STORE_ENV, PgTarget

F = TypeVar("F", bound=Callable[..., Any])


def resolve_target(index_dir: str | None, store: str | None, collection: str) -> str | PgTarget:
    """The index location the options name: `--store` (with `--collection`) or `--index`."""
    ctx = click.get_current_context(silent=True)
    index_given = (
        index_dir is not None
        and ctx is not None
        and ctx.get_parameter_source("index_dir") == click.core.ParameterSource.COMMANDLINE
    )
    if store:
        if index_given:
            raise click.UsageError("give --index DIR or --store DSN, not both")
        try:
            return PgTarget(store, collection)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--store/--collection") from exc
    if index_dir is None:
        raise click.UsageError(
            f"Missing option '-i' / '--index' (an index directory), or --store DSN (env {STORE_ENV})."
        )
    return index_dir


def index_or_store_options(help: str = "Index directory built by `openapi-rag index`.") -> Callable[[F], F]:
    """`-i/--index DIR` or `--store DSN [--collection NAME]`, folded into the command's `index_dir`."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(
            *args: Any, index_dir: str | None, store: str | None, collection: str, **kwargs: Any
        ) -> Any:
            return func(*args, index_dir=resolve_target(index_dir, store, collection), **kwargs)

        options = [
            click.option(
                "-i",
                "--index",
                "index_dir",
                default=None,
                envvar="OPENAPI_RAG_INDEX",
                type=click.Path(),
                help=help,
            ),
            click.option(
                "--store",
                default=None,
                envvar=STORE_ENV,
                metavar="DSN",
                help=f"Keep the index in PostgreSQL with pgvector instead: postgresql://USER@HOST/DB "
                f"(env {STORE_ENV}, which keeps a password out of `ps`).",
            ),
            click.option(
                "--collection",
                default=DEFAULT_COLLECTION,
                show_default=True,
                envvar=COLLECTION_ENV,
                help="With --store: the collection (one database holds many, e.g. one per team).",
            ),
        ]
        for option in reversed(options):
            wrapper = option(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate
