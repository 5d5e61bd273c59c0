"""Search result records: small frozen dataclasses that serialise with `dataclasses.asdict`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from openapi_rag.model import Chunk


@dataclass(frozen=True)
class Hit:
    """One chunk returned by a search.

    Attributes:
        chunk_id: the chunk's id.
        score: the ranking score of the mode used (cosine for dense, BM25 for bm25, RRF for hybrid);
            for a chunk pulled in by link expansion, the score of the hit that pulled it in.
        service: the chunk's service.
        kind: endpoint | schema | errors | security | document.
        operations: `METHOD /path` ids the chunk covers.
        dense_score: cosine similarity, when the dense retriever returned the chunk.
        bm25_score: BM25 score, when the lexical retriever returned the chunk.
        linked_from: for link-expanded chunks, the id of the hit chunk that referenced it.
    """

    chunk_id: str
    score: float
    service: str = ""
    kind: str = ""
    operations: tuple[str, ...] = ()
    dense_score: float | None = None
    bm25_score: float | None = None
    linked_from: str | None = None

    @classmethod
    def of(cls, chunk: Chunk, score: float, **extra: Any) -> Hit:
        """A hit for `chunk`, copying its service, kind and operations; `extra`: `dense_score`,
        `bm25_score`, `linked_from`. Built without a frozen dataclass's `__init__` (one
        `object.__setattr__` per field): a search makes one per chunk it reads, hundreds a query."""
        if not extra.keys() <= _HIT_EXTRA:
            raise TypeError(f"Hit.of() got unexpected fields {sorted(extra.keys() - _HIT_EXTRA)}")
        hit = cls.scored(chunk, score, None, None)
        hit.__dict__.update(extra)
        return hit

    @classmethod
    def scored(cls, chunk: Chunk, score: float, dense_score: float | None, bm25_score: float | None) -> Hit:
        """`Hit.of(chunk, score, dense_score=..., bm25_score=...)` without its keyword check: half
        the time, for the ~600 hits a long query's search makes."""
        hit = object.__new__(cls)
        hit.__dict__.update(
            chunk_id=chunk.id,
            score=score,
            service=chunk.service,
            kind=chunk.kind,
            operations=tuple(chunk.operations),
            dense_score=dense_score,
            bm25_score=bm25_score,
            linked_from=None,
        )
        return hit

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_HIT_EXTRA = frozenset({"dense_score", "bm25_score", "linked_from"})


@dataclass(frozen=True)
class OperationHit:
    """One operation (service + `METHOD /path`), at the score of its best chunk.

    Attributes:
        service, method, path: the operation's identity; `id` is `METHOD /path`.
        score: the best score among the chunks crediting it (same scale as `Hit.score`).
        summary: the operation's summary when the chunk metadata carries one.
        chunk_ids: every chunk that credited it, best first.
        dense_score, bm25_score: the best of those over its chunks (None when no chunk had one).
        linked: chunks pulled in by link expansion (schemas, errors, security), in order.
        also_in: other services carrying this operation word for word, folded into this hit
            (`duplicates.fold_duplicates`).
    """

    service: str
    method: str
    path: str
    id: str
    score: float
    summary: str = ""
    chunk_ids: tuple[str, ...] = ()
    dense_score: float | None = None
    bm25_score: float | None = None
    linked: tuple[Hit, ...] = field(default=())
    also_in: tuple[str, ...] = ()

    @property
    def qualified_id(self) -> str:
        return f"{self.service} {self.id}"

    @classmethod
    def of(
        cls,
        *,
        service: str,
        method: str,
        path: str,
        id: str,
        score: float,
        summary: str,
        chunk_ids: tuple[str, ...],
        dense_score: float | None,
        bm25_score: float | None,
    ) -> OperationHit:
        """A hit with no linked chunks and no copies: equal to the constructor's, built without a
        frozen dataclass's `__init__` (one `object.__setattr__` per field), for the hundreds of
        hits `aggregate_operations` makes per query."""
        hit = object.__new__(cls)
        hit.__dict__.update(
            service=service,
            method=method,
            path=path,
            id=id,
            score=score,
            summary=summary,
            chunk_ids=chunk_ids,
            dense_score=dense_score,
            bm25_score=bm25_score,
            linked=(),
            also_in=(),
        )
        return hit

    def with_score(self, score: float) -> OperationHit:
        """This hit at another score: equal to `dataclasses.replace(self, score=score)`, without
        its walk over the fields and `__init__` (about ten times faster; rescoring copies a few
        hundred hits a query)."""
        return self._replaced(score=score)

    def with_summary(self, summary: str) -> OperationHit:
        """This hit with another summary: equal to `dataclasses.replace(self, summary=summary)`."""
        return self._replaced(summary=summary)

    def with_copies(self, services: tuple[str, ...]) -> OperationHit:
        """This hit naming `services` after its `also_in`: equal to `dataclasses.replace(self,
        also_in=(*self.also_in, *services))`, built as `with_score` is (folding copies makes
        ~130 a query on the realworld index)."""
        return self._replaced(also_in=(*self.also_in, *services))

    def _replaced(self, **changes: Any) -> OperationHit:
        """`dataclasses.replace(self, **changes)` for fields that need no check, without its walk
        over the fields and the frozen `__init__`."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__, **changes)
        return copy

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SearchResults:
    """What one query returns.

    Attributes:
        operations: ranked operations, each once.
        linked: non-operation chunks the query matched directly (schema, errors, security, or
            documentation not tied to an operation), ranked, after the same cut as `operations`.
        chunks: the ranked chunk hits the operations were aggregated from (for chunk-level evaluation).
        mode: dense | bm25 | hybrid.
    """

    operations: tuple[OperationHit, ...]
    linked: tuple[Hit, ...] = ()
    chunks: tuple[Hit, ...] = ()
    mode: str = "hybrid"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
