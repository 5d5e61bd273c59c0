"""The default embedder's fused graph (`embed/minilm_graph.py`) against the shipped export.

Two figures, in one process so that both graphs see the same machine:

- drift: 1 - cosine between the two graphs' vectors of each of 2,000 endpoint texts (the
  `endpoints` workload of `scripts/bench_embed.py`), max and mean;
- speed: thread CPU ms of one model run (one intra-op thread, so the run is on the calling
  thread's clock) of a short and a long benchmark task, the graphs alternating, median of `--rounds`;

and with `--index IDX`, the results: the ranked ids (k=20) of the `bench search` and `bench serve`
tasks with each graph's query vectors (the index's own vectors stay), and whether a task's texts
embedded in one call get the same vectors as each embedded alone.

    python scripts/compare_graphs.py [--rounds 15] [--index IDX]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--index", help="an index built with `openapi-rag index`: compare rankings too")
    args = parser.parse_args()

    from bench_embed import endpoint_texts

    from openapi_rag.cli.bench_index_cmd import benchmark_queries
    from openapi_rag.embed.minilm import MiniLMEmbedder

    graphs = {"shipped": MiniLMEmbedder(threads=1, fused=False), "fused": MiniLMEmbedder(threads=1)}
    texts = endpoint_texts()
    vectors = {name: embedder.embed_many(texts) for name, embedder in graphs.items()}
    drift = 1 - (vectors["shipped"] * vectors["fused"]).sum(axis=1)
    tasks = sorted(benchmark_queries(), key=len)
    runs = {"short": [tasks[len(tasks) // 4]], "long": [tasks[-5]]}
    cpu_ms: dict[str, dict[str, list[float]]] = {g: {r: [] for r in runs} for g in graphs}
    for _ in range(args.rounds):
        for name, embedder in graphs.items():
            for run, batch in runs.items():
                start = time.thread_time()
                embedder._embed_batch(batch)
                cpu_ms[name][run].append((time.thread_time() - start) * 1000)
    tokens = {run: len(graphs["fused"]._token_ids(batch)[0]) for run, batch in runs.items()}
    report = rankings(args.index, graphs) if args.index else {}
    print(
        json.dumps(
            report
            | {
                "texts": len(texts),
                "drift_max": float(drift.max()),
                "drift_mean": float(drift.mean()),
                "tokens": tokens,
                "cpu_ms_per_run": {
                    g: {r: round(statistics.median(v), 2) for r, v in per.items()}
                    for g, per in cpu_ms.items()
                },
                "load_average": round(os.getloadavg()[0], 2),
            }
        )
    )


def rankings(index_dir: str, graphs: dict[str, Any]) -> dict[str, Any]:
    """Ranked ids of every task with each graph's query vectors; batched against alone vectors."""
    import numpy as np

    from openapi_rag.cli.bench_index_cmd import benchmark_queries
    from openapi_rag.index import Index
    from openapi_rag.serve.load import load_queries

    index = Index.open(index_dir)
    tasks = list(dict.fromkeys(benchmark_queries() + load_queries()))
    ranked = {}
    for name, embedder in graphs.items():
        index._embedder = embedder
        ranked[name] = [[(h.id, h.score) for h in index.search(task, k=20, expand=False)] for task in tasks]
    pairs = list(zip(ranked["shipped"], ranked["fused"], strict=True))
    fused, batched_as_alone = graphs["fused"], 0
    for task in tasks:
        texts = list(dict.fromkeys(index.searcher.texts_to_embed(task)))
        alone = np.stack([fused.embed_many([text])[0] for text in texts])
        batched_as_alone += bool((fused.embed_many(texts) == alone).all())
    return {
        "tasks": len(tasks),
        "same_ranked_ids": sum([i for i, _ in a] == [i for i, _ in b] for a, b in pairs),
        "score_diff_max": max(
            (abs(x[1] - y[1]) for a, b in pairs for x, y in zip(a, b, strict=False)), default=0.0
        ),
        "batched_bit_identical_to_alone": batched_as_alone,
    }


if __name__ == "__main__":
    main()
