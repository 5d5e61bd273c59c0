"""PNG figures of an evaluation, after the paper's Figures 3b, 4 and 5b.

- ``recall_precision.png``: mean recall vs mean precision of every configuration and k, with the
  Pareto front (no other point has both higher recall and higher precision). A ``k=auto`` point
  shows where an adaptive result size lands.
- ``recall_boxplot.png``: the spread of recall for each configuration, one panel per k (per-domain
  means when there are several domains, else per-query recall).
- ``stability.png``: mean recall vs its standard deviation across domains (or queries).

matplotlib is imported here only, through `Figure` (no pyplot, no global backend switch).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openapi_rag.bench.retrievers import RunConfig
from openapi_rag.errors import MissingDependency

_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h"]
_AUTO_MARKER = "*"


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingDependency(
            'Plots need matplotlib: pip install "openapi-rag[eval]" (or pass --no-plots)'
        ) from exc
    return Figure(figsize=(width, height), dpi=120, layout="constrained")


def config_labels(configs: Sequence[RunConfig]) -> dict[RunConfig, str]:
    """Short legend labels naming only the dimensions that vary (strategy always)."""
    vary_embedder = len({c.embedder for c in configs}) > 1
    vary_mode = len({c.mode for c in configs}) > 1
    out = {}
    for c in configs:
        parts = [c.strategy] + ([c.embedder] if vary_embedder else []) + ([c.mode] if vary_mode else [])
        out[c] = " · ".join(parts)
    return out


def _colors(n: int) -> list[Any]:
    from matplotlib import colormaps

    if n <= 10:
        return [colormaps["tab10"](i) for i in range(n)]
    # Past 20 configurations (8 strategies x 3 modes), tab20 alone would repeat colours.
    palette = [colormaps[name](i) for name in ("tab20", "tab20b", "tab20c") for i in range(20)]
    return [palette[i % len(palette)] for i in range(n)]


def _marker(k: str, ks: list[str]) -> str:
    if k == "auto":
        return _AUTO_MARKER
    numeric = [x for x in ks if x != "auto"]
    return _MARKERS[numeric.index(k) % len(_MARKERS)]


def pareto_front(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """Points no other point beats on both coordinates (ties kept), sorted by the first."""
    finite = [p for p in points if not (math.isnan(p[0]) or math.isnan(p[1]))]
    front = [p for p in finite if not any(q[0] >= p[0] and q[1] >= p[1] and q != p for q in finite)]
    return sorted(set(front))


def _config_of(row: dict[str, Any]) -> RunConfig:
    return RunConfig(row["strategy"], row["embedder"], row["mode"])


def _legends(
    ax: Any,
    fig: Any,
    configs: list[RunConfig],
    labels: dict[RunConfig, str],
    colors: list[Any],
    ks: list[str],
    extra: list[Any] | None = None,
) -> None:
    from matplotlib.lines import Line2D

    config_handles = [
        Line2D([], [], marker="o", linestyle="", color=colors[i], label=labels[c])
        for i, c in enumerate(configs)
    ]
    k_handles = [
        Line2D(
            [],
            [],
            marker=_marker(k, ks),
            linestyle="",
            color="0.25",
            markersize=9 if k == "auto" else 6,
            label=f"k = {k}",
        )
        for k in ks
    ]
    # Figure legends at "outside" locations are part of the constrained layout, so they are never cut.
    fig.legend(
        handles=config_handles,
        title="configuration",
        loc="outside right upper",
        ncols=1 if len(config_handles) <= 18 else 2,  # one column of more would run off the figure
        frameon=False,
        fontsize=8,
        title_fontsize=8,
    )
    # Below the axes, in one row: beside the configuration legend it would overlap a long one.
    cutoff_handles = k_handles + (extra or [])
    fig.legend(
        handles=cutoff_handles,
        title="cut-off",
        loc="outside lower center",
        ncols=len(cutoff_handles),
        frameon=False,
        fontsize=8,
        title_fontsize=8,
    )


def _scatter(
    summary: Sequence[dict[str, Any]], x: str, y: str
) -> tuple[Any, Any, list[RunConfig], list[str]]:
    configs = list(dict.fromkeys(_config_of(r) for r in summary))
    ks = list(dict.fromkeys(r["k"] for r in summary))
    labels = config_labels(configs)
    colors = _colors(len(configs))
    fig = _figure(7.5 + 0.04 * max(len(v) for v in labels.values()), 4.6)
    ax = fig.add_subplot()
    # Configurations with identical results would hide each other: draw them as concentric markers,
    # the first largest.
    stacks: dict[tuple[Any, ...], int] = {}
    for row in summary:
        spot = (round(row[x], 9), round(row[y], 9), row["k"]) if not math.isnan(row[x] + row[y]) else None
        stacks[spot] = stacks.get(spot, 0) + 1
    drawn: dict[tuple[Any, ...], int] = {}
    for row in summary:
        i = configs.index(_config_of(row))
        spot = (round(row[x], 9), round(row[y], 9), row["k"]) if not math.isnan(row[x] + row[y]) else None
        below = stacks[spot] - 1 - drawn.get(spot, 0)
        drawn[spot] = drawn.get(spot, 0) + 1
        base = 150 if row["k"] == "auto" else 60
        ax.scatter(
            row[x],
            row[y],
            color=colors[i],
            marker=_marker(row["k"], ks),
            s=base * (1 + 1.2 * below),
            edgecolors="black",
            linewidths=0.5,
            zorder=3 + drawn[spot],
        )
    ax.grid(True, alpha=0.3)
    return fig, ax, configs, ks


def plot_recall_precision(summary: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """Figure 3b: recall vs precision with the Pareto front."""
    from matplotlib.lines import Line2D

    fig, ax, configs, ks = _scatter(summary, "recall", "precision")
    front = pareto_front([(r["recall"], r["precision"]) for r in summary])
    extra = []
    if len(front) > 1:
        ax.plot(
            [p[0] for p in front], [p[1] for p in front], linestyle="--", color="0.4", linewidth=1, zorder=2
        )
        extra.append(Line2D([], [], linestyle="--", color="0.4", label="Pareto front"))
    elif front:
        extra.append(
            Line2D(
                [],
                [],
                marker="o",
                markerfacecolor="none",
                color="0.4",
                linestyle="",
                markersize=12,
                label="Pareto front",
            )
        )
        ax.scatter([front[0][0]], [front[0][1]], s=260, facecolors="none", edgecolors="0.4", zorder=2)
    ax.set_xlabel("mean recall@k")
    ax.set_ylabel("mean precision@k")
    ax.set_xlim(_limits([r["recall"] for r in summary]))
    ax.set_ylim(_limits([r["precision"] for r in summary]))
    ax.set_title(title, fontsize=10)
    _legends(ax, fig, configs, config_labels(configs), _colors(len(configs)), ks, extra)
    fig.savefig(path)
    return path


def plot_stability(summary: Sequence[dict[str, Any]], path: Path, title: str) -> Path:
    """Figure 5b: mean recall vs its standard deviation (lower right is better)."""
    fig, ax, configs, ks = _scatter(summary, "recall", "recall_std")
    over = summary[0]["spread_over"] if summary else "domains"
    ax.set_xlabel("mean recall@k")
    ax.set_ylabel(f"std of recall@k across {over}")
    ax.set_xlim(_limits([r["recall"] for r in summary]))
    ax.set_ylim(_limits([r["recall_std"] for r in summary]))
    ax.set_title(title, fontsize=10)
    _legends(ax, fig, configs, config_labels(configs), _colors(len(configs)), ks)
    fig.savefig(path)
    return path


def plot_recall_boxes(
    values: dict[str, dict[RunConfig, list[float]]], path: Path, title: str, unit: str
) -> Path:
    """Figure 4: one panel per k, one box of recall values per configuration."""
    ks = list(values)
    configs = list(dict.fromkeys(c for per_k in values.values() for c in per_k))
    labels = config_labels(configs)
    colors = _colors(len(configs))
    panel = max(2.6, 0.42 * len(configs) + 0.8)
    nrows = math.ceil(len(ks) / max(1, min(len(ks), int(13 // panel))))
    ncols = math.ceil(len(ks) / nrows)  # balanced rows: 2 × 2 rather than 3 + 1
    longest = max(len(v) for v in labels.values())
    fig = _figure(panel * ncols + 0.6, nrows * (2.8 + 0.05 * longest) + 0.4)
    grid = fig.subplots(nrows, ncols, sharey=True, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[len(ks) :]:
        ax.set_visible(False)
    for ax, k in zip(axes, ks, strict=False):
        data = [[v for v in values[k].get(c, []) if not math.isnan(v)] for c in configs]
        boxes = ax.boxplot(
            data,
            patch_artist=True,
            widths=0.6,
            showmeans=True,
            meanprops={
                "marker": "D",
                "markerfacecolor": "white",
                "markeredgecolor": "black",
                "markersize": 4,
            },
            medianprops={"color": "black"},
            flierprops={"markersize": 3},
        )
        for patch, color in zip(boxes["boxes"], colors, strict=True):
            patch.set_facecolor(color)
            patch.set_alpha(0.75)
        ax.set_xticks(
            range(1, len(configs) + 1), [labels[c] for c in configs], rotation=35, ha="right", fontsize=8
        )
        ax.set_title(f"k = {k}", fontsize=9)
        ax.set_ylim(-0.03, 1.03)
        ax.grid(True, axis="y", alpha=0.3)
    for row in grid:
        row[0].set_ylabel(f"recall@k ({unit})")
    fig.suptitle(title + "  (◇ mean, — median)", fontsize=10)
    fig.savefig(path)
    return path


def _limits(values: Sequence[float]) -> tuple[float, float]:
    finite = [v for v in values if not math.isnan(v)]
    if not finite:
        return 0.0, 1.0
    lo, hi = min(finite), max(finite)
    pad = max(0.02, (hi - lo) * 0.08)
    return max(0.0, lo - pad) if lo >= 0 else lo - pad, hi + pad
