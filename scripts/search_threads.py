"""ONNX Runtime's intra-op threads for the default embedder, 1 against 2, in one process.

Per round and thread count, alternating: wall p50 / p95 and CPU per query of `Index.search` over
the RestBench + SOCBench-D tasks of `openapi-rag bench search`, and the median wall time of one
model run of its fifth-longest task (~111 tokens). The load average is printed with each line:
a second thread can only help where a second core is free.

    python scripts/search_threads.py --index IDX [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True, help="An index built with `openapi-rag index`.")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import numpy as np

    from openapi_rag.cli.bench_index_cmd import benchmark_queries
    from openapi_rag.embed.minilm import MiniLMEmbedder
    from openapi_rag.index import Index

    index = Index.open(args.index)
    tasks = benchmark_queries()
    long_task = sorted(tasks, key=len)[-5]
    embedders = {threads: MiniLMEmbedder(threads=threads) for threads in (1, 2)}
    for embedder in embedders.values():
        index._embedder = embedder
        index.search(tasks[0], k=10)  # loads the model
    for _ in range(args.rounds):
        for threads, embedder in embedders.items():
            index._embedder = embedder
            wall, cpu = [], time.process_time()
            for task in tasks:
                start = time.perf_counter()
                index.search(task, k=10)
                wall.append((time.perf_counter() - start) * 1000)
            cpu_ms = (time.process_time() - cpu) * 1000 / len(tasks)
            runs = []
            for _ in range(10):
                start = time.perf_counter()
                embedder.embed_many([long_task])
                runs.append((time.perf_counter() - start) * 1000)
            print(
                f"threads {threads} (load {os.getloadavg()[0]:.1f}): p50 {np.percentile(wall, 50):.1f} ms, "
                f"p95 {np.percentile(wall, 95):.1f} ms, {cpu_ms:.1f} ms CPU per query; "
                f"one long-task run {statistics.median(runs):.1f} ms",
                flush=True,
            )


if __name__ == "__main__":
    main()
