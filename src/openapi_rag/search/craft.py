"""CRAFT multi-view search over an index built with the `craft` strategy.

The index holds three chunks per operation, one per view (`chunking.llm_strategies.CRAFT_VIEWS`:
LLM summary, endpoint name, the operation's own description). A query is searched once per view,
restricted to that view's chunks, in the asked mode (dense, bm25 or hybrid, each with the
searcher's clauses and dependency lifting), and the three ranked operation lists vote
(`agents.craft.craft_vote`): an operation is returned once two views hold it, in the order the
views came to agree on it.

- `k=N`: exactly N operations (fewer only when the index holds fewer). The views are searched
  `depth_factor * N` deep (at least `min_depth`) and twice as deep again while their votes fall
  short, so agreement is found however far down the lists it lies. The answer at k is the first k
  of the answer at any larger k.
- `k="auto"`: each view keeps what its own scores call relevant (the searcher's `k="auto"`), and
  the operations at least two of those short lists agree on are returned; when they agree on
  none, the first operation of the `k=1` vote.
- `threshold=X`: each view keeps the operations with a chunk of cosine >= X; those two agree on.

An operation hit's `score` is the mean of its scores in the views that returned it (the order is
the vote's, not the score's); `chunk_ids` are its chunks in those views. The views' chunks all
return the same content (the operation), so a caller counting context tokens counts one of them.
Chunks have no linked schema/errors chunks in this strategy: `expand` adds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from openapi_rag.agents.craft import craft_vote
from openapi_rag.chunking.llm_strategies import CRAFT_VIEWS
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.results import Hit, OperationHit, SearchResults
from openapi_rag.search.searcher import AUTO, Searcher, check_k
from openapi_rag.search.settings import SearchSettings
from openapi_rag.store.base import VectorStore
from openapi_rag.store.filters import ChunkFilter

if TYPE_CHECKING:
    from openapi_rag.search.timing import StageTimes

__all__ = ["CraftSearcher"]

OpKey = tuple[str, str]


class _MemoEmbed:
    """An embed function remembering the texts of one query, so its views embed it once."""

    def __init__(self, embed: Callable[[list[str]], np.ndarray]) -> None:
        self.embed = embed
        self.vectors: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        if missing:
            self.vectors.update(zip(missing, np.asarray(self.embed(missing)), strict=True))
        return np.stack([self.vectors[t] for t in texts])


class CraftSearcher:
    """Searches each CRAFT view and returns what the views agree on.

    Example:
        >>> searcher = CraftSearcher(store, bm25, embed=embedder.embed_many)   # doctest: +SKIP
        >>> [op.id for op in searcher.search("create a playlist", k=3).operations]  # doctest: +SKIP

    Args:
        store, bm25: the index's chunks (built with strategy `craft`).
        embed: texts -> their embeddings (2-D), for dense and hybrid modes.
        views: chunk kinds of the views, in voting order.
        min_votes: views an operation must be in.
        depth_factor, min_depth: how deep the views are first searched for k operations.
        **options: passed to the per-view `Searcher` (fusion, weights, clauses, dependencies...).
    """

    def __init__(
        self,
        store: VectorStore,
        bm25: BM25Index | None = None,
        *,
        embed: Callable[[list[str]], np.ndarray] | None = None,
        views: Sequence[str] = tuple(CRAFT_VIEWS.values()),
        min_votes: int = 2,
        depth_factor: int = 2,
        min_depth: int = 20,
        **options: object,
    ) -> None:
        self._memo = _MemoEmbed(embed) if embed is not None else None
        self.searcher = Searcher(store, bm25, embed=self._memo, **options)  # type: ignore[arg-type]
        self.views = list(views)
        self.min_votes = min_votes
        self.depth_factor = max(1, depth_factor)
        self.min_depth = max(1, min_depth)

    @property
    def settings(self) -> SearchSettings:
        """The per-view searcher's settings."""
        return self.searcher.settings

    @property
    def timer(self) -> StageTimes | None:
        """The per-view searcher's stage timer (`timing.py`): `bench search --slowest` sets it here."""
        return self.searcher.timer

    @timer.setter
    def timer(self, timer: StageTimes | None) -> None:
        self.searcher.timer = timer

    def configure(self, settings: SearchSettings | None = None, **changes: object) -> SearchSettings:
        """Search each view with other settings from now on (`Searcher.configure`)."""
        return self.searcher.configure(settings, **changes)

    def search(
        self,
        query: str | None = None,
        query_vector: np.ndarray | None = None,
        *,
        mode: str = "hybrid",
        k: int | str = 10,
        threshold: float | None = None,
        filter: ChunkFilter | None = None,
        expand: bool = False,
    ) -> SearchResults:
        """The operations the views agree on; arguments as in `Searcher.search`.

        Raises:
            ValueError: as `Searcher.search` (unknown mode, missing input, bad k).
        """
        check_k(k)
        if self._memo is not None:
            self._memo.vectors.clear()  # one query's texts at a time
        views = [v for v in self.views if filter is None or filter.kinds is None or v in filter.kinds]
        if not views:
            return SearchResults(operations=(), mode=mode)
        votes = min(self.min_votes, len(views))

        def run(depth: int | str) -> list[SearchResults]:
            return [
                self.searcher.search(
                    query,
                    query_vector,
                    mode=mode,
                    k=depth,
                    threshold=threshold,
                    filter=_with_kind(filter, view),
                )
                for view in views
            ]

        if threshold is not None or k == AUTO:
            lists = run(AUTO)  # with a threshold, k is not used
            voted = craft_vote(_keys(lists), len(self.searcher.store), min_votes=votes)
            if not voted and threshold is None:
                lists = run(self.min_depth)  # the views agree on nothing they call relevant
                voted = craft_vote(_keys(lists), 1, min_votes=votes)
        else:
            limit = int(k)
            depth = max(self.min_depth, limit * self.depth_factor)
            while True:
                lists = run(depth)
                voted = craft_vote(_keys(lists), limit, min_votes=votes)
                complete = all(len(r.operations) < depth for r in lists)
                if len(voted) >= limit or complete or depth >= len(self.searcher.store):
                    break
                depth *= 2
        return SearchResults(
            operations=tuple(_merge(voted, lists)),
            chunks=tuple(hit for r in lists for hit in r.chunks),
            mode=mode,
        )

    def search_chunks(
        self,
        query: str | None = None,
        query_vector: np.ndarray | None = None,
        *,
        mode: str = "hybrid",
        k: int = 10,
        threshold: float | None = None,
        filter: ChunkFilter | None = None,
    ) -> list[Hit]:
        """Chunks of every view ranked together (no voting); arguments as in `Searcher.search_chunks`."""
        return self.searcher.search_chunks(
            query, query_vector, mode=mode, k=k, threshold=threshold, filter=filter
        )


def _with_kind(flt: ChunkFilter | None, kind: str) -> ChunkFilter:
    return replace(flt, kinds=frozenset([kind])) if flt is not None else ChunkFilter.of(kinds=kind)


def _keys(lists: Sequence[SearchResults]) -> list[list[OpKey]]:
    return [[(op.service, op.id) for op in r.operations] for r in lists]


def _merge(voted: Sequence[OpKey], lists: Sequence[SearchResults]) -> list[OperationHit]:
    """One hit per voted operation: the mean of its view scores, its chunks in those views."""
    found: dict[OpKey, list[OperationHit]] = {}
    for results in lists:
        for op in results.operations:
            found.setdefault((op.service, op.id), []).append(op)
    hits = []
    for key in voted:
        ops = found[key]
        dense = [op.dense_score for op in ops if op.dense_score is not None]
        lexical = [op.bm25_score for op in ops if op.bm25_score is not None]
        hits.append(
            replace(
                ops[0],
                score=sum(op.score for op in ops) / len(ops),
                summary=next((op.summary for op in ops if op.summary), ""),
                chunk_ids=tuple(dict.fromkeys(c for op in ops for c in op.chunk_ids)),
                dense_score=max(dense) if dense else None,
                bm25_score=max(lexical) if lexical else None,
                linked=(),
            )
        )
    return hits
