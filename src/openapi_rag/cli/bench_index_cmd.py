"""`openapi-rag bench index|search|scale`: indexing time, search latency and scale figures."""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from openapi_rag.cli.bench_cmd import bench, peak_rss_mb
from openapi_rag.cli.common import handle_errors, print_json


def _percentiles(samples_ms: list[float]) -> dict[str, float]:
    import numpy as np  # here, not at the top: `openapi-rag --help` must not load numpy

    arr = np.asarray(samples_ms)
    return {
        "p50_ms": round(float(np.percentile(arr, 50)), 2),
        "p95_ms": round(float(np.percentile(arr, 95)), 2),
        "max_ms": round(float(arr.max()), 2),
        "queries": len(samples_ms),
    }


def benchmark_queries() -> list[str]:
    """Realistic queries: the RestBench and SOCBench-D tasks when ../shared is there, else built-ins."""
    here = Path(__file__).resolve()
    for base in [Path.cwd(), *here.parents]:
        data = base / ".." / "shared" / "data"
        if (data / "restbench" / "datasets").is_dir():
            queries = [
                q["query"]
                for f in sorted((data / "restbench" / "datasets").glob("*.json"))
                for q in json.loads(f.read_text("utf-8"))
            ]
            for f in sorted((data / "socbench-d").glob("*/*/queries.json")):
                queries += [q["query"] for q in json.loads(f.read_text("utf-8"))["queries"]]
            return queries
    from openapi_rag.cli.demo_cmd import DEMO_QUERIES

    return list(DEMO_QUERIES) * 20


def read_queries(lines: Any) -> list[str]:
    """The `query` of each JSON line (blank lines skipped); a line without one is an error naming it."""
    queries = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            query = json.loads(line).get("query")
        except (ValueError, AttributeError):
            query = None
        if not isinstance(query, str) or not query.strip():
            raise click.ClickException(f'--queries line {number}: expected {{"query": "..."}}')
        queries.append(query)
    return queries


@bench.command("index")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-s", "--strategy", default="compact", show_default=True)
@click.option("-i", "--index", "index_dir", default=None, help="Index directory (default: a temporary one).")
@click.option("--warm-cache", is_flag=True, help="Keep the user's embedding cache (default: start cold).")
@click.option("--json", "json_", is_flag=True)
@handle_errors
def bench_index(
    paths: tuple[str, ...], strategy: str, index_dir: str | None, warm_cache: bool, json_: bool
) -> None:
    """Build an index of PATHS from scratch, then again with nothing changed; report time and memory."""
    from openapi_rag.index import build_index

    with tempfile.TemporaryDirectory(prefix="openapi-rag-bench-") as tmp:
        if not warm_cache:
            os.environ["OPENAPI_RAG_HOME"] = str(Path(tmp) / "home")  # a cold embedding cache
        target = Path(index_dir) if index_dir else Path(tmp) / "index"
        first = build_index(paths, target, strategy=strategy, rebuild=True)
        rss_first = peak_rss_mb()
        second = build_index(paths, target, strategy=strategy)
        size = sum(f.stat().st_size for f in target.rglob("*") if f.is_file())
        report = {
            "strategy": strategy,
            "services": len(first.added),
            "failed": len(first.failed),
            "operations": first.operations,
            "chunks": first.chunks,
            "build_seconds": first.seconds,
            "peak_rss_mb": round(rss_first, 1),
            "unchanged_rebuild_seconds": second.seconds,
            "index_mb": round(size / 1e6, 1),
        }
    if json_:
        print_json(report)
    else:
        click.echo(
            f"{report['services']} services ({report['failed']} failed), {report['operations']} operations, "
            f"{report['chunks']} chunks [{strategy}]: built in {report['build_seconds']} s, peak memory "
            f"{report['peak_rss_mb']} MB, index {report['index_mb']} MB; unchanged re-run "
            f"{report['unchanged_rebuild_seconds']} s"
        )


@bench.command("search")
@click.option("-i", "--index", "index_dir", required=True, type=click.Path(exists=True))
@click.option("-m", "--mode", default="hybrid", show_default=True)
@click.option("-k", "k", default=10, show_default=True)
@click.option("--limit", default=500, show_default=True, help="Most queries to time.")
@click.option(
    "--slowest",
    default=0,
    show_default=True,
    help="Also time each search's stages, and list this many slowest queries with theirs.",
)
@click.option(
    "--queries",
    "queries_file",
    type=click.File("r"),
    default=None,
    help='JSONL file of {"query": ...} lines to time (default: the RestBench and SOCBench-D tasks).',
)
@click.option(
    "--warm",
    is_flag=True,
    help="First load what `serve` and `mcp` load before their first request (every chunk's head, "
    "the catalog's tables, both embedders): a long-running process's latency, not a fresh one's.",
)
@click.option("--json", "json_", is_flag=True)
@handle_errors
def bench_search(
    index_dir: str, mode: str, k: int, limit: int, slowest: int, queries_file: Any, warm: bool, json_: bool
) -> None:
    """Time single queries against an index (model loaded, one query at a time).

    \b
    With --slowest N, each search's stages are timed too (`openapi_rag.search.timing`): the
    report adds the mean milliseconds per stage over all queries and over the slowest 5%, and
    the N slowest queries with their stages.

    \b
    Example (the realworld tasks, requests as users say them):
      openapi-rag bench search -i idx/ --queries benchmarks/realworld/tasks.jsonl [--warm]
    """
    from openapi_rag.index import Index
    from openapi_rag.search.timing import StageTimes

    index = Index.open(index_dir)
    queries = (read_queries(queries_file) if queries_file is not None else benchmark_queries())[:limit]
    if not queries:
        raise click.ClickException("no queries to time")
    if warm:  # as a server is when it takes its first request (`serve/service.py`)
        from openapi_rag.serve.service import warm as warm_index
        from openapi_rag.serve.service import warm_embedder

        warm_index(index)
        warm_embedder(index)
    index.search(queries[0], k=k, mode=mode)  # load the model and warm caches outside the timing
    timer = index.searcher.timer = StageTimes() if slowest > 0 else None
    samples, stages = [], []
    cpu_start = time.process_time()
    for query in queries:
        start = time.perf_counter()
        index.search(query, k=k, mode=mode)
        samples.append((time.perf_counter() - start) * 1000)
        if timer is not None:
            stages.append(timer.take())
    # CPU time (all of the process's threads) is the steadier figure on a shared machine: other
    # work stretches the wall time of a query far more than the CPU it takes.
    cpu_ms = (time.process_time() - cpu_start) * 1000 / len(queries)
    index.searcher.timer = None
    report = {
        "mode": mode,
        "k": k,
        "chunks": len(index),
        **_percentiles(samples),
        "cpu_ms_per_query": round(cpu_ms, 2),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "warm": warm,
    }
    if timer is not None:
        report.update(_stage_report(queries, samples, stages, slowest))
    if json_:
        print_json(report)
        return
    click.echo(
        f"{report['queries']} queries, {mode}, k={k} over {report['chunks']} chunks: p50 {report['p50_ms']} ms, "
        f"p95 {report['p95_ms']} ms, max {report['max_ms']} ms; {report['cpu_ms_per_query']} ms CPU per "
        f"query; peak memory {report['peak_rss_mb']} MB" + (" (warmed as a server)" if warm else "")
    )
    if timer is not None:
        for name in ("stages_ms", "tail_stages_ms"):
            click.echo(f"{name}: " + ", ".join(f"{stage} {ms}" for stage, ms in report[name].items()))
        for row in report["slowest"]:
            parts = ", ".join(f"{stage} {ms}" for stage, ms in row["stages_ms"].items())
            click.echo(f"{row['ms']:8.1f} ms  [{parts}]  {row['query'][:100]}")


def _stage_report(
    queries: list[str], samples: list[float], stages: list[dict[str, float]], slowest: int
) -> dict[str, Any]:
    """Mean ms per stage over all queries and over the slowest 5% (`tail`), and the `slowest`
    queries with their stages; `other` is what no stage covers (the rest of the pipeline)."""
    for total, times in zip(samples, stages, strict=True):
        times["other"] = max(0.0, total - sum(times.values()))

    def mean(rows: list[dict[str, float]]) -> dict[str, float]:
        names = sorted({name for row in rows for name in row}, key=lambda n: -sum(r.get(n, 0) for r in rows))
        return {name: round(sum(r.get(name, 0.0) for r in rows) / len(rows), 2) for name in names}

    order = sorted(range(len(samples)), key=lambda i: -samples[i])
    tail = order[: max(1, len(order) // 20)]
    return {
        "stages_ms": mean(stages),
        "tail_stages_ms": mean([stages[i] for i in tail]),
        "slowest": [
            {
                "query": queries[i],
                "ms": round(samples[i], 2),
                "stages_ms": {
                    name: round(ms, 2) for name, ms in sorted(stages[i].items(), key=lambda x: -x[1])
                },
            }
            for i in order[:slowest]
        ],
    }


@bench.command("scale")
@click.option(
    "-i",
    "--index",
    "index_dir",
    required=True,
    type=click.Path(exists=True),
    help="A real index whose chunks and vectors are duplicated.",
)
@click.option("--operations", "target_ops", default=200_000, show_default=True)
@click.option(
    "--out", "out_dir", default=None, help="Where to write the synthetic index (default: temporary)."
)
@click.option("--json", "json_", is_flag=True)
@handle_errors
def bench_scale(index_dir: str, target_ops: int, out_dir: str | None, json_: bool) -> None:
    """Grow a real index to TARGET operations (copies under new service names, vectors reused), as HNSW.

    What is measured is the store and search, not the embedder: build time, size on disk, peak memory
    and hybrid query latency.
    """
    import numpy as np

    from openapi_rag.index import Index
    from openapi_rag.search.bm25 import BM25Index
    from openapi_rag.store import FaissStore

    base = Index.open(index_dir)
    ids = base.store.ids()
    chunks = base.store.get(ids)
    vectors = np.asarray(base.store.get_vectors(ids), dtype=np.float32)
    ops_per_copy = sum(s.operations for s in base.manifest.sources.values())
    copies = max(1, -(-target_ops // max(1, ops_per_copy)))
    start = time.perf_counter()
    store = FaissStore(vectors.shape[1], index_type="hnsw")
    all_chunks: list[Any] = []
    for copy in range(copies):
        batch = []
        for chunk in chunks:
            clone = type(chunk).from_dict(chunk.to_dict())
            clone.service = f"{chunk.service}~{copy}"
            clone.id = f"{chunk.id}~{copy}"
            batch.append(clone)
        store.add([c.id for c in batch], vectors, batch)
        all_chunks.extend(batch)
    bm25 = BM25Index.from_chunks(all_chunks)
    del all_chunks
    manifest = base.manifest
    manifest.sources = {}
    synthetic = Index(manifest=manifest, store=store, bm25=bm25, embedder=base.embedder, services={})
    with tempfile.TemporaryDirectory(prefix="openapi-rag-scale-") as tmp:
        target = Path(out_dir) if out_dir else Path(tmp) / "index"
        synthetic.save(target)
        build_seconds = time.perf_counter() - start
        size = sum(f.stat().st_size for f in target.rglob("*") if f.is_file())
        opened = Index.open(target)
        queries = benchmark_queries()[:300]
        opened.search(queries[0], k=10)
        samples = []
        for query in queries:
            t0 = time.perf_counter()
            opened.search(query, k=10)
            samples.append((time.perf_counter() - t0) * 1000)
    report = {
        "operations": ops_per_copy * copies,
        "chunks": len(ids) * copies,
        "index_type": "hnsw",
        "build_seconds": round(build_seconds, 1),
        "index_mb": round(size / 1e6, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "hybrid": _percentiles(samples),
    }
    if json_:
        print_json(report)
    else:
        h = report["hybrid"]
        click.echo(
            f"{report['operations']} operations, {report['chunks']} chunks (HNSW): built and saved in "
            f"{report['build_seconds']} s, {report['index_mb']} MB on disk, peak memory {report['peak_rss_mb']} MB; "
            f"hybrid search p50 {h['p50_ms']} ms, p95 {h['p95_ms']} ms"
        )
