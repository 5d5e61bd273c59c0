"""CPU per query of `Index.search`, the embedder left out: what the search pipeline itself costs.

Every query is searched once to fill a memo of its embeddings (the query's and its clauses'), then
the whole list is searched three more times with the memo in place, and the best of the three
rounds is reported (CPU time of the process, which a busy machine stretches less than wall time).
FAISS runs single-threaded, as in `serve`'s workers. Two query sets: the RestBench + SOCBench-D
tasks of `openapi-rag bench search` (long, many with several clauses) and the short tasks of
`openapi-rag bench serve`.

To compare two versions in one session, run it once per source tree, alternately:

    PYTHONPATH=OLD/src python scripts/search_cpu.py --index IDX
    PYTHONPATH=src python scripts/search_cpu.py --index IDX
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True, help="An index built with `openapi-rag index`.")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import faiss

    from openapi_rag.cli.bench_index_cmd import benchmark_queries
    from openapi_rag.index import Index
    from openapi_rag.serve.load import load_queries

    faiss.omp_set_num_threads(1)
    index = Index.open(args.index)
    embedder = index.embedder
    memo: dict[tuple[str, ...], Any] = {}
    embed_many = embedder.embed_many

    def memoised(texts: list[str], **options: Any) -> Any:
        key = tuple(texts)
        if key not in memo:
            memo[key] = embed_many(texts, **options)
        return memo[key]

    embedder.embed_many = memoised  # type: ignore[method-assign]
    report: dict[str, Any] = {"chunks": len(index)}
    for name, queries in (("bench_search_queries", benchmark_queries()), ("serve_queries", load_queries())):
        for query in queries:
            index.search(query, k=10, expand=False)
        best = float("inf")
        for _ in range(args.rounds):
            start = time.process_time()
            for query in queries:
                index.search(query, k=10, expand=False)
            best = min(best, (time.process_time() - start) * 1000 / len(queries))
        report[name] = {"queries": len(queries), "cpu_ms_per_query": round(best, 2)}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
