"""Helpers shared by the CLI commands: JSON output, error reporting."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from openapi_rag.errors import OpenAPIRagError

F = TypeVar("F", bound=Callable[..., Any])


def print_json(data: Any) -> None:
    """Print one JSON document to stdout."""
    click.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def print_json_line(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, default=str))


def err(message: str) -> None:
    """Status and warnings go to stderr so stdout carries results only."""
    click.echo(message, err=True)


def progress_enabled() -> bool:
    return os.environ.get("OPENAPI_RAG_NO_PROGRESS", "") == "" and sys.stderr.isatty()


def handle_errors(func: F) -> F:
    """Turn library errors into one-line `Error: ...` messages (exit 1).

    `OPENAPI_RAG_RAISE_ERRORS=1` re-raises with the traceback instead.
    """

    @wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except OpenAPIRagError as exc:
            if os.environ.get("OPENAPI_RAG_RAISE_ERRORS"):
                raise
            raise click.ClickException(str(exc)) from exc

    return wrapper  # type: ignore[return-value]


def parse_clean(clean: str | None) -> list[str] | None:
    """`--clean` as step names (None when not given); an unknown step is a usage error."""
    if clean is None:
        return None
    from openapi_rag.clean import parse_steps

    try:
        return parse_steps(clean)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--clean") from exc


def index_option(help: str = "Index directory built by `openapi-rag index`.") -> Callable[[F], F]:
    """`-i/--index DIR`, the same on every command that reads or writes an index (env OPENAPI_RAG_INDEX)."""
    return click.option(
        "-i", "--index", "index_dir", required=True, envvar="OPENAPI_RAG_INDEX", type=click.Path(), help=help
    )


def llm_option(
    help: str = "LLM name (default: $OPENAPI_RAG_LLM or local); see `openapi-rag llm check`.",
) -> Callable[[F], F]:
    """`--llm NAME`, the same on every command that can use an LLM; `help` says what for."""
    return click.option("--llm", "llm_name", default=None, metavar="NAME", help=help)


def query_limit_options(func: F) -> F:
    """`--max-query-chars` and `--max-clauses`, the bounds on one query (`search.clauses.QueryLimits`)."""
    from openapi_rag.search.clauses import QueryLimits

    defaults = QueryLimits()
    func = click.option(
        "--max-clauses",
        type=click.IntRange(1),
        default=defaults.max_clauses,
        show_default=True,
        envvar="OPENAPI_RAG_MAX_CLAUSES",
        help="Most clauses one query may have (each is searched on its own).",
    )(func)
    return click.option(
        "--max-query-chars",
        type=click.IntRange(1),
        default=defaults.max_chars,
        show_default=True,
        envvar="OPENAPI_RAG_MAX_QUERY_CHARS",
        help="Longest query, in characters.",
    )(func)


class LazyChoice(click.Choice):
    """A `click.Choice` whose values come from `load()` when first needed (parsing or help), so a
    registry behind heavy imports is not loaded by `openapi-rag --help`."""

    def __init__(self, load: Callable[[], Any]):
        self._load = load
        self._loaded: tuple[str, ...] | None = None
        super().__init__(())

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        if self._loaded is None:
            self._loaded = tuple(self._load())
        return self._loaded

    @choices.setter
    def choices(self, _value: Any) -> None:
        pass  # set by click.Choice.__init__; the loaded values win


def allow_refs_option() -> Callable[[F], F]:
    """`--allow-refs DIR` (repeatable): a folder beyond PATHS that local `$ref`s may read from."""
    return click.option(
        "--allow-refs",
        "allow_refs",
        multiple=True,
        type=click.Path(exists=True, file_okay=False),
        help="Also let local $refs (and links) read from DIR; by default only the folders in PATHS. Repeatable.",
    )


def comma_choices(value: str, allowed: tuple[str, ...], flag: str) -> list[str]:
    """A comma-separated option's names, each one of `allowed` (a usage error names the others)."""
    names = [v.strip() for v in value.split(",") if v.strip()]
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise click.BadParameter(f"{', '.join(bad) or value!r}: use {', '.join(allowed)}", param_hint=flag)
    return names
