"""Dense, BM25 and hybrid search over a store, aggregated from chunks to operations.

Modes:
    dense   chunks ranked by cosine similarity of their vectors to the query vector.
    bm25    chunks ranked by BM25 over their text (`BM25Index`).
    hybrid  (default) reciprocal rank fusion of the two ranked lists (`fusion.py`).

Top-k: chunk lists are fetched deeper than k (`fetch_factor`) and fetched again twice as deep
while fewer than k operations come out, so k operations are returned whenever the store holds them.

Threshold mode (`threshold=X` instead of top-k) returns every operation with a chunk whose dense
cosine similarity is >= X. In dense mode the score is that similarity. In hybrid mode the cut is the
same (cosine >= X, BM25 scores having no fixed scale), and the surviving chunks keep their fused
RRF scores and order; BM25-only matches do not pass. bm25 mode has no threshold.

Filters (`ChunkFilter`: service, tag, kind) apply inside each retriever, before any cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from openapi_rag.model import Chunk
from openapi_rag.search.aggregate import aggregate_operations
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.fusion import RRF_K, reciprocal_rank_fusion
from openapi_rag.search.links import expand_links
from openapi_rag.search.results import Hit, OperationHit, SearchResults
from openapi_rag.store.base import Ranked, VectorStore
from openapi_rag.store.filters import ChunkFilter

MODES = ("hybrid", "dense", "bm25")


class Searcher:
    """Answers queries over a vector store and (for bm25/hybrid) a BM25 index of the same chunks.

    Example:
        >>> searcher = Searcher(store, bm25)                                  # doctest: +SKIP
        >>> results = searcher.search("create a playlist", embedder.embed(q), k=5)  # doctest: +SKIP
        >>> [op.qualified_id for op in results.operations]                    # doctest: +SKIP
        ['spotify POST /users/{user_id}/playlists', ...]

    Args:
        store: the chunks and their vectors.
        bm25: BM25 index over the same chunk ids (needed for modes bm25 and hybrid); a ValueError
            says when the two disagree.
        rrf_k: the RRF rank constant (60 after Cormack et al. 2009).
        dense_weight, bm25_weight: RRF weights of the two lists in hybrid mode.
        fetch_factor, min_fetch: chunks fetched per retriever for k operations:
            max(min_fetch, k * fetch_factor), doubled while too few operations come out.
    """

    def __init__(
        self,
        store: VectorStore,
        bm25: BM25Index | None = None,
        *,
        rrf_k: int = RRF_K,
        dense_weight: float = 1.0,
        bm25_weight: float = 1.0,
        fetch_factor: int = 5,
        min_fetch: int = 50,
    ):
        if bm25 is not None and (len(bm25) != len(store) or set(bm25.ids()) != set(store.ids())):
            raise ValueError(
                "the BM25 index and the store hold different chunks: rebuild the BM25 index after "
                "changing the store, e.g. BM25Index.from_chunks(store.chunks())"
            )
        self.store = store
        self.bm25 = bm25
        self.rrf_k = rrf_k
        self.dense_weight = dense_weight
        self.bm25_weight = bm25_weight
        self.fetch_factor = max(1, fetch_factor)
        self.min_fetch = max(1, min_fetch)

    def search(
        self,
        query: str | None = None,
        query_vector: np.ndarray | None = None,
        *,
        mode: str = "hybrid",
        k: int = 10,
        threshold: float | None = None,
        filter: ChunkFilter | None = None,
        expand: bool = False,
    ) -> SearchResults:
        """Rank operations for one query.

        Args:
            query: the query text (modes bm25 and hybrid).
            query_vector: the query's embedding, 1-D (modes dense and hybrid).
            mode: "hybrid", "dense" or "bm25".
            k: operations (and linked hits) to return; ignored when `threshold` is set.
            threshold: return every operation whose best chunk has cosine >= threshold instead.
            filter: restrict to services, tags or chunk kinds.
            expand: attach linked schema/errors/security chunks to each operation (`expand_links`).

        Raises:
            ValueError: unknown mode, a missing input the mode needs, or a threshold in bm25 mode.
        """
        self._check(query, query_vector, mode, threshold)
        allowed = None if filter is None or filter.is_empty else self.store.select(filter)
        fetch = max(self.min_fetch, k * self.fetch_factor)
        while True:
            hits, chunks, exhausted = self._chunk_hits(
                query, query_vector, mode, fetch, threshold, filter, allowed
            )
            operations, linked = aggregate_operations(hits, chunks)
            if threshold is not None or len(operations) >= k or exhausted:
                break
            fetch *= 2
        if threshold is None:
            operations, linked = operations[:k], linked[:k]
        if expand:
            operations = self._expand(operations, hits)
        return SearchResults(
            operations=tuple(operations), linked=tuple(linked), chunks=tuple(hits), mode=mode
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
        """Rank chunks (not operations) for one query; arguments as in `search`."""
        self._check(query, query_vector, mode, threshold)
        allowed = None if filter is None or filter.is_empty else self.store.select(filter)
        # Fetch as deep as `search` does, so both rank chunks alike (RRF depends on list depth).
        fetch = max(self.min_fetch, k * self.fetch_factor)
        hits, _, _ = self._chunk_hits(query, query_vector, mode, fetch, threshold, filter, allowed)
        return hits if threshold is not None else hits[:k]

    # ---- internals -----------------------------------------------------------------------------

    def _check(
        self, query: str | None, vector: np.ndarray | None, mode: str, threshold: float | None
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"unknown search mode {mode!r}: use one of {', '.join(MODES)}")
        if mode in ("dense", "hybrid") and vector is None:
            raise ValueError(f"mode {mode!r} needs a query vector")
        if mode in ("bm25", "hybrid"):
            if query is None:
                raise ValueError(f"mode {mode!r} needs the query text")
            if self.bm25 is None:
                raise ValueError(f"mode {mode!r} needs a BM25 index: build one with BM25Index.from_chunks")
        if threshold is not None and mode == "bm25":
            raise ValueError("a threshold applies to cosine similarity: use mode 'dense' or 'hybrid'")

    def _dense(
        self, vector: np.ndarray, fetch: int, threshold: float | None, filter: ChunkFilter | None
    ) -> tuple[Ranked, bool]:
        """Dense hits and whether the list is complete (no deeper fetch could add any)."""
        if threshold is None:
            ranked = self.store.search(vector, fetch, filter)[0]
            return ranked, len(ranked) < fetch
        while True:  # deepen until the similarities drop below the threshold
            ranked = self.store.search(vector, fetch, filter)[0]
            if len(ranked) < fetch or ranked[-1][1] < threshold or fetch >= len(self.store):
                return [pair for pair in ranked if pair[1] >= threshold], True
            fetch *= 2

    def _chunk_hits(
        self,
        query: str | None,
        vector: np.ndarray | None,
        mode: str,
        fetch: int,
        threshold: float | None,
        filter: ChunkFilter | None,
        allowed: list[str] | None,
    ) -> tuple[list[Hit], dict[str, Chunk], bool]:
        """Ranked chunk hits, their chunks by id, and whether fetching deeper could add hits."""
        dense: Ranked = []
        lexical: Ranked = []
        exhausted = True
        if mode != "bm25":
            assert vector is not None  # checked in _check
            dense, complete = self._dense(vector, fetch, threshold, filter)
            exhausted = exhausted and complete
        if mode != "dense":
            assert self.bm25 is not None and query is not None
            depth = max(fetch, len(dense))
            lexical = self.bm25.search(query, depth, allowed=allowed)
            exhausted = exhausted and len(lexical) < depth
        if mode == "dense":
            ranked = dense
        elif mode == "bm25":
            ranked = lexical
        else:
            weights = (self.dense_weight, self.bm25_weight)
            ranked = reciprocal_rank_fusion([dense, lexical], weights=weights, k=self.rrf_k)
        dense_scores, bm25_scores = dict(dense), dict(lexical)
        if threshold is not None:
            ranked = [(i, s) for i, s in ranked if i in dense_scores]
        chunks = {c.id: c for c in self.store.get([chunk_id for chunk_id, _ in ranked])}
        hits = [
            Hit.of(
                chunks[chunk_id],
                score,
                dense_score=dense_scores.get(chunk_id),
                bm25_score=bm25_scores.get(chunk_id),
            )
            for chunk_id, score in ranked
        ]
        return hits, chunks, exhausted

    def _expand(self, operations: Sequence[OperationHit], hits: Sequence[Hit]) -> list[OperationHit]:
        by_id = {hit.chunk_id: hit for hit in hits}
        cache: dict[str, Any] = {}
        expanded = []
        for op in operations:
            own = [by_id[chunk_id] for chunk_id in op.chunk_ids]
            linked = expand_links(own, self.store, cache=cache)[len(own) :]
            expanded.append(replace(op, linked=tuple(linked)))
        return expanded
