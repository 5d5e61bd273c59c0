"""`openapi-rag bench chunk`: time a chunking strategy over a corpus."""

from __future__ import annotations

import time

import click

from openapi_rag.cli.bench_cmd import bench, peak_rss_mb
from openapi_rag.cli.chunk_cmd import build_strategy, chunking_options
from openapi_rag.cli.common import err, handle_errors, parse_clean, print_json


@bench.command("chunk")
@chunking_options(default_strategy="ref-linked")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def bench_chunk(
    paths: tuple[str, ...],
    strategy_name: str,
    size: int | None,
    overlap: int | None,
    depth: int | None,
    tokenizer: str | None,
    clean: str | None,
    json_: bool,
) -> None:
    """Load PATHS, then time chunking them (single process); report sizes and peak memory.

    \b
    Example:
      openapi-rag bench chunk ../shared/data/realworld --strategy ref-linked
    """
    from openapi_rag.chunking import chunk_summary
    from openapi_rag.spec import load_services

    strategy = build_strategy(strategy_name, size, overlap, tokenizer, depth)
    strategy.tokenizer.count("warm up")  # load the tokenizer outside the timed part
    start = time.perf_counter()
    result = load_services(paths, clean=parse_clean(clean))
    load_seconds = time.perf_counter() - start
    n, failed = len(result.services), len(result.failed)
    err(f"loaded {n} services ({failed} failed) in {load_seconds:.1f} s; chunking…")
    start, cpu = time.perf_counter(), time.process_time()
    chunks = strategy.chunk(result.services)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    summary = chunk_summary(chunks, result.services, limit=strategy.limit)
    report = {
        "strategy": strategy.name,
        "params": strategy.params,
        "services": summary["services"],
        "failed": len(result.failed),
        "operations": summary["operations"],
        "chunks": summary["chunks"],
        "kinds": summary["kinds"],
        "load_seconds": round(load_seconds, 2),
        "chunk_seconds": round(seconds, 2),
        "chunk_cpu_seconds": round(cpu_seconds, 2),
        "operations_per_second": round(summary["operations"] / seconds, 1) if seconds else None,
        "tokens_mean": summary["tokens_mean"],
        "tokens_max": summary["tokens_max"],
        "limit": summary["limit"],
        "over_limit": summary["over_limit"],
        "uncovered_operations": summary["uncovered_operations"],
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }
    if json_:
        print_json(report)
        return
    r = report
    click.echo(
        f"chunked {r['operations']} operations of {r['services']} services ({r['failed']} failed) "
        f"with {r['strategy']} in {r['chunk_seconds']} s ({r['chunk_cpu_seconds']} s CPU; "
        f"loading took {r['load_seconds']} s)\n"
        f"{r['chunks']} chunks; tokens per chunk mean {r['tokens_mean']}, max {r['tokens_max']}; "
        f"{r['over_limit']} over the model's {r['limit']}; "
        f"{r['uncovered_operations']} operations in no chunk; peak memory {r['peak_rss_mb']} MB"
    )
