"""`openapi-rag inspect`."""

from __future__ import annotations

import sys
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import allow_refs_option, err, handle_errors, parse_clean, print_json


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "json_", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--validate", is_flag=True, help="Run openapi-spec-validator and list its findings per file.")
@click.option("--tokens", is_flag=True, help="Token counts per document, before and after cleaning.")
@click.option(
    "--clean", "clean", default=None, help="Cleaning steps for --tokens (default: the default steps)."
)
@click.option("--limit", default=8191, show_default=True, help="Token limit counted against with --tokens.")
@allow_refs_option()
@handle_errors
def inspect(
    paths: tuple[str, ...],
    json_: bool,
    validate: bool,
    tokens: bool,
    clean: str | None,
    limit: int,
    allow_refs: tuple[str, ...],
) -> None:
    """Load every API description under PATHS and report what it holds.

    \b
    Examples:
      openapi-rag inspect specs/
      openapi-rag inspect specs/ --json --validate
      openapi-rag inspect specs/ --tokens --limit 8191

    Exit status is 1 when any document failed to load.
    """
    from openapi_rag.inspect import inspect_paths  # here: it loads the spec readers (~0.1 s)

    report = inspect_paths(
        paths, validate=validate, tokens=tokens, clean=parse_clean(clean), limit=limit, allow_refs=allow_refs
    )
    if json_:
        print_json(report)
    else:
        _print_text(report)
    if report["failed"]:
        sys.exit(1)


def _print_text(report: dict[str, Any]) -> None:
    for s in report["services"]:
        click.echo(f"{s['title']} {s['version']}  [{s['format']}]  {s['file']}")
        click.echo(
            f"  id {s['id']}: {s['operations']} operations, {s['schemas']} schemas, {s['files']} files"
        )
        if "tokens" in s:
            counts = ", ".join(f"{n} {c['before']}→{c['after']}" for n, c in s["tokens"].items())
            click.echo(f"  tokens (before→after cleaning): {counts}")
        for p in s["problems"][:10]:
            click.echo(f"  problem: {p}")
        if len(s["problems"]) > 10:
            click.echo(f"  ... and {len(s['problems']) - 10} more problems")
        for v in s.get("validation", [])[:10]:
            click.echo(f"  invalid: {v}")
    for f in report["failed"]:
        where = f" ({f['where']})" if f.get("where") else ""
        err(f"FAILED {f['file']}{where}: {f['error']}")
    t = report["totals"]
    line = f"{t['services']} services, {t['operations']} operations, {t['schemas']} schemas, {t['failed']} failed"
    if "invalid" in t:
        line += f", {t['invalid']} with validation findings"
    click.echo(line)
    if "tokens" in report:
        tok = report["tokens"]
        click.echo(f"Token statistics over {tok['documents']} documents (limit {tok['limit']}):")
        removed = ", ".join(f"{step} {count}" for step, count in tok["removed_by_step"].items())
        click.echo(f"  minilm tokens removed per cleaning step: {removed or 'no steps'}")
        from openapi_rag.inspect import TOKENIZERS

        for name in TOKENIZERS:
            st = tok[name]
            click.echo(
                f"  {name:12} mean {st['mean_before']:.0f}→{st['mean_after']:.0f}, max {st['max_before']}→"
                f"{st['max_after']}, over limit {st['over_limit_before']}→{st['over_limit_after']}"
            )
