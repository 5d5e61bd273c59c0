"""What the evaluation runner searches through: a small `Retriever` protocol and its factories.

The runner never builds indexes itself. It asks a factory ``make_retriever(services, config)`` for
a retriever over one group's services and one configuration of the grid, so anything that returns
ranked operations can be evaluated (the project's `Index`, an agent, a user's own system):

    def make_retriever(services: list[Service], config: RunConfig) -> Retriever: ...

`make_index_retriever` builds an `openapi_rag.index.Index`; `IndexRetrieverFactory` does the same
but keeps the last index, so the modes of one (group, strategy, embedder) share one build.
A custom factory is named on the command line as ``--retriever package.module:function``.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.model import Service

DEFAULT_EMBEDDER = "default"
CONTEXT_TOKENIZER = "o200k_base"  # GPT-4o's tokenizer, the one the paper's token counts use


@dataclass(frozen=True)
class RetrievedOp:
    """One retrieved operation.

    Attributes:
        service: the id of its service.
        id: `METHOD /path`.
        score: the retriever's score (only the order matters to the metrics).
        tokens: tokens of the context handed to the LLM for it (its returned content).
    """

    service: str
    id: str
    score: float = 0.0
    tokens: int = 0

    @property
    def qualified_id(self) -> str:
        return f"{self.service} {self.id}"


@runtime_checkable
class Retriever(Protocol):
    """Ranked operations for a query. ``k=None`` lets the retriever decide how many (``--k auto``)."""

    def search(self, query: str, k: int | None) -> list[RetrievedOp]: ...


@dataclass(frozen=True, order=True)
class RunConfig:
    """One point of the grid: chunking strategy, embedding model, search mode."""

    strategy: str
    embedder: str = DEFAULT_EMBEDDER
    mode: str = "dense"

    def to_dict(self) -> dict[str, str]:
        return {"strategy": self.strategy, "embedder": self.embedder, "mode": self.mode}


RetrieverFactory = Callable[[list[Service], RunConfig], Retriever]


def grid(strategies: Sequence[str], embedders: Sequence[str], modes: Sequence[str]) -> list[RunConfig]:
    """Every combination, ordered so the modes of one (strategy, embedder) follow each other."""
    if not strategies or not embedders or not modes:
        raise ValueError("the grid needs at least one strategy, one embedder and one mode")
    return [
        RunConfig(s, e, m)
        for s, e, m in itertools.product(
            distinct_str(strategies), distinct_str(embedders), distinct_str(modes)
        )
    ]


def distinct_str(values: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in values if v.strip()))


# --------------------------------------------------------------------------- the project's Index


class IndexRetriever:
    """A `Retriever` over an `openapi_rag.index.Index` in one search mode."""

    def __init__(self, index: Any, mode: str) -> None:
        self.index = index
        self.mode = mode

    def search(self, query: str, k: int | None) -> list[RetrievedOp]:
        results = self.index.search(query, k="auto" if k is None else k, mode=self.mode, expand=False)
        hits = getattr(results, "operations", results)
        return [
            RetrievedOp(service=hit.service, id=hit.id, score=float(hit.score), tokens=self._tokens(hit))
            for hit in hits
        ]

    def _tokens(self, hit: Any) -> int:
        """What an LLM pays for a hit: o200k_base (GPT-4o) tokens of the content of the chunks it
        was found by (the returned content, which for `fields` or LLM strategies is not the embedded text)."""
        tokens = getattr(hit, "tokens", None)
        if tokens is not None:
            return int(tokens)
        store = getattr(self.index, "store", None)
        chunk_ids = list(getattr(hit, "chunk_ids", ()) or ())
        if store is None or not chunk_ids:
            return 0
        from openapi_rag.tokens import get_tokenizer

        # Distinct contents: the windows of an LLM strategy, and CRAFT's three views of an
        # operation, all return the same operation, which is handed over once.
        contents = list(dict.fromkeys(c.content for c in store.get(chunk_ids)))
        return sum(get_tokenizer(CONTEXT_TOKENIZER).count_many(contents))


def split_llm(strategy: str) -> tuple[str, str | None]:
    """``summary@openai:gpt-4o-mini`` -> ``("summary", "openai:gpt-4o-mini")``; no ``@``: no LLM named."""
    name, at, llm = strategy.partition("@")
    return name, (llm or None) if at else None


def build_index(services: list[Service], config: RunConfig) -> Any:
    """An in-memory `Index` of `services` built with the config's strategy and embedder.

    A strategy written ``NAME@LLM`` (`eval --llm`) has its texts written by that LLM; the
    configuration keeps the label, so its results are cached apart from other models'.
    """
    from openapi_rag.chunking.llm_strategies import default_llm
    from openapi_rag.index import Index

    embedder = None if config.embedder == DEFAULT_EMBEDDER else config.embedder
    strategy, llm = split_llm(config.strategy)
    with default_llm(llm):
        return Index.build(services, strategy=strategy, embedder=embedder)


def make_index_retriever(services: list[Service], config: RunConfig) -> Retriever:
    """The default factory: build an `Index` over `services` and search it in `config.mode`."""
    return IndexRetriever(build_index(services, config), config.mode)


class IndexRetrieverFactory:
    """`make_index_retriever` that reuses the last index while only the mode changes.

    The runner asks for the configurations of a group in grid order, so dense, bm25 and hybrid
    share one build. Only one index is held at a time.
    """

    def __init__(self, build: Callable[[list[Service], RunConfig], Any] = build_index) -> None:
        self._build = build
        self._key: tuple[Any, ...] | None = None
        self._index: Any = None
        self.builds = 0

    def __call__(self, services: list[Service], config: RunConfig) -> Retriever:
        key = (tuple(id(s) for s in services), config.strategy, config.embedder)
        if key != self._key:
            self._index, self._key = None, None  # free the old index before building the next
            self._index = self._build(services, config)
            self._key = key
            self.builds += 1
        return IndexRetriever(self._index, config.mode)


def load_factory(spec: str) -> RetrieverFactory:
    """The factory named ``package.module:function``.

    A class whose constructor takes no arguments is instantiated (an instance holding state, like
    `IndexRetrieverFactory`); any other class is a factory itself (``Class(services, config)``).
    """
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise OpenAPIRagError(f"--retriever {spec!r}: write it as package.module:function")
    try:
        target = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise OpenAPIRagError(f"--retriever {spec!r}: cannot import it ({exc})") from exc
    factory = target() if isinstance(target, type) and _takes_no_arguments(target) else target
    if not callable(factory):
        raise OpenAPIRagError(f"--retriever {spec!r} is not callable")
    return factory  # type: ignore[no-any-return]


def _takes_no_arguments(cls: type) -> bool:
    try:
        params = inspect.signature(cls).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


def available_strategies() -> list[str]:
    """Every chunking strategy the registry knows (for ``--strategies all``)."""
    try:
        from openapi_rag import chunking
    except ImportError as exc:
        raise OpenAPIRagError("--strategies all needs the chunking registry (openapi_rag.chunking)") from exc
    for name in ("list_strategies", "strategy_names"):
        lister = getattr(chunking, name, None)
        if callable(lister):
            return list(lister())
    raise OpenAPIRagError("--strategies all: openapi_rag.chunking lists no strategies; name them instead")
