"""Write an evaluation's files: CSV tables, a Markdown report and PNG plots.

Files in the output folder:

- ``results.csv``: one row per query × configuration × k (`runner.RESULT_COLUMNS`);
- ``summary.csv``: one row per configuration and k, mean over domains (`aggregate.SUMMARY_COLUMNS`),
  each followed by its rows over the tuning and the reporting half of the queries;
- ``domains.csv``: one row per configuration, k and domain;
- ``friedman.csv``: the Friedman tests across strategies;
- ``gold_issues.csv``: gold entries that were unmatched, fuzzy, ambiguous or duplicated;
- ``paper.csv``: with ``compare_paper``, the paper's numbers beside ours;
- ``report.md`` and ``plots/*.png``.
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from openapi_rag.bench.aggregate import DOMAIN_COLUMNS, SUMMARY_COLUMNS, domain_rows, summary_rows
from openapi_rag.bench.paper import COMPARE_COLUMNS, compare_with_paper
from openapi_rag.bench.retrievers import RunConfig
from openapi_rag.bench.runner import RESULT_COLUMNS, EvalResult, k_label
from openapi_rag.bench.stats import FRIEDMAN_COLUMNS, friedman_markdown, friedman_tests

ISSUE_COLUMNS = ("query_id", "entry", "kind", "detail", "severity")


def _cell(value: Any) -> Any:
    if isinstance(value, float):
        return "nan" if math.isnan(value) else round(value, 6)
    return value


def write_csv(path: Path, columns: Sequence[str], rows: Iterable[dict[str, Any]]) -> Path:
    """A CSV with a header; floats rounded to 6 decimals, undefined values written as ``nan``."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(columns), extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _cell(v) for k, v in row.items()})
    return path


def write_report(
    result: EvalResult,
    out_dir: str | Path,
    *,
    compare_paper: bool = False,
    plots: bool = True,
    metric: str = "recall",
) -> dict[str, Path]:
    """Write every output file of `result` into `out_dir`.

    Args:
        result: from `run_eval`.
        out_dir: the folder (created if needed).
        compare_paper: add the paper's published numbers (``paper.csv`` and a report section).
        plots: draw the PNG figures (needs matplotlib).
        metric: the per-query metric the Friedman test compares.

    Returns:
        Output name → path (``results``, ``summary``, ``domains``, ``friedman``, ``gold_issues``,
        ``report``, optionally ``paper`` and ``plot_*``).

    Raises:
        MissingDependency: scipy (or, with plots, matplotlib) is not installed.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    summary = summary_rows(result.results, halves=True)
    overall = summary_rows(result.results)
    domains = domain_rows(result.results)
    cells = friedman_tests(result.results, metric=metric)
    files = {
        "results": write_csv(out / "results.csv", RESULT_COLUMNS, result.rows()),
        "summary": write_csv(out / "summary.csv", SUMMARY_COLUMNS, summary),
        "domains": write_csv(out / "domains.csv", DOMAIN_COLUMNS, domains),
        "friedman": write_csv(out / "friedman.csv", FRIEDMAN_COLUMNS, (c.to_dict() for c in cells)),
        "gold_issues": write_csv(
            out / "gold_issues.csv", ISSUE_COLUMNS, (i.to_dict() for i in result.dataset.issues)
        ),
    }
    comparison = compare_with_paper(overall) if compare_paper else []
    if compare_paper:
        files["paper"] = write_csv(out / "paper.csv", COMPARE_COLUMNS, comparison)
    figures: dict[str, Path] = {}
    if plots and overall:
        figures = _plots(result, overall, out / "plots")
        files.update({f"plot_{name}": path for name, path in figures.items()})
    report = out / "report.md"
    report.write_text(
        _markdown(
            result,
            summary,
            overall,
            domains,
            friedman_markdown(cells),
            comparison,
            compare_paper,
            figures,
            out,
        ),
        encoding="utf-8",
    )
    files["report"] = report
    return files


def _plots(result: EvalResult, summary: list[dict[str, Any]], folder: Path) -> dict[str, Path]:
    from openapi_rag.bench import plots

    folder.mkdir(parents=True, exist_ok=True)
    name = result.dataset.name
    several = len(result.dataset.domains) > 1
    boxes: dict[str, dict[RunConfig, list[float]]] = {}
    if several:
        for row in domain_rows(result.results):
            cfg = RunConfig(row["strategy"], row["embedder"], row["mode"])
            boxes.setdefault(row["k"], {}).setdefault(cfg, []).append(row["recall"])
    else:
        for r in result.results:
            boxes.setdefault(k_label(r.k), {}).setdefault(r.config, []).append(r.scores.recall)
    return {
        "recall_precision": plots.plot_recall_precision(
            summary, folder / "recall_precision.png", f"{name}: recall vs precision"
        ),
        "recall_boxplot": plots.plot_recall_boxes(
            boxes, folder / "recall_boxplot.png", f"{name}: recall", "per domain" if several else "per query"
        ),
        "stability": plots.plot_stability(
            summary, folder / "stability.png", f"{name}: mean vs spread of recall"
        ),
    }


# --------------------------------------------------------------------------- Markdown


def _fmt(value: Any, digits: int = 3) -> str:
    if isinstance(value, float):
        return "–" if math.isnan(value) else f"{value:.{digits}f}"
    return str(value)


_NUMERIC = re.compile(r"[-–<.\d*]*")


def _fmt_interval(low: float, high: float) -> str:
    return "–" if math.isnan(low) else f"{low:.3f}–{high:.3f}"


def _fmt_delta(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:+.3f}"


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A Markdown table; columns holding only numbers (or blanks) are right-aligned."""
    body = [[str(c) for c in row] for row in rows]
    numeric = [all(_NUMERIC.fullmatch(row[i]) for row in body) for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if n else "---" for n in numeric) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


def _markdown(
    result: EvalResult,
    summary: list[dict[str, Any]],
    overall: list[dict[str, Any]],
    domains: list[dict[str, Any]],
    friedman: str,
    comparison: list[dict[str, Any]],
    compare_paper: bool,
    figures: dict[str, Path],
    out: Path,
) -> str:
    ds = result.dataset
    info = ds.describe()
    several = len(ds.domains) > 1
    blocks = [f"# Endpoint retrieval: {ds.name}"]
    blocks.append(
        f"{info['queries']} queries in {info['domains']} domain(s), {info['groups']} index(es) over "
        f"{info['services']} services and {info['operations']} operations. "
        f"Configurations: {len(result.configs)} (strategies × embedders × modes); "
        f"k: {', '.join(k_label(k) for k in result.ks)}. "
        f"This run searched {result.searched} time(s) and reused {result.reused} cached result(s)."
    )
    blocks.append(
        "Recall and precision are over the de-duplicated retrieved operations (precision divides by the "
        "number of distinct operations returned, at most k); means are taken per domain, then over domains "
        "with equal weight; F1 is the harmonic mean of mean recall and mean precision; tokens are those of "
        "the retrieved context per query (o200k_base, GPT-4o's tokenizer, over the returned content); k' is the "
        "mean number of operations returned."
    )

    blocks.append("## Gold endpoints")
    counts = Counter(i.kind for i in ds.issues)
    if counts:
        blocks.append(_table(["issue", "entries"], sorted(counts.items())))
        unmatched = ds.unmatched()
        if unmatched:
            listed = [f"- `{i.query_id}`: `{i.entry}` ({i.detail})" for i in unmatched[:30]]
            if len(unmatched) > 30:
                listed.append(f"- ... {len(unmatched) - 30} more in gold_issues.csv")
            noun = "entry matches" if len(unmatched) == 1 else "entries match"
            blocks.append(
                f"{len(unmatched)} gold {noun} no operation; "
                "they stay in the gold sets and count as misses:\n\n" + "\n".join(listed)
            )
        blocks.append("Every entry is listed in `gold_issues.csv`.")
    else:
        blocks.append("Every gold entry matches an operation exactly.")
    if ds.load_failures:
        blocks.append("Descriptions that failed to load:\n\n" + "\n".join(f"- {f}" for f in ds.load_failures))

    blocks.append("## Summary")
    spread = "across domains" if several else "across queries"
    blocks.append(
        "R@1 is the recall of the first operation alone (whatever k); `half` is `all`, or the fixed "
        "tuning (`tune`) or reporting (`report`) half of the queries: settings are chosen on the tuning "
        "half, figures quoted from the reporting half. Intervals are 95% bootstrap intervals."
    )
    header = ["strategy", "embedder", "mode", "k", "half", "R@1", "recall", "precision", "F1", "MRR"]
    header += ["nDCG", "tokens", "k'", "R@1 95% CI", "recall 95% CI", "MRR 95% CI"]
    header += [f"recall std ({spread})", "recall CV"]
    blocks.append(
        _table(
            header,
            (
                [
                    r["strategy"],
                    r["embedder"],
                    r["mode"],
                    r["k"],
                    r["half"],
                    _fmt(r["r1"]),
                    _fmt(r["recall"]),
                    _fmt(r["precision"]),
                    _fmt(r["f1"]),
                    _fmt(r["mrr"]),
                    _fmt(r["ndcg"]),
                    _fmt(r["tokens"], 0),
                    _fmt(r["retrieved"], 1),
                    _fmt_interval(r["r1_ci_low"], r["r1_ci_high"]),
                    _fmt_interval(r["recall_ci_low"], r["recall_ci_high"]),
                    _fmt_interval(r["mrr_ci_low"], r["mrr_ci_high"]),
                    _fmt(r["recall_std"]),
                    _fmt(r["recall_cv"]),
                ]
                for r in summary
            ),
        )
    )

    if several:
        blocks.append("## Recall per domain")
        names = list(dict.fromkeys(d["domain"] for d in domains))
        by = {(d["strategy"], d["embedder"], d["mode"], d["k"], d["domain"]): d for d in domains}
        for k in dict.fromkeys(r["k"] for r in overall):
            rows = []
            for r in (s for s in overall if s["k"] == k):
                key = (r["strategy"], r["embedder"], r["mode"], k)
                cells = [_fmt(by[(*key, n)]["recall"]) if (*key, n) in by else "" for n in names]
                rows.append([" · ".join(key[:3]), *cells, _fmt(r["recall"])])
            blocks += [f"### k = {k}", _table(["configuration", *names, "mean"], rows)]

    blocks += ["## Friedman test across strategies (Figure 6a)", friedman.strip()]

    if compare_paper:
        blocks.append("## Compared with the paper")
        blocks.append(
            "Pesl et al., *Retrieval-Augmented Generation for Service Discovery: Chunking Strategies and "
            "Benchmarking* (arXiv:2505.19310). Their embedders differ from ours unless named alike."
        )
        if comparison:
            blocks.append(
                _table(
                    [
                        "dataset",
                        "strategy",
                        "k",
                        "paper model",
                        "paper R",
                        "paper P",
                        "our embedder",
                        "mode",
                        "our R",
                        "our P",
                        "ΔR",
                    ],
                    (
                        [
                            c["dataset"],
                            c["strategy"],
                            c["k"],
                            c["paper_embedder"],
                            _fmt(c["paper_recall"]),
                            _fmt(c["paper_precision"]),
                            c["embedder"] or "not run",
                            c["mode"],
                            _fmt(c["recall"]),
                            _fmt(c["precision"]),
                            _fmt_delta(c["recall_delta"]),
                        ]
                        for c in comparison
                    ),
                )
            )
        else:
            blocks.append("The paper reports no numbers for this dataset.")

    if figures:
        blocks.append("## Figures")
        captions = {
            "recall_precision": "Recall vs precision with the Pareto front (Figure 3b)",
            "recall_boxplot": "Recall per configuration (Figure 4)",
            "stability": "Mean recall vs its standard deviation (Figure 5b)",
        }
        for name, path in figures.items():
            blocks.append(f"![{captions.get(name, name)}]({path.relative_to(out).as_posix()})")
    return "\n\n".join(blocks) + "\n"
