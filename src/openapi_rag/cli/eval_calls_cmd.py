"""`openapi-rag eval-calls`: call generation scored on cases against a validating mock."""

from __future__ import annotations

import itertools
import sys

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import (
    comma_choices,
    err,
    handle_errors,
    index_option,
    llm_option,
    print_json,
    progress_enabled,
)


@cli.command("eval-calls")
@click.option("--cases", "cases_path", required=True, type=click.Path(exists=True),
              help="Folder of JSON case files or a JSONL file.")  # fmt: skip
@index_option()
@click.option(
    "--out",
    required=True,
    type=click.Path(),
    help="Folder for cases.jsonl, summary.*, ttests.csv, report.md.",
)
@click.option("--generators", default="offline", show_default=True, help="Comma-separated: offline,llm.")
@click.option("--policies", default="rag", show_default=True, help="Comma-separated: rag,self-rag,corag.")
@click.option(
    "--repair", "repairs", default="0", show_default=True, help="Comma-separated repair budgets, e.g. 0,2."
)
@llm_option("LLM for the llm generator and policies.")
@click.option("--half", type=click.Choice(["all", "tune", "report"]), default="all", show_default=True,
              help="Only the cases of this half (bench.halves).")  # fmt: skip
@click.option("--limit", type=click.IntRange(1), default=None, help="Only the first N cases (a quick look).")
@click.option("--json", "json_", is_flag=True, help="Print the summary as JSON.")
@handle_errors
def eval_calls(
    cases_path: str,
    index_dir: str,
    out: str,
    generators: str,
    policies: str,
    repairs: str,
    llm_name: str | None,
    half: str,
    limit: int | None,
    json_: bool,
) -> None:
    """Score call generation: exact and component match, execution, endpoint retrieval, tokens, time.

    \b
    Examples:
      openapi-rag eval-calls --cases benchmarks/calls/cases.jsonl --index idx/ --out out/calls
      openapi-rag eval-calls --cases cases/ --index idx/ --out out/c --generators offline,llm --repair 0,2
    """
    from openapi_rag.bench.halves import half_of
    from openapi_rag.generate.call.cases import load_cases
    from openapi_rag.generate.call.evaluate import DATASET, Config, evaluate_calls, write_report
    from openapi_rag.generate.call.generator import GENERATORS, POLICIES
    from openapi_rag.index import Index

    gens = comma_choices(generators, GENERATORS, "--generators")
    pols = comma_choices(policies, POLICIES, "--policies")
    try:
        budgets = [int(x) for x in repairs.split(",") if x.strip()]
    except ValueError as exc:
        raise click.BadParameter("comma-separated numbers, e.g. 0,2", param_hint="--repair") from exc
    if not budgets or any(b < 0 or b > 10 for b in budgets):
        raise click.BadParameter("budgets between 0 and 10", param_hint="--repair")
    cases, problems = load_cases(cases_path)
    for problem in problems:
        err(f"skipped {problem}")
    if half != "all":
        cases = [c for c in cases if half_of(DATASET, c.case_id) == half]
    cases = cases[:limit] if limit else cases
    if not cases:
        raise click.ClickException(f"no cases to score in {cases_path}")
    configs = [Config(g, p, r) for g, p, r in itertools.product(gens, pols, budgets)]
    llm = None
    if "llm" in gens or any(p != "rag" for p in pols):
        from openapi_rag.llm import get_llm

        llm = get_llm(llm_name, cache=True)
    index = Index.open(index_dir)
    err(f"{len(cases)} cases × {len(configs)} configurations")
    from tqdm import tqdm  # here: its import (~50 ms) would slow every command's start

    with tqdm(
        total=len(cases) * len(configs), file=sys.stderr, disable=not progress_enabled(), unit="case"
    ) as bar:
        results = evaluate_calls(cases, index, configs, llm=llm, progress=bar.update)
    report = write_report(out, results, problems=problems)
    if json_:
        print_json(report)
        return
    click.echo(
        f"{'config':28} {'half':6} {'difficulty':10} {'cases':>5} {'endpoint':>8} {'exec':>6} {'exact':>6} {'comp':>6}"
    )
    for row in report["summary"]:
        click.echo(
            f"{row['config']:28} {row['half']:6} {row['difficulty']:10} {row['cases']:5d} {row['endpoint']:8.3f} "
            f"{row['execution']:6.3f} {row['exact']:6.3f} {row['component']:6.3f}"
        )
    err(f"wrote {out}/report.md, summary.json, summary.csv, ttests.csv, cases.jsonl")
