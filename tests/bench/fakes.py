"""A deterministic retriever for the evaluation tests: word overlap, no index, no model."""

from __future__ import annotations

import re

from openapi_rag.bench.retrievers import RetrievedOp, RunConfig
from openapi_rag.model import Service

_WORD = re.compile(r"[a-z]+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower()))


class OverlapRetriever:
    """Ranks operations by the number of query words they share with a strategy-dependent text.

    Strategies: `endpoint` (path + summary), `thin` (path only), `summary` (summary only).
    Mode `bm25` breaks ties in reverse id order, any other mode in id order. With k=None it
    returns the operations scoring at least half the best score.
    """

    def __init__(self, services: list[Service], config: RunConfig) -> None:
        self.config = config
        self.calls = 0
        self.docs = []
        for service in services:
            for op in service.operations:
                text = {"thin": op.path, "summary": op.summary}.get(
                    config.strategy, f"{op.path} {op.summary}"
                )
                self.docs.append((service.id, op.id, _words(text), len(text.split())))

    def search(self, query: str, k: int | None) -> list[RetrievedOp]:
        self.calls += 1
        words = _words(query)
        sign = -1 if self.config.mode == "bm25" else 1
        scored = [(len(words & w), service, op_id, tokens) for service, op_id, w, tokens in self.docs]
        ranked = sorted(scored, key=lambda d: (-d[0], sign * _order(d[1] + d[2])))
        if k is None:
            best = ranked[0][0] if ranked else 0
            ranked = [d for d in ranked if best and d[0] * 2 >= best]
        else:
            ranked = ranked[:k]
        return [RetrievedOp(service, op_id, float(score), tokens) for score, service, op_id, tokens in ranked]


def _order(text: str) -> int:
    # A stable integer per string, so the tie order can be reversed by sign.
    return int.from_bytes(text.encode()[:16].ljust(16, b"\0"), "big")


class FakeFactory:
    """A retriever factory that records its calls (the CLI instantiates classes named by --retriever)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, RunConfig]] = []
        self.retrievers: list[OverlapRetriever] = []

    def __call__(self, services: list[Service], config: RunConfig) -> OverlapRetriever:
        self.calls.append((",".join(s.id for s in services), config))
        retriever = OverlapRetriever(services, config)
        self.retrievers.append(retriever)
        return retriever

    @property
    def searches(self) -> int:
        return sum(r.calls for r in self.retrievers)


class FailingFactory(FakeFactory):
    """Raises after `budget` searches, like a run cut off half way."""

    def __init__(self, budget: int) -> None:
        super().__init__()
        self.budget = budget

    def __call__(self, services: list[Service], config: RunConfig) -> OverlapRetriever:
        retriever = super().__call__(services, config)
        search = retriever.search

        def limited(query: str, k: int | None) -> list[RetrievedOp]:
            if self.searches >= self.budget:
                raise KeyboardInterrupt
            return search(query, k)

        retriever.search = limited  # type: ignore[method-assign]
        return retriever
