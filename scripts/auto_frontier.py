"""Where `k="auto"` can reach on RestBench and SOCBench-D (instance 1), against its target.

Issue 7 asks `k="auto"` for the recall of k=10 at the precision of k=5. This script puts that target
beside what the default ranking allows:

- the `k="auto"` frontier: the default cut with its two ratios (per clause, whole query) moved
  together from loose to strict;
- fixed k = 1..10;
- two oracle cuts that read the gold answers (never part of the product): each query cut at its
  number of gold operations plus 0, 1 or 2, and each query cut at the shortest prefix of its top 10
  that holds what the top 10 holds.

Metrics as in `scripts/ablation_quality.py` (mean per query, SOCBench-D per domain then over the
domains; gold matched by exact `METHOD /path`). Prints a Markdown table; `--plot FILE` also draws
the points.

    .venv/bin/python scripts/auto_frontier.py [--data ../shared/data] [--plot docs/results/auto-frontier.png]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable
from pathlib import Path

from ablation_quality import restbench, socbench

from openapi_rag.bench.metrics import score_query
from openapi_rag.embed import get_embedder
from openapi_rag.index import Index
from openapi_rag.search.settings import DEFAULT_SETTINGS

# (per-clause ratio, whole-query ratio), loose to strict; the default is marked in the table.
RATIOS = [(0.7, 0.4), (0.75, 0.5), (0.8, 0.55), (0.85, 0.6), (0.9, 0.7), (0.95, 0.8), (1.0, 1.0)]
Cut = Callable[[dict], list[str]]  # a query's record -> the operation ids it returns


def records(groups: list, embedder) -> list[list[dict]]:
    """Per group, per query: its gold, its top 20, and its `k="auto"` result under each of `RATIOS`."""
    out = []
    for group in groups:
        services = group.services
        queries = [(task.text, [entry for gold in task.gold for entry in gold]) for task in group.tasks]
        index = Index.build(services, embedder=embedder)
        rows = []
        for query, gold in queries:
            row = {"gold": gold, "ranked": [h.id for h in index.search(query, k=20, expand=False)]}
            for clause_ratio, whole_ratio in RATIOS:
                index.searcher.configure(
                    DEFAULT_SETTINGS, auto_ratio=clause_ratio, auto_ratio_whole=whole_ratio
                )
                row[clause_ratio, whole_ratio] = [h.id for h in index.search(query, k="auto", expand=False)]
            index.searcher.configure(DEFAULT_SETTINGS)
            rows.append(row)
        out.append(rows)
    return out


def point(groups: list[list[dict]], cut: Cut) -> tuple[float, float, float]:
    """Mean recall, precision and result count of `cut`, per group then over groups."""
    recalls, precisions, sizes = [], [], []
    for rows in groups:
        returned = [cut(row) for row in rows]
        scores = [score_query(ids, row["gold"], k=None) for ids, row in zip(returned, rows, strict=True)]
        recalls.append(statistics.fmean(s.recall for s in scores))
        precisions.append(statistics.fmean(s.precision for s in scores))
        sizes.append(statistics.fmean(len(set(ids)) for ids in returned))
    return statistics.fmean(recalls), statistics.fmean(precisions), statistics.fmean(sizes)


def top10_prefix(row: dict) -> list[str]:
    """The shortest prefix of the top 10 that holds every gold operation the top 10 holds (an oracle)."""
    top = list(dict.fromkeys(row["ranked"]))[:10]
    found = [i for i, op in enumerate(top) if op in set(row["gold"])]
    return top[: found[-1] + 1] if found else top[:1]


def cuts() -> dict[str, Cut]:
    table: dict[str, Cut] = {}
    for ratios in RATIOS:
        default = (DEFAULT_SETTINGS.auto_ratio, DEFAULT_SETTINGS.auto_ratio_whole)
        mark = " (default)" if ratios == default else ""
        table[f"k=auto, ratios {ratios[0]:.2f} / {ratios[1]:.2f}{mark}"] = lambda r, key=ratios: r[key]
    for k in range(1, 11):
        table[f"k={k}"] = lambda r, k=k: list(dict.fromkeys(r["ranked"]))[:k]
    for extra in range(3):
        table[f"oracle: k = gold size + {extra}"] = lambda r, e=extra: list(dict.fromkeys(r["ranked"]))[
            : len(set(r["gold"])) + e
        ]
    table["oracle: shortest top-10 prefix with the top 10's hits"] = top10_prefix
    return table


def plot(results: dict[str, dict[str, tuple[float, float, float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(6 * len(results), 4.5))
    for ax, (dataset, points) in zip(axes, results.items(), strict=True):
        fixed = [points[f"k={k}"] for k in range(1, 11)]
        auto = [v for name, v in points.items() if name.startswith("k=auto")]
        oracle = [v for name, v in points.items() if name.startswith("oracle")]
        ax.plot([p[0] for p in fixed], [p[1] for p in fixed], "o-", color="grey", label="fixed k = 1..10")
        ax.plot(
            [p[0] for p in auto], [p[1] for p in auto], "s-", color="tab:blue", label="k=auto, loose → strict"
        )
        default = points[next(n for n in points if n.endswith("(default)"))]
        ax.plot(*default[:2], "s", color="tab:blue", markersize=12, markerfacecolor="none")
        ax.plot([p[0] for p in oracle], [p[1] for p in oracle], "^", color="tab:green", label="oracle cuts")
        target = (points["k=10"][0], points["k=5"][1])
        ax.plot(*target, "*", color="tab:red", markersize=14, label="target: R of k=10, P of k=5")
        ax.set(title=dataset, xlabel="recall", ylabel="precision")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
    )
    parser.add_argument("--plot", type=Path, help="also draw the points into this PNG file")
    args = parser.parse_args()
    embedder = get_embedder("minilm")
    datasets = {"RestBench": restbench(args.data), "SOCBench-D": socbench(args.data)}
    results = {}
    for name, groups in datasets.items():
        recorded = records(groups, embedder)
        results[name] = {label: point(recorded, cut) for label, cut in cuts().items()}
    print("| cut | " + " | ".join(f"{d} R | {d} P | {d} n" for d in results) + " |")
    print("|" + "---|" * (1 + 3 * len(results)))
    for label in cuts():
        cells = [f"{r:.3f} | {p:.3f} | {n:.1f}" for r, p, n in (results[d][label] for d in results)]
        print(f"| {label} | " + " | ".join(cells) + " |")
    targets = [f"{d}: R ≥ {v['k=10'][0]:.3f} at P ≥ {v['k=5'][1]:.3f}" for d, v in results.items()]
    print("\nTarget (recall of k=10, precision of k=5): " + "; ".join(targets))
    if args.plot:
        plot(results, args.plot)
        print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
