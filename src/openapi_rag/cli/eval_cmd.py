"""`openapi-rag eval`: endpoint retrieval on RestBench, SOCBench-D or a user's query set."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import LazyChoice, err, handle_errors, llm_option, print_json, progress_enabled


def _dataset_kinds() -> tuple[str, ...]:
    from openapi_rag.bench.loaders import DATASET_KINDS  # heavy package: imported when needed

    return DATASET_KINDS


def _split(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


def _check_extras(plots: bool) -> None:
    """Fail before a long run, not after it, when the figures cannot be drawn."""
    import importlib.util

    from openapi_rag.errors import MissingDependency

    if plots and importlib.util.find_spec("matplotlib") is None:
        raise MissingDependency(
            'The figures need matplotlib: pip install "openapi-rag[eval]", or pass --no-plots'
        )
    if importlib.util.find_spec("scipy") is None:
        err(
            "warning: scipy is not installed, so the report has no Friedman p-values: "
            'pip install "openapi-rag[eval]"'
        )


def _jsonable(value: Any) -> Any:
    return None if isinstance(value, float) and math.isnan(value) else value


@cli.command("eval")
@click.option(
    "--dataset", "kind", type=LazyChoice(_dataset_kinds), required=True, help="Benchmark format of --data."
)
@click.option(
    "--data",
    "data",
    multiple=True,
    required=True,
    type=click.Path(exists=True, path_type=Path),
    help="Benchmark folder (socbench-d: an instance, a folder of instances, or --data repeated).",
)
@click.option(
    "--queries",
    "queries_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="jsonl/realworld: a queries file kept apart from --data (realworld: the repository's task set).",
)
@click.option(
    "--strategies",
    default="endpoint",
    show_default=True,
    help="Chunking strategies, comma-separated, or `all`.",
)
@click.option("--embedders", default="default", show_default=True, help="Embedding models, comma-separated.")
@click.option("--modes", default="dense", show_default=True, help="Search modes: dense, bm25, hybrid.")
@click.option(
    "--k",
    "k_values",
    default="5,10,20",
    show_default=True,
    help="Cut-offs, comma-separated; `auto` lets the retriever choose the result size.",
)
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for results, report, plots and the resumable cache.",
)
@click.option("--compare-paper", is_flag=True, help="Put the paper's published numbers beside ours.")
@click.option("--no-plots", is_flag=True, help="Skip the PNG figures (no matplotlib needed).")
@click.option(
    "--retriever",
    "retriever_spec",
    default=None,
    metavar="MODULE:FACTORY",
    help="Evaluate your own retriever: a callable (services, config) -> Retriever.",
)
@click.option(
    "--store",
    default=None,
    metavar="DSN",
    help="Search the indexes from PostgreSQL + pgvector (scratch collections in DSN) instead of FAISS.",
)
@click.option("--agent", is_flag=True, help="Retrieve with the Discovery Agent (an LLM searching the index).")
@click.option(
    "--policy",
    type=click.Choice(["self-rag", "corag"]),
    default=None,
    help="Index search, then an LLM policy: the Self-RAG filter or CoRAG's iterative retrieval.",
)
@llm_option("LLM for --agent/--policy and for the texts of summary, query and craft (default: configured).")
@click.option(
    "--plain",
    is_flag=True,
    help="Plain baselines: whole query against each strategy's texts, cosine (dense) or BM25 (bm25).",
)
@click.option(
    "--half",
    type=click.Choice(["all", "tune", "report"]),
    default="all",
    show_default=True,
    help="Queries to run: all (rows for all, tuning and reporting halves), or one fixed half only.",
)
@click.option("--json", "json_", is_flag=True, help="Print the summary as JSON.")
@handle_errors
def eval_cmd(
    kind: str,
    data: tuple[Path, ...],
    queries_file: Path | None,
    strategies: str,
    embedders: str,
    modes: str,
    k_values: str,
    out_dir: Path,
    compare_paper: bool,
    no_plots: bool,
    retriever_spec: str | None,
    store: str | None,
    agent: bool,
    policy: str | None,
    llm_name: str | None,
    plain: bool,
    half: str,
    json_: bool,
) -> None:
    """Measure endpoint retrieval over a grid of strategies, embedders, modes and k.

    Results are cached per (dataset, strategy, embedder, mode) in OUT/cache: an interrupted run
    resumes, and a re-run with more k values, modes or strategies only computes what is new.

    \b
    Examples:
      openapi-rag eval --dataset restbench --data ../shared/data/restbench --out out/rb
      openapi-rag eval --dataset socbench-d --data socbench-d/ --strategies endpoint,thin \\
          --modes dense,bm25,hybrid --k 5,10,20,auto --out out/soc --compare-paper
      openapi-rag eval --dataset jsonl --data my-catalog/ --out out/mine
      openapi-rag eval --dataset realworld --data ../shared/data/realworld --modes hybrid --out out/rw
      openapi-rag eval --dataset jsonl --data my-catalog/ --agent --llm openai --out out/agent

    With --agent or --policy the modes are reported as `agent:hybrid`, `self-rag:dense`, ...
    (cached apart from plain retrieval) and the LLM's tokens per searched query are appended to
    OUT/llm_usage.csv. The LLM strategies (summary, query, craft) have their texts written by
    $OPENAPI_RAG_LLM or the local model; with --llm NAME by that model, reported as `summary@NAME`.

    Every query belongs to a fixed tuning or reporting half (by a hash of its id): the summary has
    a row for each beside the one over all queries. Choose settings on the tuning half (`--half
    tune` runs only it) and quote the reporting half. R@1 is the recall of the first result alone.
    With --plain the modes are plain baselines, reported as `plain:dense` and `plain:bm25`.
    """
    from openapi_rag.bench import grid, load_dataset, parse_ks, run_eval, write_report
    from openapi_rag.bench.retrievers import IndexRetrieverFactory, available_strategies, load_factory

    try:
        ks = parse_ks(_split(k_values))
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--k") from exc
    names = _split(strategies)
    if names == ["all"]:
        names = available_strategies()
    elif "all" in names:
        raise click.UsageError("--strategies: `all` cannot be combined with other names")
    mode_names = _split(modes)
    if retriever_spec is None:
        from openapi_rag.search import MODES

        unknown = [m for m in mode_names if m not in MODES]
        if unknown:
            raise click.BadParameter(
                f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}", param_hint="--modes"
            )
    if sum([agent, policy is not None, retriever_spec is not None, plain, store is not None]) > 1:
        raise click.UsageError("--agent, --policy, --plain, --retriever and --store cannot be combined")
    if plain:
        from openapi_rag.bench.baselines import PLAIN_MODES

        if not set(mode_names) <= set(PLAIN_MODES):
            raise click.BadParameter(f"plain baselines are {', '.join(PLAIN_MODES)}", param_hint="--modes")
    from openapi_rag.chunking.llm_strategies import is_llm_strategy

    if llm_name is not None:
        if not (agent or policy or any(map(is_llm_strategy, names))):
            raise click.UsageError(
                "--llm only applies with --agent, --policy or LLM strategies (summary, query, craft)"
            )
        # Labelled `summary@NAME`: built with that model and cached apart from other models' texts.
        names = [f"{n}@{llm_name}" if is_llm_strategy(n) else n for n in names]
    label = "agent" if agent else policy
    if label or plain:  # `plain:dense`, `agent:hybrid`: cached apart from the default pipeline's modes
        mode_names = [f"{label or 'plain'}:{m}" for m in mode_names]
    try:
        configs = grid(names, _split(embedders), mode_names)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    _check_extras(plots=not no_plots)
    factory: Any
    if agent:
        from openapi_rag.bench.agent_retrievers import AgentRetrieverFactory

        factory = AgentRetrieverFactory(llm_name)
    elif plain:
        from openapi_rag.bench.baselines import PlainRetrieverFactory

        factory = PlainRetrieverFactory()
    elif policy:
        from openapi_rag.bench.agent_retrievers import PolicyRetrieverFactory

        factory = PolicyRetrieverFactory(policy, llm_name)
    elif store:
        from openapi_rag.store.pg_eval import PgIndexRetrieverFactory

        factory = PgIndexRetrieverFactory(store)
    else:
        factory = load_factory(retriever_spec) if retriever_spec else IndexRetrieverFactory()

    from openapi_rag.bench.halves import select_half

    dataset = select_half(load_dataset(kind, list(data), queries_file), half)
    info = dataset.describe()
    err(
        f"{dataset.name}: {info['queries']} queries, {info['groups']} index(es), "
        f"{info['operations']} operations; "
        f"{len(configs)} configuration(s) × k {', '.join('auto' if k is None else str(k) for k in ks)}"
    )
    for failure in dataset.load_failures:
        err(f"warning: not loaded: {failure}")
    if dataset.unmatched():
        err(
            f"warning: {len(dataset.unmatched())} gold entries match no operation; they count as misses "
            f"(listed in {out_dir / 'gold_issues.csv'})"
        )
    try:
        try:
            result = run_eval(dataset, configs, factory, out_dir, ks, show_progress=progress_enabled())
        finally:
            if store:
                factory.close()  # the scratch collection of the last build
    except KeyboardInterrupt:
        err(
            f"interrupted; what was retrieved is cached in {out_dir / 'cache'}: "
            "run the same command to resume"
        )
        raise click.exceptions.Exit(130) from None
    files = write_report(result, out_dir, compare_paper=compare_paper, plots=not no_plots)
    if label:
        files["llm_usage"] = factory.write_usage(out_dir / "llm_usage.csv")
        total = factory.total_usage()
        err(
            f"LLM tokens for {len(factory.usage_records)} searched queries: {total.prompt_tokens} prompt, "
            f"{total.completion_tokens} completion ({files['llm_usage']})"
        )
    from openapi_rag.bench.aggregate import summary_rows

    summary = summary_rows(result.results, halves=True)
    if json_:
        print_json(
            {
                "dataset": info,
                "searched": result.searched,
                "reused": result.reused,
                "summary": [{k: _jsonable(v) for k, v in row.items()} for row in summary],
                "files": {name: str(path) for name, path in files.items()},
            }
        )
        return
    click.echo(
        f"{'strategy':<16} {'embedder':<14} {'mode':<11} {'k':>4} {'half':<6}  {'R@1':>6} {'R@k':>6} "
        f"{'MRR':>6} {'prec':>6} {'F1':>6} {'nDCG':>6} {'tokens':>7}  {'R@k 95% CI':>11}"
    )
    for row in summary:
        values = " ".join(f"{row[m]:>6.3f}" for m in ("r1", "recall", "mrr", "precision", "f1", "ndcg"))
        interval = f"{row['recall_ci_low']:.3f}-{row['recall_ci_high']:.3f}"
        click.echo(
            f"{row['strategy']:<16} {row['embedder']:<14} {row['mode']:<11} {row['k']:>4} {row['half']:<6}  "
            f"{values} {row['tokens']:>7.0f}  {interval:>11}"
        )
    err(f"searched {result.searched}, reused {result.reused} from the cache; report: {files['report']}")
