"""Rank fusion of several ranked lists.

Both fusions read a fixed head of each list (`depth`): a list fetched deeper for a larger k then
changes no fused score of an item in any head, so a query's order does not depend on k. Items in
no head get a tail score below every head item's (`TAIL`), ordered by their positions, so deep
candidates still come out in a sensible order when k asks for them (that tail's order may change
with the depth fetched; the heads' does not).
"""

from __future__ import annotations

from collections.abc import Sequence

from openapi_rag.store.base import Ranked, rank

RRF_K = 60
TAIL = 1e-6
"""Scale of the scores items past a list's head get: below any head item's fused score."""


def reciprocal_rank_fusion(
    ranked_lists: Sequence[Ranked],
    *,
    weights: Sequence[float] | None = None,
    k: int = RRF_K,
    depth: int | None = None,
) -> Ranked:
    """Fuse ranked lists by reciprocal rank fusion.

    Each id scores `sum_i weights[i] / (k + rank_i(id))` over the lists it appears in, with ranks
    starting at 1; the input scores are ignored, only positions count, so lists on different scales
    (cosine, BM25) combine without normalisation. G. V. Cormack, C. L. A. Clarke and S. Büttcher,
    "Reciprocal rank fusion outperforms Condorcet and individual rank learning methods", SIGIR 2009,
    where k = 60.

    Example:
        >>> reciprocal_rank_fusion([[("a", 0.9), ("b", 0.8)], [("b", 12.0), ("c", 3.0)]])
        [('b', 0.03252247488101534), ('a', 0.01639344262295082), ('c', 0.016129032258064516)]

    Args:
        ranked_lists: lists of `(id, score)`, best first; an id should appear once per list.
        weights: one weight per list (default 1 each).
        k: the rank constant; larger values flatten the difference between top and lower ranks.
        depth: count only the first `depth` positions of each list (the rest get a tail score).

    Returns:
        `(id, fused score)` by fused score descending, then id.
    """
    weights = _weights(weights, len(ranked_lists))
    if k < 0:
        raise ValueError("k must be >= 0")
    fused: dict[str, float] = {}
    heads = _heads(ranked_lists, depth)
    for weight, ranked in zip(weights, ranked_lists, strict=True):
        for position, (item_id, _score) in enumerate(ranked, start=1):
            if depth is None or position <= depth:
                fused[item_id] = fused.get(item_id, 0.0) + weight / (k + position)
            elif item_id not in heads:  # below any head item, falling with the position
                fused[item_id] = fused.get(item_id, 0.0) + weight * TAIL * depth / (position + 1)
    return rank(_lift_heads(fused, heads, weights).items())


def minmax_fusion(
    ranked_lists: Sequence[Ranked],
    *,
    weights: Sequence[float] | None = None,
    depth: int | None = None,
    floors: Sequence[float | None] | None = None,
) -> Ranked:
    """Fuse ranked lists by a weighted sum of min-max normalised scores (convex combination).

    Each list's scores are mapped to [0, 1] (best 1, the lowest of its first `depth` items 0; all 1
    when they are equal) and an id scores `sum_i weights[i] * normalised_i(id)`, 0 from a list it is
    missing from or lies past the head of, plus a tail score by position (`TAIL`, with `depth`).
    Unlike RRF the fused score keeps how far apart the scores were, so a clear winner in one list
    stays clear, and fused scores of different queries share a 0..sum(weights) scale
    (which `Searcher` needs to take the best over a query's clauses). The relative-score fusion
    of E. A. Fox and J. A. Shaw, "Combination of multiple searches", TREC-2, 1994 (CombSUM with
    min-max normalisation, J. H. Lee, SIGIR 1997).

    Example:
        >>> minmax_fusion([[("a", 0.9), ("b", 0.5)], [("b", 12.0), ("c", 3.0)]], weights=[0.5, 0.5])
        [('a', 0.5), ('b', 0.5), ('c', 0.0)]

    `floors`: per list, the score of every id it does not hold, where that is known (BM25's list of
    all the chunks sharing a word with the query: the others score 0); the normalisation's 0 is
    then at most that score, so two close scores of a short list stay close.

    Returns:
        `(id, fused score)` by fused score descending, then id.
    """
    weights = _weights(weights, len(ranked_lists))
    floors = floors or [None] * len(ranked_lists)
    fused: dict[str, float] = {}
    heads = _heads(ranked_lists, depth)
    for weight, ranked, floor in zip(weights, ranked_lists, floors, strict=True):
        if not ranked:
            continue
        head = ranked if depth is None else ranked[:depth]
        scores = [score for _, score in head]
        low, high = min(scores), max(scores)
        if floor is not None:
            low = min(low, floor)
        span = high - low
        for position, (item_id, score) in enumerate(ranked, start=1):
            if position <= len(head):
                contribution = weight * ((score - low) / span if span > 0 else 1.0)
            elif item_id not in heads:  # below TAIL, falling with the position
                contribution = weight * TAIL * len(head) / (position + 1)
            else:  # in another list's head: its fused score must not depend on this list's depth
                continue
            fused[item_id] = fused.get(item_id, 0.0) + contribution
    return rank(_lift_heads(fused, heads, weights).items())


def _lift_heads(fused: dict[str, float], heads: set[str], weights: Sequence[float]) -> dict[str, float]:
    """`fused` with every head item raised by TAIL x the total weight: above any sum of tail
    scores (each list's is below TAIL x its weight), ties among head items kept."""
    lift = TAIL * sum(weights)
    return {item_id: score + lift if item_id in heads else score for item_id, score in fused.items()}


def _heads(ranked_lists: Sequence[Ranked], depth: int | None) -> set[str]:
    """The ids within the first `depth` items of any list (none when there is no depth)."""
    if depth is None:
        return set()
    return {item_id for ranked in ranked_lists for item_id, _ in ranked[:depth]}


def _weights(weights: Sequence[float] | None, lists: int) -> Sequence[float]:
    """One weight per ranked list (1 each by default); a ValueError when the counts differ."""
    if weights is None:
        return [1.0] * lists
    if len(weights) != lists:
        raise ValueError(f"got {len(weights)} weights for {lists} ranked lists")
    return weights
