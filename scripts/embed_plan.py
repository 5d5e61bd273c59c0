"""What a search embeds: per `bench search` task, the texts (the whole query and/or its clauses),
their token counts and the model runs the length buckets make of them, for the slowest 5% by
embedding cost (padded tokens + `RUN_COST_TOKENS` a run).

    python scripts/embed_plan.py --index IDX
"""

from __future__ import annotations

import argparse
import json


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", required=True, help="An index built with `openapi-rag index`.")
    args = parser.parse_args()

    from openapi_rag.cli.bench_index_cmd import benchmark_queries
    from openapi_rag.embed.minilm import RUN_COST_TOKENS, MiniLMEmbedder, length_buckets
    from openapi_rag.index import Index

    index = Index.open(args.index)
    embedder = index.embedder
    if not isinstance(embedder, MiniLMEmbedder):
        raise SystemExit(f"{args.index}: built with {embedder.model_id}, not the default MiniLM")
    embedder._load()
    plans = []
    for task in benchmark_queries():
        texts = list(dict.fromkeys(index.searcher.texts_to_embed(task)))
        lengths = embedder._token_lengths(texts)
        runs = length_buckets(lengths, most=embedder.batch_size, budget=embedder.batch_tokens)
        padded = sum(len(run) * max(lengths[i] for i in run) for run in runs)
        whole = embedder._token_lengths([task])[0]
        plans.append(
            {
                "cost": padded + RUN_COST_TOKENS * len(runs),
                "padded": padded,
                "runs": len(runs),
                "whole_query_tokens": whole,
                "whole_query_embedded": task in texts,
                "text_tokens": lengths,
                "task": task[:100],
            }
        )
    plans.sort(key=lambda p: -p["cost"])
    tail = plans[: max(1, len(plans) // 20)]
    print(
        json.dumps(
            {
                "tasks": len(plans),
                "whole_query_and_clauses": sum(
                    p["whole_query_embedded"] and len(p["text_tokens"]) > 1 for p in plans
                ),
                "slowest_5pct": tail,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
