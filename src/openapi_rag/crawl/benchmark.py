"""`eval-crawl`: crawl every benchmark page, score it against its source spec, write the table.

Pages are matched to truth by file stem (`pages/redoc/ID.html` ↔ `truth/ID.json|yaml`) and grouped
by the folder they sit in (one group per renderer), so a held-out renderer is reported on its own.
Intervals are 95% percentile bootstraps over pages (`bench.bootstrap`).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.crawl import PAGE_SUFFIXES, crawl_pages
from openapi_rag.crawl.evaluate import (
    SPEC_SUFFIXES,
    Agreement,
    Counts,
    PageScore,
    extract_operations,
    score_page,
)
from openapi_rag.errors import ConvertError


def find_truth(truth_dir: Path) -> dict[str, Path]:
    return {p.stem: p for p in sorted(truth_dir.iterdir()) if p.suffix.lower() in SPEC_SUFFIXES}


def run_eval(
    pages_dir: Path,
    truth_dir: Path,
    out_dir: Path,
    *,
    embedder: Any = None,
    llm: Any = None,
    progress: Any = None,
) -> dict[str, Any]:
    """Crawl, score and write `summary.json`, `pages.jsonl`, `table.md` and the crawled documents."""
    truth = find_truth(truth_dir)
    pages = sorted(p for p in pages_dir.rglob("*") if p.suffix.lower() in PAGE_SUFFIXES and p.stem in truth)
    if not pages:
        raise ConvertError(f"{pages_dir}: no pages whose name matches a spec in {truth_dir}")
    out_dir.mkdir(parents=True, exist_ok=True)
    groups: dict[str, list[PageScore]] = defaultdict(list)
    expected: dict[str, Any] = {}  # each spec's operations, read once for all its renderers' pages
    for page in pages:
        group = page.parent.name if page.parent != pages_dir else pages_dir.name
        result = crawl_pages([page], llm=llm)
        crawled = out_dir / "crawled" / group / f"{page.stem}.json"
        crawled.parent.mkdir(parents=True, exist_ok=True)
        crawled.write_text(json.dumps(result.document, indent=1, ensure_ascii=False), encoding="utf-8")
        predicted = extract_operations(crawled) if not result.empty else {}
        if page.stem not in expected:
            expected[page.stem] = extract_operations(truth[page.stem])
        score = score_page(str(page), expected[page.stem], predicted)
        score.valid_openapi = not result.findings
        score.warnings = len(result.report.warnings)
        groups[group].append(score)
        if progress is not None:
            progress(page)
    if embedder is None:
        from openapi_rag.embed import get_embedder

        embedder = get_embedder()
    summary = {group: summarize(scores, embedder) for group, scores in sorted(groups.items())}
    with (out_dir / "pages.jsonl").open("w", encoding="utf-8") as handle:
        for group, scores in sorted(groups.items()):
            for score in scores:
                handle.write(json.dumps({"group": group, **_page_row(score)}) + "\n")
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    (out_dir / "table.md").write_text(format_table(summary), encoding="utf-8")
    return summary


# Each counted metric's name in the summary and the PageScore attribute that holds its counts.
_COUNTED = {
    "operations": "ops",
    "operations_relative": "ops_relative",
    "request": "request",
    "response": "response",
}


def _page_row(score: PageScore) -> dict[str, Any]:
    counted = {name: getattr(score, attribute).prf() for name, attribute in _COUNTED.items()}
    return {"page": score.page, **counted, "valid_openapi": score.valid_openapi, "warnings": score.warnings}


def summarize(scores: list[PageScore], embedder: Any) -> dict[str, Any]:
    agree = {"in": Agreement(), "type": Agreement(), "required": Agreement()}
    pairs: list[tuple[str, str]] = []
    for score in scores:
        for name, agreement in (("in", score.location), ("type", score.type), ("required", score.required)):
            agree[name].right += agreement.right
            agree[name].total += agreement.total
        pairs.extend(score.description_pairs)
    out: dict[str, Any] = {"pages": len(scores)}
    for name, attribute in _COUNTED.items():  # micro: the pages' counts summed, then P/R/F1
        per_page = [getattr(s, attribute) for s in scores]
        total = Counts(sum(c.tp for c in per_page), sum(c.fp for c in per_page), sum(c.fn for c in per_page))
        out[name] = total.prf()
        out[name]["f1_ci95"] = micro_f1_ci([(c.tp, c.fp, c.fn) for c in per_page])
    for name, agreement in agree.items():
        out[f"{name}_precision"] = agreement.value()
    out["description_similarity"] = _similarity(pairs, embedder)
    out["valid_json"] = sum(s.valid_json for s in scores) / len(scores)
    out["valid_openapi"] = sum(s.valid_openapi for s in scores) / len(scores)
    out["warnings"] = sum(s.warnings for s in scores)
    return out


def micro_f1_ci(counts: list[tuple[int, int, int]], *, resamples: int = 2000, seed: int = 0) -> list[float]:
    """95% percentile-bootstrap interval of the micro F1, pages drawn again with replacement.

    `bench.bootstrap` averages per-query values; a micro F1 sums counts first, so it gets its own
    few lines: resample pages, add their (tp, fp, fn), take F1, read the 2.5th/97.5th percentiles.
    """
    if not counts:
        return [math.nan, math.nan]
    array = np.asarray(counts, dtype=float)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(array), size=(resamples, len(array)))
    tp, fp, fn = (array[picks][:, :, i].sum(axis=1) for i in range(3))
    f1 = np.divide(2 * tp, 2 * tp + fp + fn, out=np.full(resamples, np.nan), where=(2 * tp + fp + fn) > 0)
    f1 = f1[~np.isnan(f1)]
    if not f1.size:
        return [math.nan, math.nan]
    low, high = np.percentile(f1, [2.5, 97.5])
    return [float(low), float(high)]


def _similarity(pairs: list[tuple[str, str]], embedder: Any) -> float:
    if not pairs:
        return math.nan
    vectors = embedder.embed_many([t for pair in pairs for t in pair])
    a, b = vectors[0::2], vectors[1::2]
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    return float(np.mean(np.sum(a * b, axis=1) / np.where(norms == 0, 1, norms)))


def _f(value: float) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.2f}"


def format_table(summary: dict[str, Any]) -> str:
    """Markdown table: one row per renderer, the paper's metrics as columns."""
    lines = [
        "| pages (renderer) | n | ops P | ops R | ops R (no base path) | req P | req R | req F1 [95% CI]"
        " | resp P | resp R | resp F1 [95% CI] | in P | type P | required P | desc sim | valid OpenAPI | warnings |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for group, s in summary.items():
        ci = {k: s[k]["f1_ci95"] for k in ("request", "response")}
        lines.append(
            f"| {group} | {s['pages']} | {_f(s['operations']['precision'])} | {_f(s['operations']['recall'])} "
            f"| {_f(s['operations_relative']['recall'])} "
            f"| {_f(s['request']['precision'])} | {_f(s['request']['recall'])} "
            f"| {_f(s['request']['f1'])} [{_f(ci['request'][0])}, {_f(ci['request'][1])}] "
            f"| {_f(s['response']['precision'])} | {_f(s['response']['recall'])} "
            f"| {_f(s['response']['f1'])} [{_f(ci['response'][0])}, {_f(ci['response'][1])}] "
            f"| {_f(s['in_precision'])} | {_f(s['type_precision'])} | {_f(s['required_precision'])} "
            f"| {_f(s['description_similarity'])} | {_f(s['valid_openapi'])} | {s['warnings']} |"
        )
    return "\n".join(lines) + "\n"
