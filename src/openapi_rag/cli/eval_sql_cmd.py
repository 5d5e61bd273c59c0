"""`openapi-rag eval-sql`: SQL and read/change cases scored; means with 95% CIs, paired t-tests."""

from __future__ import annotations

import json
from pathlib import Path

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import comma_choices, err, handle_errors, llm_option, print_json
from openapi_rag.cli.sql_options import load_llm, needs_llm, open_index


@cli.command("eval-sql")
@click.option(
    "--cases",
    "cases_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help='JSONL: {"input", "output": {"sql"} or {"kind": "sql"|"api", ...}, "difficulty", "db"}.',
)
@click.option(
    "--db",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="The database for every case (default: each case's own `db`, beside the cases file).",
)
@click.option(
    "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="Directory for results."
)
@click.option("--generators", default="offline", show_default=True, help="Comma list: offline,llm.")
@click.option("--policies", default="rag", show_default=True, help="Comma list: rag,self-rag,corag.")
@click.option("--context", "contexts", default="db", show_default=True, help="Comma list: db,api,hybrid.")
@click.option("-i", "--index", "index_dir", default=None, type=click.Path(), help="API index for api/hybrid.")
@llm_option("LLM for llm, self-rag, corag.")
@click.option(
    "--half",
    type=click.Choice(["all", "tune", "report"]),
    default="all",
    show_default=True,
    help="Only the cases of one fixed half (bench.halves, dataset 'sql').",
)
@click.option(
    "--limit", type=click.IntRange(min=1), default=None, help="Only the first N cases (after --half)."
)
@click.option("--json", "json_", is_flag=True, help="Print the summary as JSON instead of markdown.")
@handle_errors
def eval_sql(
    cases_path: str,
    db: str | None,
    out_dir: str,
    generators: str,
    policies: str,
    contexts: str,
    index_dir: str | None,
    llm_name: str | None,
    half: str,
    limit: int | None,
    json_: bool,
) -> None:
    """Score SQL generation: exact match, clause match, execution, result accuracy, classification.

    \b
    openapi-rag eval-sql --cases benchmarks/sql/cases.jsonl --out out/sql
    openapi-rag eval-sql --cases benchmarks/sql/ask.jsonl --out out/ask
    openapi-rag eval-sql --cases bank.jsonl --db bank.sql --out out/bank --generators offline,llm
    """
    from openapi_rag.bench.halves import half_of
    from openapi_rag.generate.sql.evaluate import (
        Config,
        evaluate,
        load_cases,
        paired_tests,
        summarize,
        summary_markdown,
    )

    cases = load_cases(cases_path, db)
    if half != "all":
        cases = [c for c in cases if half_of("sql", c.case_id) == half]
    cases = cases[:limit] if limit else cases
    configs = [
        Config(g, p, c)
        for g in comma_choices(generators, ("offline", "llm"), "--generators")
        for p in comma_choices(policies, ("rag", "self-rag", "corag"), "--policies")
        for c in comma_choices(contexts, ("db", "api", "hybrid"), "--context")
    ]
    index, tables = open_index(index_dir)
    needs = any(needs_llm(c.generator, c.policy) for c in configs)
    llm = load_llm(llm_name) if needs else None
    err(f"{len(cases)} cases × {len(configs)} configurations")
    results, empty = evaluate(cases, configs, index=index, llm=llm, tables=tables)
    for gold in empty:
        err(f"warning: gold query returns no row even after planting: {gold}")
    rows, tests = summarize(results), paired_tests(results)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with (out / "cases.jsonl").open("w", encoding="utf-8") as handle:
        for result in results:
            handle.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
    summary = {"cases": cases_path, "half": half, "summary": rows, "tests": tests, "empty_golds": empty}
    if llm is not None:
        summary["llm"] = {"model": llm.model_id, "tokens": llm.usage.total_tokens}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    markdown = summary_markdown(rows, tests)
    (out / "summary.md").write_text(markdown, encoding="utf-8")
    if json_:
        print_json(summary)
    else:
        click.echo(markdown, nl=False)
