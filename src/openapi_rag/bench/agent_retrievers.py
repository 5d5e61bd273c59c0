"""Retriever factories that put an LLM in the loop, for `openapi-rag eval --agent` / `--policy`.

- `AgentRetrieverFactory`: the Discovery Agent searches the index and its endpoints are the result.
- `PolicyRetrieverFactory`: an index search, then the Self-RAG filter or CoRAG (`agents.policies`).

Both build the index like `IndexRetrieverFactory` (one build per group, strategy and embedder) and
read the search mode from the configuration's mode, which may carry a label that keeps their
cached results apart from plain retrieval's: ``agent:hybrid`` searches in ``hybrid``. The LLM's
token cost per query is kept in `usage_records` (queries answered from the evaluation cache cost
nothing and have no record); `write_usage` appends it to a CSV beside the report, so the file
sums up the LLM cost of every run into that folder.

The LLM runs once per query: the runner's depth-k and ``auto`` requests share one run, and the
list is cut at each k afterwards.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openapi_rag.agents.discovery import DiscoveryAgent
from openapi_rag.agents.policies import CORAG_BUDGET, POLICIES, SELF_RAG_THRESHOLD, CoRAG, SelfRAGFilter
from openapi_rag.bench.retrievers import (
    IndexRetriever,
    IndexRetrieverFactory,
    RetrievedOp,
    RunConfig,
    build_index,
)
from openapi_rag.chunking.llm_runtime import LazyLLM
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm import LLM, Usage
from openapi_rag.model import Service

__all__ = [
    "POLICIES",
    "AgentRetriever",
    "AgentRetrieverFactory",
    "PolicyRetriever",
    "PolicyRetrieverFactory",
    "search_mode",
]

USAGE_COLUMNS = (
    "strategy", "embedder", "mode", "query", "prompt_tokens", "completion_tokens", "calls", "stop",
    "parse_failures",
)  # fmt: skip


def search_mode(mode: str) -> str:
    """The index search mode of a configuration mode: ``agent:hybrid`` -> ``hybrid``."""
    return mode.rpartition(":")[2]


def _default_build(services: list[Service], config: RunConfig) -> Any:
    return build_index(services, config)  # looked up at call time, so tests can swap it


class _ModeIndex:
    """An index searched in one mode, remembering each hit so endpoints map back to services."""

    def __init__(self, index: Any, mode: str) -> None:
        self.index = index
        self.mode = mode
        self.hits: dict[str, Any] = {}

    def search(self, query: str, *, k: int | str = 10) -> list[Any]:
        hits = list(self.index.search(query, k=k, mode=self.mode, expand=False))
        for hit in hits:
            self.hits.setdefault(hit.id, hit)
        return hits

    def show(self, operation: str) -> dict[str, Any]:
        return dict(self.index.show(operation))

    def __len__(self) -> int:
        return len(self.index)


class _LLMRetriever:
    """Shared parts: the index in one mode, token counting, usage records, one LLM run per query."""

    def __init__(self, index: Any, config: RunConfig, llm: LLM, records: list[dict[str, Any]]) -> None:
        self.config = config
        self.llm = llm
        self.records = records
        self.view = _ModeIndex(index, search_mode(config.mode))
        self._tokens = IndexRetriever(index, self.view.mode)._tokens
        self._memo: dict[Any, list[RetrievedOp]] = {}

    def _op(self, op_id: str, rank: int) -> RetrievedOp:
        hit = self.view.hits.get(op_id)
        if hit is not None:
            service, tokens = str(hit.service), self._tokens(hit)
        else:  # found by `show` only: its service from the definition, no chunk to count
            try:
                service = str(self.view.show(op_id).get("service", ""))
            except OpenAPIRagError:
                service = ""
            tokens = 0
        return RetrievedOp(service=service, id=op_id, score=1.0 / (rank + 1), tokens=tokens)

    def _record(self, query: str, usage: Usage, calls: int, stop: str, parse_failures: int = 0) -> None:
        self.records.append(
            {
                **self.config.to_dict(),
                "query": query,
                "prompt_tokens": usage.prompt_tokens,
                "completion_tokens": usage.completion_tokens,
                "calls": calls,
                "stop": stop,
                "parse_failures": parse_failures,
            }
        )


class AgentRetriever(_LLMRetriever):
    """The Discovery Agent's endpoints for each query, in its order."""

    def __init__(
        self,
        index: Any,
        config: RunConfig,
        llm: LLM,
        records: list[dict[str, Any]],
        *,
        k: int = 10,
        max_steps: int = 10,
    ) -> None:
        super().__init__(index, config, llm, records)
        self.agent = DiscoveryAgent(llm, self.view, k=k, max_steps=max_steps)

    def search(self, query: str, k: int | None) -> list[RetrievedOp]:
        if query not in self._memo:
            result = self.agent.run(query)
            self._record(query, result.usage, result.steps, result.stop)
            self._memo[query] = [self._op(e, i) for i, e in enumerate(result.endpoints)]
        ops = self._memo[query]
        return ops if k is None else ops[:k]


class PolicyRetriever(_LLMRetriever):
    """An index search followed by the Self-RAG filter, or CoRAG's rounds of sub-queries."""

    def __init__(
        self,
        index: Any,
        config: RunConfig,
        llm: LLM,
        records: list[dict[str, Any]],
        *,
        policy: str,
        threshold: float = SELF_RAG_THRESHOLD,
        budget: int = CORAG_BUDGET,
        corag_k: int = 5,
    ) -> None:
        if policy not in POLICIES:
            raise OpenAPIRagError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
        super().__init__(index, config, llm, records)
        self.policy = policy
        self.filter = SelfRAGFilter(llm, threshold=threshold)
        self.corag = CoRAG(llm, lambda q, n: self.view.search(q, k=n), k=corag_k, budget=budget)

    def search(self, query: str, k: int | None) -> list[RetrievedOp]:
        # Self-RAG filters what was retrieved at this k; CoRAG chooses its own list once per query.
        key = (query, k) if self.policy == "self-rag" else query
        if key not in self._memo:
            if self.policy == "self-rag":
                result = self.filter.filter(query, self.view.search(query, k="auto" if k is None else k))
            else:
                result = self.corag.run(query)
            self._record(query, result.usage, result.calls, result.stop, result.parse_failures)
            self._memo[key] = [self._op(h.id, i) for i, h in enumerate(result.hits)]
        ops = self._memo[key]
        return ops if k is None else ops[:k]


class _LLMFactory(IndexRetrieverFactory):
    def __init__(
        self, llm: LLM | str | None, build: Callable[[list[Service], RunConfig], Any] | None
    ) -> None:
        super().__init__(build or _default_build)
        self._llm = LazyLLM(llm)
        self.usage_records: list[dict[str, Any]] = []

    @property
    def llm(self) -> LLM:
        """The model, loaded on first use (None or a name: `get_llm`)."""
        return self._llm.get()

    def _index_for(self, services: list[Service], config: RunConfig) -> Any:
        return super().__call__(services, config).index

    def total_usage(self) -> Usage:
        total = Usage()
        for record in self.usage_records:
            total = total + Usage(record["prompt_tokens"], record["completion_tokens"])
        return total

    def write_usage(self, path: str | Path) -> Path:
        """Append the per-query LLM token records to a CSV (a resumed run adds what it searched)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not path.exists() or path.stat().st_size == 0
        with path.open("a", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=USAGE_COLUMNS)
            if fresh:
                writer.writeheader()
            writer.writerows(self.usage_records)
        return path


class AgentRetrieverFactory(_LLMFactory):
    """``(services, config) -> AgentRetriever``: the Discovery Agent over each group's index.

    Args:
        llm: an `LLM`, a name for `get_llm`, or None for the configured model.
        build: builds the index (default `retrievers.build_index`).
        k: endpoints per agent search; max_steps: the agent's step budget.
    """

    def __init__(
        self,
        llm: LLM | str | None = None,
        *,
        build: Callable[[list[Service], RunConfig], Any] | None = None,
        k: int = 10,
        max_steps: int = 10,
    ) -> None:
        super().__init__(llm, build)
        self.k = k
        self.max_steps = max_steps

    def __call__(self, services: list[Service], config: RunConfig) -> AgentRetriever:  # type: ignore[override]
        return AgentRetriever(
            self._index_for(services, config),
            config,
            self.llm,
            self.usage_records,
            k=self.k,
            max_steps=self.max_steps,
        )


class PolicyRetrieverFactory(_LLMFactory):
    """``(services, config) -> PolicyRetriever``: index search, then Self-RAG or CoRAG.

    Args:
        policy: ``self-rag`` or ``corag``.
        llm: an `LLM`, a name for `get_llm`, or None for the configured model.
        build: builds the index (default `retrievers.build_index`).
        threshold: Self-RAG's lowest kept score; budget, corag_k: CoRAG's rounds and hits per round.
    """

    def __init__(
        self,
        policy: str,
        llm: LLM | str | None = None,
        *,
        build: Callable[[list[Service], RunConfig], Any] | None = None,
        threshold: float = SELF_RAG_THRESHOLD,
        budget: int = CORAG_BUDGET,
        corag_k: int = 5,
    ) -> None:
        if policy not in POLICIES:
            raise OpenAPIRagError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
        super().__init__(llm, build)
        self.policy = policy
        self.threshold = threshold
        self.budget = budget
        self.corag_k = corag_k

    def __call__(self, services: list[Service], config: RunConfig) -> PolicyRetriever:  # type: ignore[override]
        return PolicyRetriever(
            self._index_for(services, config),
            config,
            self.llm,
            self.usage_records,
            policy=self.policy,
            threshold=self.threshold,
            budget=self.budget,
            corag_k=self.corag_k,
        )
