"""Scale check of the FAISS vector store: build, save, load and query a large store of random vectors.

Builds a store of `--count` random unit vectors (default 200,000 x 384, HNSW), saves it, then loads
it in a fresh process and times single queries (one at a time, as a CLI or server would), unfiltered
and with filters of three selectivities. Recall@k is measured against exact search for random
queries (the hardest case: uniform random vectors have no neighbourhood structure) and for
near-duplicate queries (a stored vector plus noise, closer to how real queries relate to documents).

Usage:
    python scripts/bench_store.py                       # HNSW, 200k x 384
    python scripts/bench_store.py --index-type flat     # exact search, for comparison
    python scripts/bench_store.py --count 20000 --json  # quick run, JSON on stdout

Figures go to stdout (a table, or JSON with --json); progress to stderr.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.model import Chunk
from openapi_rag.store import ChunkFilter, FaissStore

SERVICES = 500  # ~400 chunks per service at 200k: a selective filter
TAGS = 20  # ~5% of the chunks per tag: a mid-size filter


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def current_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Vectors:
    """Random unit vectors: uniform on the sphere ("random"), or "lowrank": a 32-dimensional
    Gaussian projected to `dim` plus noise, whose neighbourhoods look like those of sentence
    embeddings (nearest-neighbour cosine ~0.67, intrinsic dimension ~32)."""

    def __init__(self, kind: str, dim: int, seed: int):
        self.kind, self.dim = kind, dim
        self.rng = np.random.default_rng(seed)
        self.projection = np.random.default_rng(12345).standard_normal((32, dim), dtype=np.float32)

    def rows(self, n: int) -> np.ndarray:
        rows = self.rng.standard_normal((n, self.dim), dtype=np.float32)
        if self.kind == "lowrank":
            rows = self.rng.standard_normal((n, 32), dtype=np.float32) @ self.projection + 0.5 * rows
        rows /= np.linalg.norm(rows, axis=1, keepdims=True)
        return rows


def make_chunks(start: int, stop: int) -> list[Chunk]:
    return [
        Chunk(
            id=f"c{i:07d}",
            kind="endpoint",
            service=f"svc{i % SERVICES:03d}",
            operations=[f"GET /resource{i}"],
            embed_text=f"operation {i}",
            content=f"GET /resource{i}",
            metadata={"tags": [f"tag{i % TAGS:02d}", "odd" if i % 2 else "even"]},
        )
        for i in range(start, stop)
    ]


def build(args: argparse.Namespace) -> dict[str, Any]:
    data = Vectors(args.data, args.dim, args.seed)
    store = FaissStore(
        args.dim,
        index_type=args.index_type,
        hnsw_m=args.hnsw_m,
        ef_construction=args.ef_construction,
        ef_search=args.ef_search,
    )
    started = time.perf_counter()
    for start in range(0, args.count, args.batch):
        stop = min(args.count, start + args.batch)
        chunks = make_chunks(start, stop)
        store.add([c.id for c in chunks], data.rows(stop - start), chunks)
        store.search(np.ones(args.dim, dtype=np.float32), k=1)  # build the FAISS index as we go
        log(f"  added {stop:,}/{args.count:,} ({time.perf_counter() - started:.0f} s)")
    build_s = time.perf_counter() - started
    started = time.perf_counter()
    store.save(args.dir)
    save_s = time.perf_counter() - started
    files = {p.name: p.stat().st_size for p in sorted(Path(args.dir).iterdir())}
    return {
        "build_s": round(build_s, 1),
        "save_s": round(save_s, 1),
        "disk_mb": round(sum(files.values()) / 2**20, 1),
        "files_mb": {name: round(size / 2**20, 1) for name, size in files.items()},
        "build_peak_rss_mb": round(peak_rss_mb()),
    }


def exact_top(vectors: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    """Row numbers of the exact top-k per query, best first."""
    best_scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
    best_rows = np.zeros((len(queries), k), dtype=np.int64)
    for start in range(0, len(vectors), 50_000):  # blocks keep the score matrix small
        block = np.asarray(vectors[start : start + 50_000])
        scores = queries @ block.T
        rows = np.broadcast_to(np.arange(start, start + len(block)), scores.shape)
        all_scores = np.concatenate([best_scores, scores], axis=1)
        all_rows = np.concatenate([best_rows, rows], axis=1)
        top = np.argpartition(-all_scores, k - 1, axis=1)[:, :k]
        best_scores = np.take_along_axis(all_scores, top, axis=1)
        best_rows = np.take_along_axis(all_rows, top, axis=1)
    order = np.argsort(-best_scores, axis=1)
    return np.take_along_axis(best_rows, order, axis=1)


def latencies_ms(store: FaissStore, queries: np.ndarray, k: int, flt: ChunkFilter | None) -> dict[str, float]:
    times = []
    for query in queries:
        started = time.perf_counter()
        store.search(query, k, filter=flt)
        times.append((time.perf_counter() - started) * 1000)
    p50, p95, p99 = np.percentile(times, [50, 95, 99])
    return {"p50_ms": round(float(p50), 3), "p95_ms": round(float(p95), 3), "p99_ms": round(float(p99), 3)}


def query(args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    store = FaissStore.load(args.dir, mmap=True)
    load_s = time.perf_counter() - started
    data = Vectors(args.data, args.dim, args.seed + 1)
    queries = data.rows(args.queries)
    rng = data.rng
    store.search(queries[:10], args.k)  # warm-up (builds a flat index, touches pages)
    figures: dict[str, Any] = {"load_s": round(load_s, 2)}
    filters = {
        "none": None,
        "service (0.2%)": ChunkFilter.of(services="svc007"),
        "tag (5%)": ChunkFilter.of(tags="tag03"),
        "half (50%)": ChunkFilter.of(tags="odd"),
    }
    store.select(ChunkFilter.of(services="svc007"))  # build filter postings outside the timings
    for name, flt in filters.items():
        hits = store.search(queries[0], args.k, filter=flt)[0]
        if len(hits) != args.k:
            raise SystemExit(f"filter {name} returned {len(hits)} hits, expected {args.k}")
        figures[f"latency filter={name}"] = latencies_ms(store, queries, args.k, flt)
        log(f"  timed queries, filter={name}")

    figures["rss_after_load_and_queries_mb"] = round(current_rss_mb())
    figures["peak_rss_load_and_queries_mb"] = round(peak_rss_mb())

    # Recall against exact search, for fresh queries (drawn like the data, not stored) and for
    # near-duplicate ones (a stored vector plus noise: is the one truly close vector found?).
    # With --data random, fresh queries are HNSW's worst case: every stored vector is about as far
    # from them as every other, so "the" top 10 are nearly arbitrary.
    vectors = np.load(Path(args.dir) / "vectors.npy", mmap_mode="r")
    row = {chunk_id: i for i, chunk_id in enumerate(store.ids())}
    recall_queries = queries[: args.recall_queries]
    picks = np.sort(rng.choice(len(vectors), size=len(recall_queries), replace=False))
    near = np.asarray(vectors[picks]) + 0.03 * rng.standard_normal(recall_queries.shape, dtype=np.float32)
    near /= np.linalg.norm(near, axis=1, keepdims=True)
    for name, qs in (("fresh", recall_queries), ("near-duplicate", near)):
        truth = exact_top(vectors, qs, args.k)
        found = [[row[cid] for cid, _ in ranked] for ranked in store.search(qs, args.k)]
        recall_k = np.mean(
            [len(set(f) & set(t)) / args.k for f, t in zip(found, truth.tolist(), strict=True)]
        )
        recall_1 = np.mean([f[:1] == t[:1] for f, t in zip(found, truth.tolist(), strict=True)])
        figures[f"recall@1 {name} queries"] = round(float(recall_1), 4)
        figures[f"recall@{args.k} {name} queries"] = round(float(recall_k), 4)
    figures["peak_rss_with_recall_check_mb"] = round(peak_rss_mb())
    return figures


def option_args(args: argparse.Namespace) -> list[str]:
    """The options a phase subprocess needs, as command-line arguments."""
    names = [
        "count",
        "dim",
        "data",
        "index_type",
        "hnsw_m",
        "ef_construction",
        "ef_search",
        "batch",
        "queries",
    ]
    names += ["recall_queries", "k", "seed"]
    argv = []
    for name in names:
        flag = "-k" if name == "k" else "--" + name.replace("_", "-")
        argv += [flag, str(getattr(args, name))]
    return argv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--index-type", choices=["hnsw", "flat"], default="hnsw")
    parser.add_argument("--data", choices=["random", "lowrank"], default="random", help="see Vectors")
    parser.add_argument("--hnsw-m", type=int, default=32)
    parser.add_argument("--ef-construction", type=int, default=100)
    parser.add_argument("--ef-search", type=int, default=128)
    parser.add_argument("--batch", type=int, default=20_000, help="vectors per add() call")
    parser.add_argument("--queries", type=int, default=1000, help="single queries timed per filter")
    parser.add_argument("--recall-queries", type=int, default=200)
    parser.add_argument("-k", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dir", help="where to save the store (default: a temporary directory, removed)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--phase", choices=["all", "build", "query"], default="all", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.phase == "build":
        print(json.dumps(build(args)))
        return
    if args.phase == "query":
        print(json.dumps(query(args)))
        return

    temporary = args.dir is None
    args.dir = args.dir or tempfile.mkdtemp(prefix="bench-store-")
    store_dir = str(Path(args.dir) / "store")
    try:
        results: dict[str, Any] = {
            "count": args.count,
            "dim": args.dim,
            "index_type": args.index_type,
            "data": args.data,
            "options": {
                "hnsw_m": args.hnsw_m,
                "ef_construction": args.ef_construction,
                "ef_search": args.ef_search,
            },
        }
        # Each phase in its own process, so the query phase's peak RSS is that of a fresh load.
        for phase in ("build", "query"):
            log(f"{phase} ...")
            cmd = [sys.executable, __file__, "--phase", phase, "--dir", store_dir, *option_args(args)]
            out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE, text=True).stdout
            results.update(json.loads(out))
    finally:
        if temporary:
            shutil.rmtree(args.dir, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key:32} {value}")


if __name__ == "__main__":
    main()
