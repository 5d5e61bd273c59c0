"""Confirm the second list's scope on requests never used to choose it (issue 18).

Three rows over one set of single-operation requests, each searched once:

- `default`: the default index (no second list), `--index`;
- `intents`: the index with the fine-tuned second list (`index --second-embedder minilm-users`),
  `--ens-index`, with `static_scope="intents"` (the scope chosen on long_tasks.jsonl);
- `every`: the same index with `static_scope="every"` (the second list on every query text);
- `sentences W` (session 14): `static_scope="sentences"`, the clauses and focused intents as
  `intents` and the whole text of a one-sentence request too, that one at weight W.

R@1, R@5, R@10 and MRR (first relevant in the top 10), scored exactly as
`scripts/ablation_quality.py` scores the long tasks, with 95% percentile bootstrap intervals of
each mean and of each paired difference, over all tasks, the tasks whose operation is on an API
held out of the embedder's training, and the rest.

    PYTHONPATH=src python benchmarks/realworld/confirm_scope.py --index RW --ens-index RW_ENS \
        [--tasks benchmarks/realworld/confirm_long_tasks.jsonl] [--json]

The indexes are only read (settings change in memory); build them with
`openapi-rag index ../shared/data/realworld --index RW` and the same with `--second-embedder
minilm-users --index RW_ENS`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import zlib
from pathlib import Path

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.index import Index

HERE = Path(__file__).resolve().parent
# The long tasks' loader and scorer, so that these figures read like the ablation's long rows.
sys.path.insert(0, str(HERE.parents[1] / "scripts"))
from ablation_quality import DEPTH, METRICS, found_ids, realworld, score  # noqa: E402

HELD_OUT = 10
"""scripts/finetune_embedder.py keeps an API out of training when crc32(id) % 10 == 0 (copied, not
imported: that script pulls in the training stack)."""


def held_out(training_id: str) -> bool:
    """Whether the API was kept out of training. `training_id` is the id the API had there, loaded
    alone: its base id in an index (`lob`, where a second document of the same title is `lob-2`)."""
    return zlib.crc32(training_id.encode()) % HELD_OUT == 0


def run(index: Index, tasks: list, **settings: object) -> list[dict[str, float]]:
    index.searcher.configure(**settings)
    return [score([found_ids(h) for h in index.search(t.text, k=DEPTH, expand=False)], t.gold) for t in tasks]


def summary(rows: dict[str, list[dict[str, float]]], picks: list[int]) -> dict:
    out: dict = {"tasks": len(picks)}
    for name, scores in rows.items():
        out[name] = {}
        for m in METRICS:
            values = [scores[i][m] for i in picks]
            out[name][m] = (statistics.fmean(values), *bootstrap_ci([values]))
    pairs = [("intents", "default"), ("every", "default"), ("intents", "every")]
    pairs += [(name, "intents") for name in rows if name.startswith("sentences")]
    for a, b in pairs:
        out[f"{a}-{b}"] = {}
        for m in METRICS:
            diff = [rows[a][i][m] - rows[b][i][m] for i in picks]
            out[f"{a}-{b}"][m] = (statistics.fmean(diff), *bootstrap_ci([diff]))
    return out


def table(title: str, part: dict) -> str:
    lines = [
        f"{title} ({part['tasks']} tasks)",
        "",
        "| row | " + " | ".join(METRICS) + " |",
        "|---" * 5 + "|",
    ]
    for name, cells in part.items():
        if name == "tasks":
            continue
        sign = "+" if "-" in name else ""
        lines.append(
            f"| {name} | "
            + " | ".join(f"{v:{sign}.3f} [{lo:{sign}.3f}, {hi:{sign}.3f}]" for v, lo, hi in cells.values())
            + " |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, required=True, help="the default realworld index")
    parser.add_argument(
        "--ens-index", type=Path, required=True, help="the realworld index with the second list"
    )
    parser.add_argument("--tasks", type=Path, default=HERE / "confirm_long_tasks.jsonl")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    [group] = realworld(args.tasks)
    tasks = group.tasks
    services = [
        json.loads(line)["expected"][0].split(" ")[0] for line in args.tasks.read_text().splitlines() if line
    ]
    ens = Index.open(args.ens_index)
    if ens.searcher.static is None:
        parser.error(f"{args.ens_index} has no second list (build it with --second-embedder)")
    rows = {
        "default": run(Index.open(args.index), tasks, static_weight=0.0),
        "intents": run(ens, tasks, static_scope="intents"),
        "every": run(ens, tasks, static_scope="every"),
        **{
            f"sentences {w}": run(ens, tasks, static_scope="sentences", static_whole_weight=w)
            for w in (0.5, 0.75)
        },
    }
    base_of = {source.service: source.base_id or source.service for source in ens.manifest.sources.values()}
    held = [i for i, s in enumerate(services) if held_out(base_of.get(s, s))]
    seen = [i for i in range(len(tasks)) if i not in held]
    parts = {
        "all": summary(rows, list(range(len(tasks)))),
        "held-out APIs": summary(rows, held),
        "trained APIs": summary(rows, seen),
    }
    if args.json:
        per_task = {t.id: {name: r[i] for name, r in rows.items()} for i, t in enumerate(tasks)}
        print(json.dumps({"tasks_file": str(args.tasks), "parts": parts, "per_task": per_task}, indent=1))
    else:
        print(f"{args.tasks.name}: mean [95% bootstrap interval]; a-b rows are paired differences\n")
        print("\n\n".join(table(name, part) for name, part in parts.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
