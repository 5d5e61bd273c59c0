"""CRAFT multi-view voting, as the CRAFT paper describes it (used by the `craft` retriever).

Three ranked result lists for one query — the summary view, the endpoint-name view and the
description view — vote: an endpoint is retrieved when at least two views return it. To return
exactly k endpoints, the lists' elements are added round-robin (first of summary, first of name,
first of description, second of summary, ...) each to its own view's set, stopping as soon as k
endpoints are in at least two sets. The study's own code reduces to a union of two views; this is
the algorithm as written.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

__all__ = ["craft_vote"]

T = TypeVar("T", bound=Hashable)


def craft_vote(views: Sequence[Sequence[T]], k: int, *, min_votes: int = 2) -> list[T]:
    """Up to `k` endpoints that at least `min_votes` of the ranked `views` agree on.

    Args:
        views: ranked lists, best first (summary, name, description for CRAFT); any number.
        k: how many endpoints to return.
        min_votes: sets an endpoint must be in.

    Returns:
        The endpoints in the order they reached `min_votes` (earlier agreement ranks higher).
        Fewer than `k` when the lists run out before `k` endpoints are agreed on.

    Example:
        >>> craft_vote([["a", "b", "c"], ["b", "a", "d"], ["c", "d", "a"]], 2)
        ['b', 'a']
    """
    if k <= 0:
        return []
    seen: list[set[T]] = [set() for _ in views]
    votes: dict[T, int] = {}
    result: list[T] = []
    for rank in range(max((len(v) for v in views), default=0)):
        for view, members in zip(views, seen, strict=True):
            if rank >= len(view) or view[rank] in members:
                continue  # a list that repeats an endpoint does not vote twice
            item = view[rank]
            members.add(item)
            votes[item] = votes.get(item, 0) + 1
            if votes[item] == min_votes:
                result.append(item)
                if len(result) == k:
                    return result
    return result
