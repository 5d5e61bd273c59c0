"""An index whose searches go through a retrieval policy, for the Discovery Agent (`discover --policy`).

`PolicyIndex` wraps anything with `search(query, k=)`, `show` and `len` (an `Index`) so that each
search the agent makes is answered through a policy of `agents.policies`:

- ``self-rag``: the search's hits, less those the LLM judges irrelevant to the agent's query.
- ``corag``: CoRAG's rounds of sub-queries for the agent's query, each searched at the same k.

The policy's LLM calls are counted in `usage` and `calls`, apart from the agent's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openapi_rag.agents.policies import (
    CORAG_BUDGET,
    POLICIES,
    SELF_RAG_THRESHOLD,
    CoRAG,
    PolicyResult,
    SelfRAGFilter,
)
from openapi_rag.llm.base import LLM, Usage

__all__ = ["POLICIES", "PolicyIndex"]

_CORAG_K = 5  # hits per CoRAG round when the search asks for "auto" or all


class PolicyIndex:
    """`index` searched through `policy` (``self-rag`` or ``corag``), judged by `llm`.

    Args:
        index: the searched index (`search(query, k=)`, `show(operation)`, `len`).
        policy: ``self-rag`` or ``corag``.
        llm: the judge (Self-RAG) or the sub-query writer and judge (CoRAG).
        threshold: Self-RAG's lowest kept score; budget: CoRAG's most rounds.

    Raises:
        ValueError: an unknown policy.
    """

    def __init__(
        self,
        index: Any,
        policy: str,
        llm: LLM,
        *,
        threshold: float = SELF_RAG_THRESHOLD,
        budget: int = CORAG_BUDGET,
    ) -> None:
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
        self.index = index
        self.policy = policy
        self.llm = llm
        self.threshold = threshold
        self.budget = budget
        self.usage = Usage()
        self.calls = 0
        self.results: list[PolicyResult] = []

    def search(self, query: str, *, k: int | str = 10) -> Sequence[Any]:
        if self.policy == "self-rag":
            result = SelfRAGFilter(self.llm, threshold=self.threshold).filter(
                query, self.index.search(query, k=k)
            )
        else:
            rounds_k = k if isinstance(k, int) else _CORAG_K
            corag = CoRAG(self.llm, lambda q, n: self.index.search(q, k=n), k=rounds_k, budget=self.budget)
            result = corag.run(query)
        self.usage = self.usage + result.usage
        self.calls += result.calls
        self.results.append(result)
        return result.hits

    def show(self, operation: str) -> dict[str, Any]:
        return dict(self.index.show(operation))

    def __len__(self) -> int:
        return len(self.index)
