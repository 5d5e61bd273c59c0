"""Averaging per-query scores the way the paper does: per domain, then over domains.

Every domain weighs the same in the overall mean, whatever its number of queries. Spread is
reported across domains (sample standard deviation and coefficient of variation of the domain
means); a dataset with a single domain (RestBench) reports it across queries instead, and says so
in the ``spread_over`` column. The 95% confidence intervals of recall and precision come from
resampling the queries within each domain (`bootstrap.bootstrap_ci`): how far the mean would move
on another set of queries like these.

R@1 and MRR stand beside recall@k in every row (the call generator takes the first operation), with
their own intervals. With ``halves=True`` every configuration and k also gets a row for the tuning
half and one for the reporting half of the queries (`halves.half_of`): settings are chosen on the
tuning half and reported on the other.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.bench.halves import HALVES
from openapi_rag.bench.metrics import f1_score, nanmean, std_cv
from openapi_rag.bench.retrievers import RunConfig
from openapi_rag.bench.runner import K, QueryResult, k_label, k_order

MEAN_METRICS = ("r1", "recall", "precision", "mrr", "ndcg", "tokens", "retrieved")
CI_METRICS = ("r1", "recall", "precision", "mrr")

SUMMARY_COLUMNS = (
    "dataset", "strategy", "embedder", "mode", "k", "half",
    "r1", "recall", "precision", "f1", "mrr", "ndcg", "tokens", "retrieved",
    "n_queries", "n_domains", "empty",
    "recall_std", "recall_cv", "precision_std", "precision_cv", "f1_std", "f1_cv", "spread_over",
    "r1_ci_low", "r1_ci_high", "recall_ci_low", "recall_ci_high",
    "precision_ci_low", "precision_ci_high", "mrr_ci_low", "mrr_ci_high",
)  # fmt: skip

DOMAIN_COLUMNS = (
    "dataset", "strategy", "embedder", "mode", "k", "domain",
    "r1", "recall", "precision", "f1", "mrr", "ndcg", "tokens", "retrieved", "n_queries",
)  # fmt: skip


def _values(results: Sequence[QueryResult], metric: str) -> list[float]:
    if metric == "tokens":
        return [float(r.tokens) for r in results]
    return [float(getattr(r.scores, metric)) for r in results]


def _means(results: Sequence[QueryResult]) -> dict[str, float]:
    means = {m: nanmean(_values(results, m)) for m in MEAN_METRICS}
    means["f1"] = f1_score(means["recall"], means["precision"])
    return means


def _by_config_k(results: Sequence[QueryResult]) -> dict[tuple[RunConfig, K], list[QueryResult]]:
    groups: dict[tuple[RunConfig, K], list[QueryResult]] = defaultdict(list)
    for r in results:
        groups[(r.config, r.k)].append(r)
    return groups


def _by_domain(results: Sequence[QueryResult]) -> dict[str, list[QueryResult]]:
    out: dict[str, list[QueryResult]] = defaultdict(list)
    for r in results:
        out[r.domain].append(r)
    return out


def _head(r: QueryResult) -> dict[str, Any]:
    return {"dataset": r.dataset, **r.config.to_dict(), "k": k_label(r.k)}


def domain_rows(results: Sequence[QueryResult]) -> list[dict[str, Any]]:
    """One row per configuration, k and domain: the means over that domain's queries."""
    rows = []
    for (_cfg, _k), items in _sorted(_by_config_k(results)):
        for domain, members in _by_domain(items).items():
            rows.append({**_head(items[0]), "domain": domain, **_means(members), "n_queries": len(members)})
    return rows


def summary_rows(results: Sequence[QueryResult], *, halves: bool = False) -> list[dict[str, Any]]:
    """One row per configuration and k: the mean over domains of the per-domain means.

    With `halves`, each is followed by a row over the tuning half and one over the reporting half
    of the queries. Results that all come from one half (``eval --half tune``) get that half's name.
    """
    rows = []
    for (_cfg, _k), items in _sorted(_by_config_k(results)):
        present = {r.half for r in items}
        label = next(iter(present)) if len(present) == 1 and present <= {"tune", "report"} else "all"
        rows.append(_summary(items, label))
        if halves and label == "all":
            for half in HALVES:
                members = [r for r in items if r.half == half]
                if members:
                    rows.append(_summary(members, half))
    return rows


def _summary(items: Sequence[QueryResult], half: str) -> dict[str, Any]:
    domains = _by_domain(items)
    per_domain = [_means(members) for members in domains.values()]
    row: dict[str, Any] = {**_head(items[0]), "half": half}
    for metric in MEAN_METRICS:
        row[metric] = nanmean(d[metric] for d in per_domain)
    row["f1"] = f1_score(row["recall"], row["precision"])
    row["n_queries"] = len(items)
    row["n_domains"] = len(domains)
    row["empty"] = sum(1 for r in items if r.scores.retrieved == 0)
    if len(domains) > 1:
        spread = {m: [d[m] for d in per_domain] for m in ("recall", "precision", "f1")}
        row["spread_over"] = "domains"
    else:
        spread = {m: _values(items, m) for m in ("recall", "precision", "f1")}
        row["spread_over"] = "queries"
    for metric, values in spread.items():
        row[f"{metric}_std"], row[f"{metric}_cv"] = std_cv(values)
    for metric in CI_METRICS:
        groups = [_values(members, metric) for members in domains.values()]
        row[f"{metric}_ci_low"], row[f"{metric}_ci_high"] = bootstrap_ci(groups)
    return {c: row[c] for c in SUMMARY_COLUMNS}


def _sorted(
    groups: dict[tuple[RunConfig, K], list[QueryResult]],
) -> list[tuple[tuple[RunConfig, K], list[QueryResult]]]:
    # Grid order (as first seen) for configurations, ascending k with "auto" last.
    order = {cfg: i for i, cfg in enumerate(dict.fromkeys(cfg for cfg, _ in groups))}
    return sorted(groups.items(), key=lambda item: (order[item[0][0]], k_order(item[0][1])))
