"""Whether two source trees give the same search results: a fingerprint of every result field.

For the tasks of `openapi-rag bench search` and `openapi-rag bench serve` (395 with ../shared), over
query x mode x k x filter x threshold cases, each case's operations (ids, scores by `repr`, chunk
ids, dense and BM25 scores, copies), linked hits and chunk hits are hashed; one JSON line per case.
Run it once per tree and compare, for a change meant to keep rankings (and scores) as they were:

    PYTHONPATH=OLD/src python scripts/same_results.py --index IDX --out old.jsonl
    PYTHONPATH=src python scripts/same_results.py --index IDX --out new.jsonl --against old.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from typing import Any


def fingerprint(results: Any) -> str:
    """A hash of everything a search returns, scores at full precision."""
    parts = []
    for op in results.operations:
        parts.append(
            (
                op.service,
                op.id,
                repr(op.score),
                op.summary,
                op.chunk_ids,
                repr(op.dense_score),
                repr(op.bm25_score),
                op.also_in,
                tuple(hit.chunk_id for hit in op.linked),
            )
        )
    parts.append(tuple((hit.chunk_id, repr(hit.score)) for hit in results.linked))
    parts.append(
        tuple((h.chunk_id, repr(h.score), repr(h.dense_score), repr(h.bm25_score)) for h in results.chunks)
    )
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


def cases(queries: list[str]) -> list[dict[str, Any]]:
    """What each query is searched with: every query in the default mode at k 10 and 50 and "auto",
    and dense; a quarter of them in bm25 mode, with a service filter and with a threshold."""
    out: list[dict[str, Any]] = []
    for i, query in enumerate(queries):
        out += [
            {"query": query, "mode": "hybrid", "k": 10},
            {"query": query, "mode": "hybrid", "k": 50},
            {"query": query, "mode": "hybrid", "k": "auto"},
            {"query": query, "mode": "dense", "k": 10},
        ]
        if i % 4 == 0:
            out += [
                {"query": query, "mode": "bm25", "k": 10},
                {"query": query, "mode": "hybrid", "k": 10, "filter": "top-service"},
                {"query": query, "mode": "hybrid", "k": 10, "threshold": 0.55},
            ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True, help="An index built with `openapi-rag index`.")
    parser.add_argument("--out", required=True, help="Where to write the fingerprints (JSON lines).")
    parser.add_argument("--against", help="Fingerprints of another tree: report the cases that differ.")
    args = parser.parse_args()

    from openapi_rag.cli.bench_index_cmd import benchmark_queries
    from openapi_rag.index import Index
    from openapi_rag.serve.load import load_queries

    index = Index.open(args.index)
    queries = list(dict.fromkeys([*benchmark_queries(), *load_queries()]))
    with open(args.out, "w", encoding="utf-8") as out:
        for case in cases(queries):
            options = {key: case[key] for key in ("mode", "k", "threshold") if key in case}
            if case.get("filter"):
                top = index.search(case["query"], k=1, expand=False)
                options["service"] = top[0].service if top else None
            results = index.search_results(case["query"], expand=True, **options)
            out.write(json.dumps({**case, **options, "hash": fingerprint(results)}) + "\n")
    if args.against:
        with open(args.against, encoding="utf-8") as f:
            old = [json.loads(line) for line in f]
        with open(args.out, encoding="utf-8") as f:
            new = [json.loads(line) for line in f]
        differ = [a for a, b in zip(old, new, strict=True) if a != b]
        print(f"{len(new)} cases, {len(differ)} differ", file=sys.stderr)
        for case in differ[:10]:
            print(json.dumps(case), file=sys.stderr)
        sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
