"""`openapi-rag crawl`: OpenAPI from HTML documentation pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, llm_option, print_json


def get_llm_or_none(name: str | None) -> Any:
    """The configured LLM called `name`, or None when no name is given."""
    if name is None:
        return None
    from openapi_rag.llm import get_llm

    return get_llm(name, cache=True)


@cli.command("crawl")
@click.argument("pages", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the OpenAPI document here (.yaml/.yml or .json); default: YAML on stdout.")  # fmt: skip
@llm_option("Enrich parameters from prose with this LLM (e.g. local, openai:gpt-4o-mini).")
@click.option("--json", "json_", is_flag=True, help="Print the report (and the document) as JSON on stdout.")
@handle_errors
def crawl_cmd(pages: tuple[Path, ...], output: Path | None, llm_name: str | None, json_: bool) -> None:
    """Turn HTML API documentation pages into one OpenAPI 3 document.

    Reads local, pre-rendered pages (files or folders of .html); never fetches anything and never
    runs a page's scripts. Request samples (cURL, HTTP, `METHOD /path`), JSON examples and
    parameter tables give the operations; the report lists the parameters per source (example,
    table, prose) and warnings. With no LLM every stage is rule-based and offline.

    \b
    Examples:
      openapi-rag crawl docs/ -o openapi.yaml
      openapi-rag crawl api.html --json > report.json
      openapi-rag crawl docs/ -o openapi.yaml --llm openai:gpt-4o-mini
    """
    from openapi_rag.cli.convert_cmd import _FORMATS, _dump
    from openapi_rag.crawl import crawl_pages

    format_ = _FORMATS.get(output.suffix.lower(), "yaml") if output is not None else "yaml"
    result = crawl_pages(pages, llm=get_llm_or_none(llm_name))
    report = result.report.as_dict()
    for warning in result.report.warnings:
        err(f"warning: {warning}")
    if result.empty:
        err("No API operations found in the pages: the document has no paths.")
    if output is not None:
        output.write_text(_dump(result.document, format_), encoding="utf-8")
        err(f"Wrote {output}: {report['operations']} operations")
    for finding in result.findings:
        err(f"invalid: {finding}")
    if json_:
        payload = {"report": report, "valid": not result.findings, "findings": result.findings}
        if output is None:
            payload["document"] = result.document
        print_json(payload)
    elif output is None:
        click.echo(_dump(result.document, "yaml"), nl=False)
    else:
        sources = ", ".join(f"{k} {v}" for k, v in report["parameters"].items()) or "none"
        click.echo(f"{report['operations']} operations from {report['pages']} pages; parameters: {sources}")
    if result.findings:
        raise click.ClickException(
            f"the crawled document is not valid OpenAPI ({len(result.findings)} findings)"
        )
