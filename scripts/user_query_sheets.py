"""Write the sheets of operations for which user-phrased requests were written (`minilm-users`' data).

Each row is one operation of ``../shared/data/realworld`` as a writer sees it: the API's title, method
and path, summary, first description sentence and operationId (tab-separated). Identical twin
documents of one API (the same title, method and path) count once. Three rounds, as they were written:
at most 60 operations per API (seed 11), then at most 140 more per API among the rest (seed 12), then
at most 400 more (seed 13, session 19: the long tails of Kubernetes, DigitalOcean, SendGrid, Jira,
Trello, OpenAI...); each round's rows are shuffled and cut into sheets (6, then 5, then 6). A writer
(an LLM told what makes a request useful: users' goal words, not the summary; accurate to this
operation and not a sibling; three forms: a search-box phrase, a first-person need, a question or
short conversational request) turns each row into three requests;
`benchmarks/embedder/user_queries.jsonl` holds what came back, keyed by
operation. No writer saw a task file or a benchmark's spec.

    python scripts/user_query_sheets.py --data ../shared/data/realworld --out sheets/
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from train_embedder import load_corpus

from openapi_rag.chunking.render import collapse, leading_sentence

ROUNDS = ((60, 11, 6), (140, 12, 5), (400, 13, 6))  # (operations per API at most, seed, sheets)
"""The third round (session 19) writes the operations the first two left: APIs of more than 200."""


def rows_of(corpus, cap: int, rng: random.Random, done: set[str]) -> list[dict[str, str]]:
    seen: set[tuple[str, str, str]] = set()
    rows = []
    for service, texts in corpus:
        fresh = []
        for op in (op for op in service.operations if op.id in texts):
            twin = (collapse(service.title).lower(), op.method, op.path)
            if twin in seen:
                continue
            seen.add(twin)
            if f"{service.id} {op.id}" not in done:
                fresh.append(op)
        for op in rng.sample(fresh, cap) if len(fresh) > cap else fresh:
            rows.append(
                {
                    "op": f"{service.id} {op.id}",
                    "api": collapse(service.title)[:60],
                    "summary": collapse(op.summary or "")[:160],
                    "description": collapse(leading_sentence(op.description or ""))[:220],
                    "operationId": op.operation_id or "",
                }
            )
    rng.shuffle(rows)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/realworld"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    corpus = load_corpus(args.data)
    args.out.mkdir(parents=True, exist_ok=True)
    everything: list[dict[str, str]] = []
    sheet = 0
    for cap, seed, sheets in ROUNDS:
        rows = rows_of(corpus, cap, random.Random(seed), {r["op"] for r in everything})
        size = -(-len(rows) // sheets)
        for part in range(sheets):
            sheet += 1
            with (args.out / f"sheet{sheet}.tsv").open("w", encoding="utf-8") as f:
                f.write("n\tapi\tmethod_path\tsummary\tdescription\toperationId\n")
                for i, row in enumerate(rows[part * size : (part + 1) * size]):
                    n = len(everything) + part * size + i
                    fields = [str(n), row["api"], row["op"].split(" ", 1)[1], row["summary"], row["description"]]
                    f.write("\t".join([*fields, row["operationId"]]).replace("\r", " ") + "\n")
        everything += rows
    (args.out / "operations.json").write_text(json.dumps(everything), encoding="utf-8")
    print(f"{len(everything)} operations in {sheet} sheets under {args.out}")


if __name__ == "__main__":
    main()
