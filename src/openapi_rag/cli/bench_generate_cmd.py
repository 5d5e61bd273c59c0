"""`openapi-rag bench generate`: new SOCBench-D instances for any domains and catalog size."""

from __future__ import annotations

import click

from openapi_rag.cli.bench_cmd import bench
from openapi_rag.cli.common import err, handle_errors, llm_option, print_json


@bench.command("generate")
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, help="Folder of the new run.")
@click.option(
    "--resume",
    "resume",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="Continue the interrupted run in this folder (its settings are kept).",
)
@click.option("--domains", default=None, help="Comma-separated domains (default: the 11 GICS sectors).")
@click.option(
    "--domains-file", type=click.Path(dir_okay=False, exists=True), default=None, help="Domains, one a line."
)
@click.option(
    "--services", type=click.IntRange(1, 100), default=5, show_default=True, help="Services per domain."
)
@click.option(
    "--endpoints", type=click.IntRange(1, 200), default=10, show_default=True, help="Endpoints per service."
)
@click.option(
    "--queries", type=click.IntRange(1, 1000), default=10, show_default=True, help="Queries per domain."
)
@click.option(
    "--instances", type=click.IntRange(1, 100), default=1, show_default=True, help="Instances (seeds)."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first instance.")
@llm_option()
@click.option("--json", "json_", is_flag=True, help="Print the outcome as JSON.")
@handle_errors
def bench_generate(
    out: str | None,
    resume: str | None,
    domains: str | None,
    domains_file: str | None,
    services: int,
    endpoints: int,
    queries: int,
    instances: int,
    seed: int,
    llm_name: str | None,
    json_: bool,
) -> None:
    """Generate benchmark instances with the SOCBench-D algorithms, in the layout `eval` reads.

    \b
    Examples:
      openapi-rag bench generate --out gen/ --domains "energy,utilities" --llm openai:gpt-4o-mini
      openapi-rag bench generate --out gen/ --services 2 --endpoints 3 --queries 2   # local model
      openapi-rag bench generate --resume gen/          # after an interruption; nothing is asked twice
      openapi-rag eval --dataset socbench-d --data gen/ --out out/gen

    Writes OUT/socbenchd_K/NN-domain/{NN-Service/openapi.json, queries.json}, a log of every LLM
    call's tokens, retries, repairs and discards (OUT/generation-log.jsonl), and the replies
    (OUT/llm-replies.sqlite). Exits 1 when a domain could not be completed, naming what the model
    could not do.
    """
    from openapi_rag.bench.generate.run import (
        GenerationSettings,
        default_domains,
        generate_benchmark,
        saved_settings,
    )
    from openapi_rag.embed import get_embedder
    from openapi_rag.llm import configured_llm_name, get_llm

    if (out is None) == (resume is None):
        raise click.UsageError("give --out DIR for a new run or --resume DIR to continue one")
    settings = None
    if out is not None:
        settings = GenerationSettings(
            domains=default_domains(domains, domains_file),
            services=services,
            endpoints=endpoints,
            queries=queries,
            instances=instances,
            seed=seed,
            llm=llm_name or configured_llm_name(),
        )
    else:
        llm_name = saved_settings(resume or "").llm  # a resumed run asks the model it started with
    folder = out or resume or ""
    with get_llm(llm_name) as llm:
        outcomes, summary = generate_benchmark(
            folder, llm, get_embedder(), settings, resume=resume is not None, on_step=err
        )
    report = {"out": folder, "domains": [o.__dict__ for o in outcomes], **summary}
    if json_:
        print_json(report)
    else:
        for o in outcomes:
            line = f"instance {o.instance} {o.domain}: {o.status}, {o.services} services, {o.queries} queries"
            click.echo(line + (f" ({o.failure})" if o.failure else ""))
        click.echo(
            f"{summary['llm_calls']} LLM calls ({summary['cached_calls']} from the cache), "
            f"{summary['prompt_tokens']} prompt + {summary['completion_tokens']} completion tokens; "
            f"events: {summary['events'] or 'none'}"
        )
    if any(o.status != "done" for o in outcomes):
        raise SystemExit(1)
