"""A request of several intents asks one API for all of them.

"Convert 2000 SEK to NOK, and give me the rates of SEK against USD and EUR" names two operations,
and a catalog of two currency APIs offers both in each. Each intent's own list may put another
API's near-namesake first; the API that answers every intent well is the likelier one to hold both
(`SearchSettings.api_coherence`). An API's support is the sum, over the intents' lists, of its best
score there as a share of that list's best; the operations of other APIs score `factor` of what
they would. Nothing is removed: a request that does need two APIs still finds the second.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openapi_rag.search.actions import OpKey


def favour_one_api(
    scores: Mapping[OpKey, float], clause_lists: Sequence[Mapping[OpKey, float]], *, factor: float
) -> dict[OpKey, float]:
    """`scores` with the operations of every API but the best-supported one scaled by `factor`.

    Example:
        >>> clauses = [{("a", "GET /convert"): 1.0, ("b", "GET /convert"): 0.95},
        ...            {("a", "GET /rates"): 0.7, ("b", "GET /latest"): 1.0}]
        >>> final = {("a", "GET /convert"): 1.0, ("b", "GET /convert"): 0.95, ("b", "GET /latest"): 1.0}
        >>> favour_one_api(final, clauses, factor=0.5)[("a", "GET /convert")]
        0.5
    """
    if factor >= 1.0:
        return dict(scores)
    support: dict[str, float] = {}
    for scores_here in clause_lists:
        top = max(scores_here.values(), default=0.0)
        if top <= 0:
            continue
        best_of: dict[str, float] = {}
        for (service, _), score in scores_here.items():
            best_of[service] = max(best_of.get(service, score), score)
        for service, score in best_of.items():
            support[service] = support.get(service, 0.0) + score / top
    if not support:
        return dict(scores)
    chosen = min(support, key=lambda service: (-support[service], service))
    return {key: score if key[0] == chosen else score * factor for key, score in scores.items()}
