"""`openapi-rag eval-crawl`: score `crawl` on rendered pages against their source specs."""

from __future__ import annotations

import json
from pathlib import Path

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, llm_option
from openapi_rag.cli.crawl_cmd import get_llm_or_none


@cli.command("eval-crawl")
@click.option("--pages", "pages_dir", required=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of pages (one subfolder per renderer), named like their truth specs.")  # fmt: skip
@click.option("--truth", "truth_dir", required=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of the source specs (ID.json / ID.yaml).")  # fmt: skip
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Write summary.json, pages.jsonl, table.md and the crawled documents here.")  # fmt: skip
@llm_option("Crawl with this LLM's enrichment stage.")
@click.option("--json", "json_", is_flag=True, help="Print the summary as JSON.")
@handle_errors
def eval_crawl_cmd(
    pages_dir: Path, truth_dir: Path, out_dir: Path, llm_name: str | None, json_: bool
) -> None:
    """Score `crawl` on rendered pages against the specs they came from (SpeCrawler's metrics).

    Operations found (P/R), request/response parameter names (P/R/F1, 95% CI over pages),
    precision of in/type/required on matched names, description similarity (default embedder),
    valid OpenAPI and warnings; one row per renderer folder.

    \b
    Example:
      openapi-rag eval-crawl --pages benchmarks/crawl/pages --truth benchmarks/crawl/truth --out out/crawl
    """
    from openapi_rag.crawl.benchmark import run_eval

    summary = run_eval(pages_dir, truth_dir, out_dir, llm=get_llm_or_none(llm_name))
    if json_:
        click.echo(json.dumps(summary, indent=2, default=str))
    else:
        click.echo((out_dir / "table.md").read_text(encoding="utf-8"), nl=False)
    err(f"Wrote {out_dir}/summary.json, pages.jsonl, table.md")
