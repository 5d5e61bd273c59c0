"""Plain baselines: what a retriever with none of the project's query pipeline finds.

`openapi-rag eval --plain` ranks each strategy's chunk texts against the whole query, nothing else:

- ``dense``: cosine similarity between the query's vector and each chunk's (the configured embedder,
  through the embedding cache);
- ``bm25``: BM25 (`bm25s`, Lucene's variant, English stop words) over the same texts.

No clause splitting, dependency lifting, verb rules or fusion: the floor the default has to clear
("above both plain baselines", issue 18). A chunk scores its operations; an operation keeps its best
chunk. `k=None` ("auto") has no meaning without a cut-off rule: it returns the top 10.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from openapi_rag.bench.retrievers import DEFAULT_EMBEDDER, RetrievedOp, RunConfig, split_llm
from openapi_rag.embed.base import normalize_rows
from openapi_rag.model import Service

PLAIN_MODES = ("dense", "bm25")
AUTO_K = 10


class PlainRetriever:
    """Ranks operations by the best score of their chunks, whole query against chunk text."""

    def __init__(self, chunks: list[Any], mode: str, embedder: Any = None, vectors: Any = None) -> None:
        if mode not in PLAIN_MODES:
            raise ValueError(f"plain baselines are {', '.join(PLAIN_MODES)}, not {mode!r}")
        self.mode = mode
        self.chunks = chunks
        self.embedder = embedder
        self.vectors = vectors
        self.bm25: Any = None
        if mode == "bm25":
            import bm25s

            self.bm25 = bm25s.BM25()
            self.bm25.index(bm25s.tokenize([c.embed_text for c in chunks], stopwords="en", show_progress=False),
                            show_progress=False)  # fmt: skip

    def search(self, query: str, k: int | None) -> list[RetrievedOp]:
        scores = self._scores(query)
        best: dict[tuple[str, str], float] = {}
        for i in np.argsort(-scores, kind="stable"):
            chunk = self.chunks[int(i)]
            for op in chunk.operations:
                best.setdefault((chunk.service, op), float(scores[i]))
            if len(best) >= (k or AUTO_K):
                break
        ranked = list(best.items())[: k or AUTO_K]
        return [RetrievedOp(service=s, id=op, score=score) for (s, op), score in ranked]

    def _scores(self, query: str) -> np.ndarray:
        if self.mode == "dense":
            vector = np.asarray(self.embedder.embed(query), dtype=np.float32)
            return np.asarray(self.vectors @ (vector / (np.linalg.norm(vector) or 1.0)))
        import bm25s

        tokens = bm25s.tokenize([query], stopwords="en", return_ids=False, show_progress=False)[0]
        if not tokens:  # only stop words: nothing matches
            return np.zeros(len(self.chunks))
        return np.asarray(self.bm25.get_scores(tokens))


class PlainRetrieverFactory:
    """Chunks (and, for dense, embeds) each group once per strategy and embedder; modes share them."""

    def __init__(self) -> None:
        self._key: tuple[Any, ...] | None = None
        self._chunks: list[Any] = []
        self._vectors: Any = None
        self._embedder: Any = None

    def __call__(self, services: list[Service], config: RunConfig) -> PlainRetriever:
        from openapi_rag.chunking import chunk_services
        from openapi_rag.chunking.llm_strategies import default_llm

        mode = config.mode.removeprefix("plain:")
        key = (tuple(id(s) for s in services), config.strategy, config.embedder)
        if key != self._key:
            strategy, llm = split_llm(config.strategy)  # `summary@LLM` (eval --llm), as build_index reads it
            with default_llm(llm):
                self._chunks = [c for c in chunk_services(services, strategy) if c.operations]
            self._vectors, self._embedder, self._key = None, None, key
        if mode == "dense" and self._vectors is None:
            from openapi_rag.embed import get_embedder
            from openapi_rag.index.index import embed_chunks

            name = None if config.embedder == DEFAULT_EMBEDDER else config.embedder
            self._embedder = get_embedder(name) if name else get_embedder()
            self._vectors = normalize_rows(embed_chunks(self._embedder, self._chunks))
        return PlainRetriever(self._chunks, mode, self._embedder, self._vectors)
