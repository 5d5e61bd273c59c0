"""Which API a request is for, read from the head of its ranked list.

In a catalog of hundreds of APIs a request's best operation often belongs to an API whose other
operations rank nowhere, while the API the request is for places several near the top: "kick
someone out of my server" matches one operation of a chat API well and five of another loosely.
A service's support is the sum of its best `per_service` scores among the `head` best operations,
as a share of the best-supported service's; every operation's score is then blended with its
service's share, `score × (1 − weight + weight × share)` (`SearchSettings.service_support`).
Nothing is removed, and a service's own order is unchanged: only how services interleave moves.

`coherence.py` asks the same question for a request of several intents (which API answers them
all); this one reads a single list, for a request of one intent.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from openapi_rag.search.actions import OpKey
from openapi_rag.store.filters import chunk_tags
from openapi_rag.store.products import inner_products

if TYPE_CHECKING:
    from openapi_rag.model import Chunk
    from openapi_rag.search.settings import SearchSettings


def service_shares(scores: Mapping[OpKey, float], *, head: int, per_service: int) -> dict[str, float]:
    """Each service's support from the `head` best operations of `scores`, as a share of the
    best-supported service's (1.0 for that one); services with nothing in the head are absent.

    The head is cut by rank, not by k, so the shares do not depend on how many results were asked
    for (the fused scores of a list's head do not either).

    Example:
        >>> scores = {("a", "GET /x"): 1.0, ("b", "GET /y"): 0.9, ("b", "GET /z"): 0.8}
        >>> service_shares(scores, head=10, per_service=2)
        {'b': 1.0, 'a': 0.5882352941176471}
    """
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:head]
    best: dict[str, list[float]] = {}
    for (service, _), score in ranked:
        kept = best.setdefault(service, [])
        if len(kept) < per_service:  # the list is best first: the first ones are the service's best
            kept.append(max(score, 0.0))
    support = {service: sum(kept) for service, kept in best.items()}
    top = max(support.values(), default=0.0)
    if top <= 0:
        return {}
    return dict(sorted(((s, v / top) for s, v in support.items()), key=lambda item: (-item[1], item[0])))


def favour_supported_apis(
    scores: Mapping[OpKey, float], *, weight: float, head: int, per_service: int
) -> dict[OpKey, float]:
    """`scores` blended with their service's share of support (`service_shares`); services
    outside the head count as share 0. `weight` 0 leaves the scores as they are.

    Example:
        >>> scores = {("a", "GET /x"): 1.0, ("b", "GET /y"): 0.9, ("b", "GET /z"): 0.8}
        >>> out = favour_supported_apis(scores, weight=0.5, head=10, per_service=2)
        >>> out[("b", "GET /y")] > out[("a", "GET /x")]
        True
    """
    if weight <= 0:
        return dict(scores)
    return blend_shares(scores, service_shares(scores, head=head, per_service=per_service), weight=weight)


class ServiceProfiles:
    """What each API is for, as one text per service (its title, tag names and operation
    summaries, read from the store's chunks), matched against a request by BM25.

    Built once per searcher from the chunks already in the store, so an index built before this
    existed answers with it too; 209 services index in well under a second.
    """

    def __init__(self, texts: Mapping[str, str], short: Mapping[str, str] | None = None):
        from openapi_rag.search.bm25 import BM25Index  # bm25s is imported lazily there

        self.services = sorted(texts)
        self._short = dict(short or texts)  # title and tag names: what the dense side embeds
        self._vectors: Any = None
        self._bm25 = BM25Index.build(self.services, [texts[s] for s in self.services])

    @classmethod
    def of_chunks(cls, chunks: Iterable[Chunk], *, summaries: bool = True) -> ServiceProfiles:
        words: dict[str, dict[str, None]] = {}  # per service, its words' sources in order, each once
        short: dict[str, dict[str, None]] = {}
        paths: dict[str, dict[str, None]] = {}
        for chunk in chunks:
            seen = words.setdefault(chunk.service, {})
            names = short.setdefault(chunk.service, {})
            for text in (str(chunk.metadata.get("title", "")), *chunk_tags(chunk)):
                seen.setdefault(text, None)
                names.setdefault(text, None)
            if summaries and chunk.metadata.get("summary"):
                seen.setdefault(str(chunk.metadata["summary"]), None)
            if not chunk.metadata.get("tags"):  # an API without tags is named by its paths' resources
                for op_id in chunk.operations:
                    for segment in _resources(op_id):
                        paths.setdefault(chunk.service, {}).setdefault(segment, None)
        for service, segments in paths.items():
            if len(short[service]) <= 1:  # the title alone: no tag anywhere in the API
                short[service].update(segments)
        return cls(
            {service: " . ".join(t for t in seen if t) for service, seen in words.items()},
            {service: ", ".join(t for t in seen if t) for service, seen in short.items()},
        )

    def dense_shares(self, query: str, embed: Callable[[list[str]], Any]) -> dict[str, float]:
        """Each service's cosine with `query` (its title and tag names, embedded once), min-max
        scaled over the services so that the best is 1.0 and the worst 0."""
        import numpy as np

        if self._vectors is None:
            self._vectors = np.asarray(embed([self._short[s] for s in self.services]), dtype=np.float32)
        cosines = inner_products(np.asarray(embed([query]), dtype=np.float32)[0], self._vectors)
        low, high = float(cosines.min()), float(cosines.max())
        if high <= low:
            return {}
        return {s: (float(c) - low) / (high - low) for s, c in zip(self.services, cosines, strict=True)}

    def shares(self, query: str) -> dict[str, float]:
        """Each service's BM25 score for `query` as a share of the best service's."""
        ranked = self._bm25.search(query, len(self.services))
        top = max((score for _, score in ranked), default=0.0)
        return {service: score / top for service, score in ranked if score > 0} if top > 0 else {}


def _resources(op_id: str) -> list[str]:
    """The words of an operation's path that name resources: "GET /v2/guilds/{id}/members" ->
    ["guilds", "members"] (parameters, versions and file suffixes left out)."""
    path = op_id.partition(" ")[2]
    return [
        seg.split(".")[0]
        for seg in path.split("/")
        if seg and not seg.startswith("{") and not re.fullmatch(r"v\d+(\.\d+)*|\d[\w-]*|api", seg)
    ]


def blend_shares(
    scores: Mapping[OpKey, float], shares: Mapping[str, float], *, weight: float
) -> dict[OpKey, float]:
    """`scores` × (1 − weight + weight × their service's share); services without one count 0."""
    if weight <= 0 or not shares:
        return dict(scores)
    keep = 1.0 - weight
    return {key: score * (keep + weight * shares.get(key[0], 0.0)) for key, score in scores.items()}


def within_lead_api(
    scores: Mapping[OpKey, float], lexical: Mapping[OpKey, float], *, weight: float
) -> dict[OpKey, float]:
    """`scores` with each operation of the leading service (its best-scored operation's) raised by
    `weight` × its BM25 score for the request (`lexical`, the whole request's list) as a share of
    the best of that service's operations there. The BM25 scores are the first pass's: inside one
    API they are the same as a pass over its operations alone, at no cost."""
    if weight <= 0 or not scores:
        return dict(scores)
    lead = min(scores, key=lambda key: (-scores[key], key))[0]
    top = max((s for key, s in lexical.items() if key[0] == lead), default=0.0)
    if top <= 0:
        return dict(scores)
    return {
        key: score + weight * lexical.get(key, 0.0) / top if key[0] == lead else score
        for key, score in scores.items()
    }


class ApiEvidence:
    """One searcher's weighing of APIs for a request of one intent, with what it builds once (the
    profiles, from the store's chunks, on first use)."""

    def __init__(self) -> None:
        self._profiles: tuple[bool, ServiceProfiles] | None = None

    def weigh(
        self,
        scores: Mapping[OpKey, float],
        query: str,
        settings: SearchSettings,
        *,
        lexical: Mapping[OpKey, float],
        chunks: Callable[[], Iterable[Chunk]],
        embed: Callable[[list[str]], Any] | None = None,
    ) -> dict[OpKey, float]:
        """`scores` weighed by the settings' `service_support`, `service_profile` and
        `lead_api_bm25`, in that order (each off at 0)."""
        out = dict(scores)
        if settings.service_support > 0:
            out = favour_supported_apis(
                out,
                weight=settings.service_support,
                head=settings.service_support_head,
                per_service=settings.service_support_ops,
            )
        if settings.service_profile > 0:
            summaries = settings.service_profile_summaries
            if self._profiles is None or self._profiles[0] != summaries:
                self._profiles = (summaries, ServiceProfiles.of_chunks(chunks(), summaries=summaries))
            out = blend_shares(out, self._profiles[1].shares(query), weight=settings.service_profile)
        if settings.service_dense > 0 and embed is not None:
            if self._profiles is None:
                self._profiles = (True, ServiceProfiles.of_chunks(chunks()))
            out = blend_shares(
                out, self._profiles[1].dense_shares(query, embed), weight=settings.service_dense
            )
        if settings.lead_api_bm25 > 0 and lexical:
            out = within_lead_api(out, lexical, weight=settings.lead_api_bm25)
        return out
