"""Per-query retrieval metrics over endpoint ids, as in Pesl et al.'s OpenAPI RAG evaluation.

Definitions (``R`` = the retrieved ids with duplicates removed, keeping first occurrences, then cut
to the first ``k``; ``G`` = the gold ids, duplicates removed; ``k' = |R| <= k``):

- recall@k = ``|G ∩ R| / |G|``. The paper's code divides by the raw solution list, but de-duplicates
  RestBench's lists first; we always de-duplicate, so a query whose gold repeats an endpoint can
  still reach recall 1. Undefined (NaN) when ``G`` is empty.
- precision@k = ``|G ∩ R| / k'``: over the de-duplicated retrieved set, not over k, because several
  chunks of one endpoint count once (the paper's definition). Undefined (NaN) when nothing was
  retrieved; like the paper's ``None`` it is then left out of means.
- F1 = ``2PR / (P + R)``, 0 when nothing relevant was retrieved. Summaries report the F1 *of the mean*
  recall and precision, the way the paper's tables do.
- MRR = ``1 / rank`` of the first relevant id in ``R`` (0 when there is none).
- R@1 = recall of the first id alone, ``|G ∩ R[:1]| / |G|``, whatever k: what a caller that takes
  the first operation (the call generator) gets. Undefined (NaN) when ``G`` is empty.
- nDCG@k with binary relevance: ``DCG = Σ 1/log2(i+1)`` over relevant ranks ``i`` in ``R``, divided by
  the DCG of a perfect list of ``min(|G|, k)`` relevant ids (``|G|`` when k is None, "auto").

``k=None`` means the retriever decided how many results to return (``--k auto``): nothing is cut.

Example:
    >>> s = score_query(["a", "x", "a", "b"], ["a", "b", "c"], k=3)
    >>> round(s.recall, 3), round(s.precision, 3), s.mrr
    (0.667, 0.667, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

T = TypeVar("T", bound=Hashable)

NAN = float("nan")


@dataclass(frozen=True)
class QueryScores:
    """The metrics of one query at one k. `retrieved` is k', `hits` is ``|G ∩ R|``."""

    recall: float
    precision: float
    f1: float
    mrr: float
    ndcg: float
    hits: int
    retrieved: int
    n_gold: int
    r1: float = NAN

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def distinct(items: Iterable[T]) -> list[T]:
    """Items in order, each once."""
    return list(dict.fromkeys(items))


def f1_score(recall: float, precision: float) -> float:
    """Harmonic mean; NaN if recall is undefined, 0 if nothing was retrieved or nothing relevant."""
    if math.isnan(recall):
        return NAN
    if math.isnan(precision) or recall + precision == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def _dcg(relevant_ranks: Iterable[int]) -> float:
    return sum(1.0 / math.log2(rank + 1) for rank in relevant_ranks)


def score_query(retrieved: Sequence[T], gold: Iterable[T], k: int | None = None) -> QueryScores:
    """Recall, precision, F1, MRR and nDCG of one ranked list against the gold ids.

    Args:
        retrieved: ids, best first; duplicates are dropped (the first occurrence keeps its rank).
        gold: the relevant ids; duplicates are dropped.
        k: cut after this many distinct ids; None keeps them all (adaptive result size).

    Raises:
        ValueError: k < 1.
    """
    if k is not None and k < 1:
        raise ValueError(f"k must be >= 1 (or None for an adaptive result size), got {k}")
    ranked = distinct(retrieved)
    if k is not None:
        ranked = ranked[:k]
    gold_set = set(gold)
    relevant = [rank for rank, item in enumerate(ranked, 1) if item in gold_set]
    hits = len(relevant)
    if not gold_set:
        return QueryScores(
            NAN, hits / len(ranked) if ranked else NAN, NAN, NAN, NAN, hits, len(ranked), 0, NAN
        )
    recall = hits / len(gold_set)
    precision = hits / len(ranked) if ranked else NAN
    ideal = len(gold_set) if k is None else min(len(gold_set), k)
    return QueryScores(
        recall=recall,
        precision=precision,
        f1=f1_score(recall, precision),
        mrr=1.0 / relevant[0] if relevant else 0.0,
        ndcg=_dcg(relevant) / _dcg(range(1, ideal + 1)),
        hits=hits,
        retrieved=len(ranked),
        n_gold=len(gold_set),
        r1=(1.0 if relevant and relevant[0] == 1 else 0.0) / len(gold_set),
    )


def nanmean(values: Iterable[float]) -> float:
    """Mean of the defined values; NaN when there are none (no numpy warning)."""
    kept = [v for v in values if not math.isnan(v)]
    return sum(kept) / len(kept) if kept else NAN


def std_cv(values: Iterable[float]) -> tuple[float, float]:
    """Sample standard deviation (ddof=1) and coefficient of variation (std / mean) of the defined
    values; NaN when fewer than two."""
    kept = [v for v in values if not math.isnan(v)]
    if len(kept) < 2:
        return NAN, NAN
    mean = sum(kept) / len(kept)
    std = math.sqrt(sum((v - mean) ** 2 for v in kept) / (len(kept) - 1))
    return std, (std / mean if mean else NAN)
