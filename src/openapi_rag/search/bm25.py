"""Lexical search: BM25 over chunk texts, with the API-aware tokenizer.

BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and Beyond", 2009) scored
by `bm25s` (X. H. Lù, "BM25S: Orders of magnitude faster lexical search via eager sparse scoring",
2024), which precomputes every (document, term) score into a sparse matrix.

BM25 statistics (idf, average length) depend on the whole corpus and bm25s cannot delete
documents, so the index is immutable: when chunks change, build a new one (a tokenisation pass;
no embedding involved). Saved layout, in its own directory:

    bm25.json       format version, tokenizer settings, count
    ids.json        chunk ids in document order
    *.index.*       bm25s's own files (params, vocabulary, sparse score matrix)
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Self

import numpy as np

from openapi_rag import __version__
from openapi_rag.errors import IndexMismatch
from openapi_rag.model import Chunk
from openapi_rag.search.tokenize import ApiTokenizer
from openapi_rag.store.atomic import atomic_dir, resolve_dir
from openapi_rag.store.base import Ranked, rank

logger = logging.getLogger(__name__)

LENGTH_NORMALISATION = 0.9
"""BM25's b. Above the usual .75 because endpoint texts differ in length for reasons unrelated to
relevance (a long description, a long response-field list): RestBench R@10 .832 → .842 and P@5
.302 → .307, SOCBench-D within +.002 (values from .85 to 1.0 all did as well; ablation in the
README)."""
FORMAT = "openapi-rag-bm25"
FORMAT_VERSION = 1
BM25_JSON = "bm25.json"
IDS_JSON = "ids.json"
BM25_TEXT = "bm25_text"  # chunk metadata key: the text to index instead of embed_text
JARGON_TEXT = "jargon_text"  # chunk metadata key: the lexicon's user words, a list of their own
_BM25S_PARAMS = "params.index.json"  # bm25s's own file; absent when the corpus had no token


class BM25Index:
    """An immutable BM25 index over chunk ids and texts.

    Example:
        >>> bm25 = BM25Index.from_chunks(chunks)            # doctest: +SKIP
        >>> bm25.search("list my playlists", k=5)           # doctest: +SKIP
        [('spotify:GET /me/playlists', 7.1), ...]

    Build with `build` or `from_chunks`, or open with `load`.
    """

    def __init__(self, ids: Sequence[str], model: Any, tokenizer: ApiTokenizer):
        self._ids = list(ids)
        self._position = {chunk_id: pos for pos, chunk_id in enumerate(self._ids)}
        self._model = model  # a bm25s.BM25, or None when the corpus has no token at all
        self.tokenizer = tokenizer

    @classmethod
    def build(
        cls,
        ids: Sequence[str],
        texts: Sequence[str],
        *,
        tokenizer: ApiTokenizer | None = None,
        k1: float = 1.5,
        b: float = LENGTH_NORMALISATION,
        method: str = "lucene",
    ) -> BM25Index:
        """Index `texts[i]` under `ids[i]`.

        Args:
            ids: unique chunk ids.
            texts: the text to match (usually `Chunk.embed_text`).
            tokenizer: defaults to `ApiTokenizer()`.
            k1, b: BM25 term-saturation and length-normalisation parameters (`LENGTH_NORMALISATION`).
            method: bm25s scoring variant ("lucene", "robertson", "atire", "bm25l", "bm25+").
        """
        if len(ids) != len(texts):
            raise ValueError(f"got {len(ids)} ids and {len(texts)} texts")
        if len(set(ids)) != len(ids):
            raise ValueError("chunk ids must be unique")
        tokenizer = tokenizer or ApiTokenizer()
        corpus_tokens = tokenizer.tokenize_many(texts)
        model = None
        if any(corpus_tokens):  # bm25s cannot index a corpus without a single token
            import bm25s  # imported here: it costs ~0.5 s and dense-only searches never need it

            model = bm25s.BM25(k1=k1, b=b, method=method)
            model.index(corpus_tokens, show_progress=False)
        return cls(ids, model, tokenizer)

    @classmethod
    def from_chunks(
        cls,
        chunks: Iterable[Chunk],
        *,
        field: str = "embed_text",
        tokenizer: ApiTokenizer | None = None,
        b: float = LENGTH_NORMALISATION,
    ) -> BM25Index:
        """Index chunks by one of their text fields ("embed_text" or "content").

        With "embed_text", a chunk whose `metadata["bm25_text"]` is set (strategy `compact`) is
        indexed by that text instead: a strategy may embed a short text and match a fuller one.
        """
        if field not in ("embed_text", "content"):
            raise ValueError(f"field must be 'embed_text' or 'content', not {field!r}")
        chunks = list(chunks)
        texts = [
            (c.metadata.get(BM25_TEXT) or c.embed_text) if field == "embed_text" else c.content
            for c in chunks
        ]
        return cls.build([c.id for c in chunks], texts, tokenizer=tokenizer, b=b)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in self._position

    def ids(self) -> list[str]:
        return list(self._ids)

    def scores(self, query: str) -> np.ndarray:
        """BM25 score of every document for `query`, aligned with `ids()` (0 where nothing matches)."""
        token_ids = self._model.get_tokens_ids(self.tokenizer(query)) if self._model is not None else []
        if not token_ids:
            return np.zeros(len(self._ids), dtype=np.float32)
        return np.asarray(self._model.get_scores_from_ids(token_ids), dtype=np.float32)

    def search(self, query: str, k: int, *, allowed: Iterable[str] | None = None) -> Ranked:
        """The `k` best-scoring chunks for `query`; only chunks sharing a term with it are returned.

        Args:
            query: free text, tokenised like the corpus.
            k: how many results at most.
            allowed: when given, only these chunk ids may be returned (a filter, applied before the cut).

        Returns:
            `(chunk_id, score)` by score descending, then chunk id.
        """
        scores = self.scores(query)
        if allowed is not None and len(scores):
            mask = np.zeros(len(scores), dtype=bool)
            mask[[self._position[i] for i in allowed if i in self._position]] = True
            scores = np.where(mask, scores, 0)
        positive = np.flatnonzero(scores > 0)
        if k <= 0 or not len(positive):
            return []
        if len(positive) > k:
            # Keep every document tied with the k-th score, so the id tie-break sees all of them.
            kth = np.partition(scores[positive], len(positive) - k)[len(positive) - k]
            positive = positive[scores[positive] >= kth]
        return rank((self._ids[pos], float(scores[pos])) for pos in positive)[:k]

    # ---- persistence ---------------------------------------------------------------------------

    def save(self, directory: str | Path, *, atomic: bool = True) -> None:
        """Write the index to `directory` (atomically unless `atomic=False`, see `FaissStore.save`)."""
        if atomic:
            with atomic_dir(directory) as tmp:
                self._write(tmp)
        else:
            Path(directory).mkdir(parents=True, exist_ok=True)
            self._write(Path(directory))

    def _write(self, directory: Path) -> None:
        if self._model is not None:
            self._model.save(directory, show_progress=False)
        (directory / IDS_JSON).write_text(json.dumps(self._ids, ensure_ascii=False), encoding="utf-8")
        meta = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "library_version": __version__,
            "count": len(self._ids),
            "tokenizer": self.tokenizer.to_dict(),
        }
        (directory / BM25_JSON).write_text(json.dumps(meta, indent=2), encoding="utf-8")

    @classmethod
    def load(cls, directory: str | Path, *, mmap: bool = False) -> Self:
        """Open an index written by `save`.

        Raises:
            IndexNotFound: no complete BM25 index in `directory`.
            IndexMismatch: written by a newer format version, or its files disagree.
        """
        path = resolve_dir(directory, required=(BM25_JSON, IDS_JSON))
        meta = json.loads((path / BM25_JSON).read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT or int(meta.get("format_version", 0)) > FORMAT_VERSION:
            raise IndexMismatch(
                f"{path} holds a BM25 index this openapi-rag ({__version__}) cannot read: "
                "upgrade openapi-rag or rebuild the index with `openapi-rag index`"
            )
        ids = json.loads((path / IDS_JSON).read_text(encoding="utf-8"))
        model = None
        if (path / _BM25S_PARAMS).exists():
            import bm25s

            model = bm25s.BM25.load(path, mmap=mmap, show_progress=False)
            if model.scores["num_docs"] != len(ids):
                raise IndexMismatch(f"{path} is inconsistent: rebuild it with `openapi-rag index`")
        return cls(ids, model, ApiTokenizer.from_dict(meta["tokenizer"]))
