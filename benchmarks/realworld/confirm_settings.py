"""One index, as recorded against the same index with other search settings, paired per request.

The confirmation sets (`confirm_short_tasks.jsonl`, `confirm_long_tasks.jsonl`) were written before
any search ran on them, and no setting has been chosen on them. Each request is scored as
`scripts/ablation_quality.py` scores the long tasks. For each task file and metric the script prints
both means and their paired difference, with a 95% percentile bootstrap interval.

    PYTHONPATH=src python benchmarks/realworld/confirm_settings.py --index RW \
        --settings '{"static_scope": "sentences", "static_whole_weight": 0.75, "static_whole_named": false}' \
        benchmarks/realworld/confirm_short_tasks.jsonl benchmarks/realworld/confirm_long_tasks.jsonl

The index is only read: the settings change in memory.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.index import Index

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from ablation_quality import DEPTH, METRICS, found_ids, realworld, score  # noqa: E402


def scores(index: Index, tasks: list) -> list[dict[str, float]]:
    return [score([found_ids(h) for h in index.search(t.text, k=DEPTH, expand=False)], t.gold) for t in tasks]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--settings", required=True, help="JSON object of SearchSettings fields")
    parser.add_argument("tasks", type=Path, nargs="+")
    args = parser.parse_args()
    recorded, changed = Index.open(args.index), Index.open(args.index)
    changed.searcher.configure(**json.loads(args.settings))
    for path in args.tasks:
        [group] = realworld(path)
        before, after = scores(recorded, group.tasks), scores(changed, group.tasks)
        for metric in METRICS:
            deltas = [b[metric] - a[metric] for a, b in zip(before, after, strict=True)]
            low, high = bootstrap_ci([deltas])
            print(
                f"{path.name} n={len(deltas)} {metric}: {statistics.fmean(a[metric] for a in before):.3f} -> "
                f"{statistics.fmean(b[metric] for b in after):.3f}, "
                f"{statistics.fmean(deltas):+.3f} [{low:+.3f}, {high:+.3f}]"
            )


if __name__ == "__main__":
    main()
