"""`openapi-rag chunk`: cut API descriptions into chunks with a named strategy and show them."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import (
    F,
    allow_refs_option,
    err,
    handle_errors,
    parse_clean,
    print_json,
    print_json_line,
)
from openapi_rag.model import Chunk


def strategy_names() -> list[str]:
    from openapi_rag.chunking import list_strategies

    return list_strategies()


def build_strategy(
    name: str, size: int | None, overlap: int | None, tokenizer: str | None, depth: int | None
) -> Any:
    """The strategy for the command-line options; bad values are usage errors."""
    from openapi_rag.chunking import get_strategy

    try:
        return get_strategy(name, size=size, overlap=overlap, tokenizer=tokenizer, depth=depth)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--strategy/--size/--overlap/--depth") from exc


class StrategyOption(click.Option):
    """`--strategy`, whose help names the registry's strategies only when help is shown: importing
    the registry pulls in numpy and FAISS, which `openapi-rag --help` should not pay for."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = "Chunking strategy: " + ", ".join(strategy_names()) + "."
        return super().get_help_record(ctx)


def chunking_options(default_strategy: str) -> Callable[[F], F]:
    """PATHS and the options that choose and size a strategy, shared by `chunk` and `bench chunk`."""
    decorators = [
        click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True)),
        click.option(
            "-s",
            "--strategy",
            "strategy_name",
            default=default_strategy,
            show_default=True,
            cls=StrategyOption,
        ),
        click.option(
            "--size", type=int, default=None, help="Most tokens per chunk (default: the strategy's)."
        ),
        click.option("--overlap", type=int, default=None, help="Tokens shared by consecutive windows."),
        click.option(
            "--depth", type=int, default=None, help="ref-inline/ref-linked: schema levels to expand."
        ),
        click.option("--tokenizer", default=None, help="Count tokens with this tokenizer (default: minilm)."),
        click.option(
            "--clean",
            default=None,
            help="Cleaning steps to apply while loading, e.g. 'default' (default: none).",
        ),
    ]

    def apply(func: F) -> F:
        for decorator in reversed(decorators):
            func = decorator(func)
        return func

    return apply


@cli.command()
@chunking_options(default_strategy="endpoint")
@click.option("--summary", "summary_only", is_flag=True, help="Print only the summary.")
@click.option(
    "--json", "json_", is_flag=True, help="JSON lines, one chunk per line (the summary goes to stderr)."
)
@allow_refs_option()
@handle_errors
def chunk(
    paths: tuple[str, ...],
    strategy_name: str,
    size: int | None,
    overlap: int | None,
    depth: int | None,
    tokenizer: str | None,
    clean: str | None,
    summary_only: bool,
    json_: bool,
    allow_refs: tuple[str, ...],
) -> None:
    """Load the API descriptions under PATHS and cut them into chunks.

    Prints each chunk (the embedded text, and the returned content where it differs), then a
    summary: number of chunks, tokens per chunk (mean, max), chunks per operation.

    \b
    Examples:
      openapi-rag chunk spotify.json --strategy ref-linked
      openapi-rag chunk specs/ --strategy whole --size 100 --overlap 20 --json > chunks.jsonl
      openapi-rag chunk specs/ --strategy thin --summary --json

    Exit status is 1 when any document failed to load.
    """
    from openapi_rag.chunking import chunk_summary
    from openapi_rag.spec import load_services

    strategy = build_strategy(strategy_name, size, overlap, tokenizer, depth)
    result = load_services(paths, clean=parse_clean(clean), allow_refs=allow_refs)
    for failure in result.failed:
        where = f" ({failure.where})" if failure.where else ""
        err(f"FAILED {failure.file}{where}: {failure.error}")
    chunks = strategy.chunk(result.services)
    summary = {"strategy": strategy.name, "params": strategy.params}
    summary.update(chunk_summary(chunks, result.services, limit=strategy.limit, tokenizer=strategy.tokenizer))
    if summary_only:
        print_json(summary) if json_ else click.echo(format_summary(summary))
    elif json_:
        for c in chunks:
            print_json_line(c.to_dict())
        err(format_summary(summary))
    else:
        for c in chunks:
            click.echo(format_chunk(c))
        click.echo(format_summary(summary))
    if result.failed:
        sys.exit(1)


def format_chunk(c: Chunk) -> str:
    ops = ", ".join(c.operations[:5]) + (
        f" and {len(c.operations) - 5} more" if len(c.operations) > 5 else ""
    )
    lines = [f"── {c.id}  [{c.kind}, {c.tokens} tokens]" + (f"  covers {ops}" if ops else ""), c.embed_text]
    if c.content != c.embed_text:
        lines += ["── content:", c.content]
    return "\n".join(lines) + "\n"


def format_summary(s: dict[str, Any]) -> str:
    params = ", ".join(f"{k} {v}" for k, v in s["params"].items())
    kinds = ", ".join(f"{n} {k}" for k, n in s["kinds"].items())
    return "\n".join(
        [
            f"{s['chunks']} chunks ({kinds or 'none'}) from {s['services']} services, "
            f"{s['operations']} operations [strategy {s['strategy']}: {params}]",
            f"tokens per chunk: mean {s['tokens_mean']}, max {s['tokens_max']} "
            f"(returned content: mean {s['content_tokens_mean']}); "
            f"{s['over_limit']} over the model's {s['limit']}",
            f"chunks per operation: mean {s['chunks_per_operation']}, max {s['chunks_per_operation_max']}; "
            f"{s['uncovered_operations']} operations in no chunk",
        ]
    )
