"""`openapi-rag compose`: find a needed service in the catalog, or draft one with the LLM."""

from __future__ import annotations

from pathlib import Path

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, index_option, llm_option, print_json


@cli.command("compose")
@click.argument("need", required=False)
@index_option()
@click.option("--spec", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Describe the needed service by an OpenAPI document instead of a sentence.")  # fmt: skip
@click.option("--threshold", type=float, default=None,
              help="Similarity an operation must reach to match (default 0.55; 0.6 with --spec).")  # fmt: skip
@click.option("-k", "--limit", "k", type=int, default=10, show_default=True, help="Most matches to show.")
@llm_option("LLM that drafts the service (default: $OPENAPI_RAG_LLM or local).")
@click.option("--max-repairs", type=int, default=3, show_default=True,
              help="Times the draft goes back to the LLM with the validator's findings.")  # fmt: skip
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the drafted OpenAPI document here (YAML or JSON by extension).")  # fmt: skip
@click.option("--json", "json_", is_flag=True, help="Print the result as JSON.")
@handle_errors
def compose_cmd(
    need: str | None,
    index_dir: str,
    spec: Path | None,
    threshold: float | None,
    k: int,
    llm_name: str | None,
    max_repairs: int,
    output: Path | None,
    json_: bool,
) -> None:
    """Which catalog services do what NEED describes? If none does, draft an OpenAPI document for it.

    Operations are matched by dense similarity to NEED; a service is listed when one of its
    operations reaches --threshold. When none does, the configured LLM drafts the service, which
    is validated with openapi-spec-validator, repaired up to --max-repairs times and marked as a
    draft (info.x-draft: true).

    \b
    Examples:
      openapi-rag compose "a service that returns cast and ratings of movies" --index idx/
      openapi-rag compose "send SMS reminders" --index idx/ --threshold 0.6 -o draft.yaml
      openapi-rag compose --spec draft.yaml --index idx/
    """
    from openapi_rag.index import Index

    if (need is None) == (spec is None):
        raise click.UsageError("give exactly one of NEED or --spec FILE")
    index = Index.open(index_dir)
    if spec is not None:
        from openapi_rag.index.spec_query import DEFAULT_SPEC_THRESHOLD, match_spec

        result = match_spec(
            index, spec, threshold=DEFAULT_SPEC_THRESHOLD if threshold is None else threshold, k=k
        )
        if json_:
            print_json(result)
            return
        for m in (m for m in result["matches"] if m["passes"]):
            click.echo(
                f"{m['score']:.3f}  {m['service']}  ({m['covered']}/{m['query_operations']} operations)"
            )
        if not result["found"]:
            click.echo(f"No catalog service matches {spec}: it describes a service still to build.")
        return

    from openapi_rag.crawl.compose import DEFAULT_THRESHOLD, compose
    from openapi_rag.llm import get_llm

    threshold = DEFAULT_THRESHOLD if threshold is None else threshold
    result = compose(need, index=index, threshold=threshold, k=k)
    if not result.found:
        err(f"No catalog operation matches above {threshold}: drafting the service with the LLM.")
        with get_llm(llm_name, cache=True) as llm:
            result = compose(need, llm=llm, threshold=threshold, max_repairs=max_repairs)
    if result.draft is not None and output is not None:
        from openapi_rag.cli.convert_cmd import _dump

        output.write_text(
            _dump(result.draft, "json" if output.suffix == ".json" else "yaml"), encoding="utf-8"
        )
        err(f"Wrote the draft to {output}")
    for finding in result.findings:
        err(f"invalid: {finding}")
    if json_:
        print_json(result.as_dict())
    elif result.found:
        for match in result.matches:
            click.echo(f"{match['score']:.3f}  {match['service']}")
            for op in match["operations"]:
                click.echo(f"         {op['score']:.3f}  {op['id']}  {op['summary']}")
    elif result.draft is not None and output is None:
        from openapi_rag.cli.convert_cmd import _dump

        click.echo(_dump(result.draft, "yaml"), nl=False)
    if not result.found and (result.draft is None or result.findings):
        # One honest line: which model failed, how, and what helps (a small local model often does).
        raise click.ClickException(
            f"no usable draft from {result.model} after {result.attempts} attempts: {result.findings[0]}"
            + (" (written anyway, to help fixing it)" if output is not None and result.draft else "")
            + "; a stronger model drafts better: --llm openai:MODEL (or $OPENAPI_RAG_LLM)"
        )
