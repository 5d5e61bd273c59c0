"""`openapi-rag bench serve`: the HTTP API under load (wrk on loopback), with a rebuild mid-run."""

from __future__ import annotations

from pathlib import Path

import click

from openapi_rag.cli.bench_cmd import bench
from openapi_rag.cli.common import err, handle_errors, index_option, print_json
from openapi_rag.cli.serve_cmd import SERVER_EXTRA_HINT, require


@bench.command("serve")
@index_option()
@click.option("--workers", type=click.IntRange(1, 16), default=2, show_default=True)
@click.option("--connections", type=click.IntRange(1, 256), default=32, show_default=True)
@click.option(
    "--duration", type=click.IntRange(1, 600), default=60, show_default=True, help="Seconds of load."
)
@click.option(
    "--rebuild-at",
    type=float,
    default=20.0,
    show_default=True,
    help="Rewrite the index this many seconds into the load (negative: no rebuild).",
)
@click.option(
    "-m", "--mode", type=click.Choice(["hybrid", "dense", "bm25"]), default="hybrid", show_default=True
)
@click.option(
    "--queries", type=click.Path(exists=True, dir_okay=False), default=None, help="One query per line."
)
@click.option("--overhead-queries", type=click.IntRange(0, 1000), default=100, show_default=True)
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def bench_serve(
    index_dir: str,
    workers: int,
    connections: int,
    duration: int,
    rebuild_at: float,
    mode: str,
    queries: str | None,
    overhead_queries: int,
    json_: bool,
) -> None:
    """Start `serve` on 127.0.0.1, load it with wrk, rebuild the index during the run; print the figures.

    The index directory is rewritten in place by the rebuild (same content): use a copy if others read it.

    \b
    Example:
      openapi-rag bench serve --index rw-index/ --workers 2 --connections 32 --duration 60
    """
    require(("fastapi", "uvicorn", "prometheus_client", "mcp"), SERVER_EXTRA_HINT + " and [mcp]")
    from openapi_rag.serve.load import LoadPlan, load_queries, run_load

    plan = LoadPlan(
        index_dir=Path(index_dir),
        workers=workers,
        connections=connections,
        duration=duration,
        rebuild_at=rebuild_at if rebuild_at >= 0 else None,
        mode=mode,
        overhead_queries=overhead_queries,
    )
    report = run_load(plan, load_queries(queries), log=err)
    if json_:
        print_json(report)
        return
    over = report.get("overhead")
    click.echo(
        f"{report['requests']} {mode} searches in {report['seconds']} s over {report['operations']} operations: "
        f"{report['throughput_rps']}/s, p50 {report['p50_ms']} ms, p95 {report['p95_ms']} ms, "
        f"p99 {report['p99_ms']} ms; errors {report['errors']}, malformed {report['malformed']} of {report['checked']}"
    )
    click.echo(
        f"server CPU {report['server_cpu_ms_per_request']} ms per request (the rebuild's reload included)"
    )
    for label in ("memory_before", "memory_after_reload"):
        if label in report:
            workers_mem = ", ".join(
                f"RSS {w.get('rss_mb')} MB / PSS {w.get('pss_mb')} MB" for w in report[label]["workers"]
            )
            click.echo(f"{label.replace('_', ' ')}: workers {workers_mem}")
    if report["rebuild"]:
        click.echo(f"rebuild: {report['rebuild']}")
    _echo_tail(report)
    if over:
        _echo_layers(over)


def _echo_layers(over: dict) -> None:
    """The layers' cost per query over `Index.search`: server-side, then as clients see it."""

    def pair(figures: dict) -> str:
        return f"{figures['median']:+} ms (p95 {figures['p95']:+})"

    server, clients = over["http_server"], over["http_client"]
    click.echo(
        f"layers over Index.search, {over['queries']} queries one at a time (median, p95): "
        f"server-side (Server-Timing app - search) HTTP {pair(server['layer_ms'])}, "
        f"CPU {pair(server['layer_cpu_ms'])}; MCP tool call {pair(over['mcp_server']['layer_ms'])}, "
        f"CPU {pair(over['mcp_server']['layer_cpu_ms'])}"
    )
    click.echo(
        f"client-side, like for like (Index.search here with the workers' threads: {over['direct_threads']}; "
        f"{over['index_search_ms']} ms): GET over loopback with http.client {pair(clients['http.client'])}, "
        f"httpx {pair(clients['httpx'])}; MCP in-memory session {pair(over['mcp_session'])}, "
        f"over streamable HTTP {pair(over['mcp_streamable_http'])}"
    )
    click.echo(
        f"http.client's extra, per request: outside the app (loopback, uvicorn, waking the worker, the client) "
        f"{pair(clients['outside_app'])}; the worker's search over this one {pair(clients['search_minus_direct'])}"
    )


def _echo_tail(report: dict) -> None:
    """Where the tail comes from: the workers' shares and the latency over time."""
    spread, tail = report["workers_load"], report["tail"]
    connections = " / ".join(
        f"{name.removeprefix('connections_').replace('_', ' ')} {counts}"
        for name, counts in spread.items()
        if name.startswith("connections_")
    )
    batches = report["embedder_batches"]
    click.echo(
        f"workers: connections {connections}; CPU seconds {spread['cpu_s']}; embedder "
        f"{batches['runs']} runs, {batches['mean_texts']} texts per run"
    )
    for name in ("outside_rebuild", "inside_rebuild"):
        if name in tail:
            part = tail[name]
            click.echo(
                f"{name.replace('_', ' ')} {tail['rebuild_window_s']} s: {part['requests']} requests, "
                f"p50 {part['p50_ms']} ms, p95 {part['p95_ms']} ms, max {part['max_ms']} ms"
            )
    steps = ", ".join(f"{step['from_s']}s {step['p95_ms']}" for step in tail["timeline"])
    click.echo(f"p95 ms by {len(tail['timeline'])} windows of the run: {steps}")


@bench.command("startup")
@index_option()
@click.option("--runs", type=click.IntRange(1, 50), default=7, show_default=True, help="Fresh processes each.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def bench_startup(index_dir: str, runs: int, json_: bool) -> None:
    """Start-up: `openapi-rag --help`, and an MCP server's spawn to its first search answer (stdio).

    \b
    Example:
      openapi-rag bench startup --index rw-index/ --runs 7
    """
    require(("mcp",), "the MCP client comes with the `mcp` extra")
    from openapi_rag.serve.startup import time_help, time_mcp_first_answer

    err(f"openapi-rag --help, {runs} runs ...")
    report = {"help": time_help(runs)}
    err(f"openapi-rag mcp --index {index_dir}: spawn to first search_endpoints answer, {runs} runs ...")
    report["mcp_first_answer"] = time_mcp_first_answer(Path(index_dir), runs)
    if json_:
        print_json(report)
        return
    help_, mcp = report["help"], report["mcp_first_answer"]
    click.echo(
        f"openapi-rag --help: median {help_['median_s']} s (min {help_['min_s']}, max {help_['max_s']}, "
        f"{runs} runs); CPU {help_['cpu_median_s']} s"
    )
    click.echo(
        f"MCP over stdio, spawn to first search_endpoints answer: median {mcp['median_s']} s "
        f"(min {mcp['min_s']}, max {mcp['max_s']}; handshake done at {mcp['handshake_median_s']} s)"
    )


@bench.command("show")
@index_option()
@click.option("--max-tokens", type=click.IntRange(min=100), default=3000, show_default=True)
@click.option("--depth", type=click.IntRange(0, 8), default=3, show_default=True)
@click.option(
    "--top", type=click.IntRange(1, 100), default=5, show_default=True, help="Largest operations listed."
)
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def bench_show(index_dir: str, max_tokens: int, depth: int, top: int, json_: bool) -> None:
    """Size of every operation's view: in full to --depth (the old `show`) and sized (the new default)."""
    import json
    import time

    from openapi_rag.index import Index
    from openapi_rag.refs.inline import resolved_operation
    from openapi_rag.refs.view import operation_view
    from openapi_rag.serve.load_trace import percentile
    from openapi_rag.tokens import get_tokenizer

    get_tokenizer("cl100k_base").count("warm up")  # loaded once, not timed into the first view
    index = Index.open(index_dir)
    rows = []
    for service_id in index.manifest_service_ids():
        service = index.service(service_id, cache=False)
        for op in service.operations:
            full = json.dumps(resolved_operation(op, service, max_depth=depth), ensure_ascii=False)
            start = time.perf_counter()
            view = operation_view(op, service, depth=depth, max_tokens=max_tokens)
            ms = (time.perf_counter() - start) * 1000
            rows.append(
                {
                    "id": f"{service_id} {op.id}",
                    "full_chars": len(full),
                    "tokens": view["view"]["tokens"],
                    "ms": ms,
                }
            )
    if not rows:
        raise click.ClickException(f"{index_dir} holds no operations")
    tokens = sorted(r["tokens"] for r in rows)
    times = sorted(r["ms"] for r in rows)
    report = {
        "operations": len(rows),
        "max_tokens": max_tokens,
        "sized_tokens": {"median": percentile(tokens, 50), "max": tokens[-1]},
        "over_budget": sum(t > max_tokens for t in tokens),
        "view_ms": {
            "median": round(percentile(times, 50), 1),
            "p99": round(percentile(times, 99), 1),
        },
        "largest_full": sorted(rows, key=lambda r: -r["full_chars"])[:top],
    }
    if json_:
        print_json(report)
        return
    click.echo(
        f"{report['operations']} operations: sized view median {report['sized_tokens']['median']} tokens, "
        f"max {report['sized_tokens']['max']} (budget {max_tokens}, {report['over_budget']} over); "
        f"{report['view_ms']['median']} ms median, p99 {report['view_ms']['p99']} ms"
    )
    for row in report["largest_full"]:
        click.echo(
            f"  {row['full_chars']:>9,} characters in full → {row['tokens']:>5} tokens sized  {row['id']}"
        )
