"""More vectors per chunk than the store's one: short views, and a second embedder's view.

Two uses, both computed when the index is built and stored beside the store's vectors:

- **Short views, max-pooled** (`views/`, `SearchSettings.view_pool`): the `compact` line of an
  operation carries its summary, a description sentence, the tag's sentence, its parameters and
  response fields; one vector of all of it is a blur of several statements, and a query saying one
  of them in other words sits far from the mean. Each short statement (`metadata["views"]`, written
  by the chunker) gets its own vector from the same embedder, and a chunk's dense score is its best
  over its line and its views (multi-vector retrieval, as in ColBERT's MaxSim over sentences rather
  than tokens). The query's vector is the one the dense search already has: no extra query cost
  but one product per view.
- **A second embedder** (`static/`, `SearchSettings.static_weight`): another model (the static
  `wordllama`, or `minilm-users`, fine-tuned on requests in users' words: `openapi-rag index
  --second-embedder`) embeds each chunk's line; its list is a third one in the hybrid fusion.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from openapi_rag.embed import Embedder, EmbeddingCache, embed_with_cache, get_embedder
from openapi_rag.embed.minilm import INT8_MODEL_ID as MINILM_INT8_ID
from openapi_rag.embed.minilm import MODEL_ID as MINILM_ID
from openapi_rag.errors import IndexDamaged
from openapi_rag.model import Chunk
from openapi_rag.search.settings import SearchSettings
from openapi_rag.store.base import Ranked, rank
from openapi_rag.store.integrity import read_json
from openapi_rag.store.products import inner_products

logger = logging.getLogger(__name__)

VIEWS = "views"
"""`Chunk.metadata` key of a chunk's short views (texts), and the index folder of their vectors."""
STATIC_DIR = "static"
VECTORS_NPY = "vectors.npy"
NO_SECOND = "none"
"""`openapi-rag index --second-embedder none`: drop the index's second embedder."""
QUERY_MEMO = 256
"""Query texts whose second-embedder vectors a `ViewVectors` keeps (a search's clauses, reused when
it deepens); past it the memo starts afresh."""
SECOND_EMBEDDER_WEIGHT = 1.25
"""`SearchSettings.static_weight` an index gets with a second embedder, unless its settings give
one: minilm-users beside the default won the tuning halves most at 1.25 of .5 / 1 / 1.25 on every
text, and of 1 / 1.25 / 1.5 / 2 on clauses and focused intents (`SearchSettings.static_scope`, README
"The fine-tuned embedder as a second list")."""
META_JSON = "view.json"
DEFAULT_SECOND = "minilm-users"
"""The second embedder a new index directory gets beside the default embedder (`minilm`): its list,
on clauses and focused intents (`SearchSettings.static_scope` "intents"), won the tuning halves
(+.014 mean R@5 + MRR) and lost no reporting half by more than .01 (worst −.002; README "The
fine-tuned embedder as a second list"). Other first embedders get none: it was measured beside
MiniLM only."""


SECOND_OF = {MINILM_ID: DEFAULT_SECOND, MINILM_INT8_ID: "minilm-users-q8"}
"""The second embedder each first embedder gets: the same arithmetic as the first's."""


def default_second(embedder_id: str) -> str | None:
    """The second embedder an index whose first embedder is `embedder_id` gets by default."""
    return SECOND_OF.get(embedder_id)


def with_second_weight(settings: SearchSettings) -> SearchSettings:
    """`settings` for an index that gets a second embedder: its list read at
    `SECOND_EMBEDDER_WEIGHT` unless the settings give a weight of their own."""
    return settings if settings.static_weight else settings.replace(static_weight=SECOND_EMBEDDER_WEIGHT)


class ViewVectors:
    """Vectors of chunks, several rows per chunk allowed, searched by exact inner product (numpy).

    Args:
        ids: the chunk id of each row of `vectors` (a chunk may have several rows).
        vectors: L2-normalised rows, float32.
        embedder: embeds query texts when the rows come from another embedder than the store's
            (None: the caller passes the store embedder's query vector).
        made_by: the cache key of the embedder that made the rows, as recorded (`load`); None: the
            rows are `embedder`'s own (just embedded, or an index written before it was recorded).
    """

    def __init__(
        self,
        ids: Sequence[str],
        vectors: np.ndarray,
        embedder: Embedder | None = None,
        *,
        made_by: str | None = None,
    ):
        if len(ids) != len(vectors):
            raise ValueError(f"{len(ids)} ids for {len(vectors)} vectors")
        self.ids = np.asarray(list(ids), dtype=object)
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.embedder = embedder
        self.made_by = made_by
        self._rows: dict[str, list[int]] | None = None
        self._queries: dict[str, np.ndarray] = {}  # this embedder's vectors of recent query texts

    @property
    def stale(self) -> bool:
        """Whether the rows were made by other weights than `embedder` has now (a package upgrade
        that ships a retrained model): its query vectors would be compared with another model's,
        so searches leave this list out until an update re-embeds it."""
        return (
            self.embedder is not None and self.made_by is not None and self.made_by != self.embedder.cache_key
        )

    def embed_queries(self, texts: Sequence[str]) -> list[np.ndarray]:
        """This embedder's vectors of `texts`, the new ones embedded in one batch and kept: a
        request's clauses are searched one by one, and a search that deepens asks for them again."""
        if self.embedder is None:
            raise ValueError("this view has no embedder of its own: pass the query vector")
        known = self._queries
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            fresh = dict(zip(missing, self.embedder.embed_many(missing), strict=True))
            kept = (
                known
                if len(known) + len(missing) <= QUERY_MEMO
                else {t: known[t] for t in texts if t in known}
            )
            known = {**kept, **fresh}  # when full, it starts over from this request's texts
            self._queries = known  # swapped in whole: a concurrent search reads the old one or this one
        return [known[t] for t in texts]

    def remember(self, texts: Sequence[str], vectors: Sequence[np.ndarray]) -> None:
        """Keep this embedder's vectors of query `texts`, computed elsewhere (one run of both
        models, `embed/minilm_pair.py`), for `embed_queries`."""
        if not texts:
            return
        fresh = dict(zip(texts, vectors, strict=True))
        known = self._queries
        kept = known if len(known) + len(fresh) <= QUERY_MEMO else {}
        self._queries = {**kept, **fresh}  # swapped in whole, as in `embed_queries`

    def __len__(self) -> int:
        return len(self.ids)

    @classmethod
    def of_views(
        cls, embedder: Embedder, chunks: Sequence[Chunk], *, cache: bool = True
    ) -> ViewVectors | None:
        """The vectors of the chunks' short views (`metadata["views"]`), None when no chunk has any.
        Through the embedding cache: an update re-embeds only new views."""
        ids = [c.id for c in chunks for _ in c.metadata.get(VIEWS) or ()]
        if not ids:
            return None
        texts = [str(text) for c in chunks for text in c.metadata.get(VIEWS) or ()]
        if not cache:
            return cls(ids, embedder.embed_many(texts))
        with EmbeddingCache(embedder.cache_key) as store:
            return cls(ids, embed_with_cache(embedder, texts, store))

    @classmethod
    def of_embedder(
        cls, embedder: str | Embedder, chunks: Sequence[Chunk], *, cache: bool = False
    ) -> ViewVectors:
        """Another embedder's vectors of the chunks' `embed_text`, one per chunk; through the
        embedding cache with `cache` (a transformer's update then embeds only new chunks; a static
        model is cheaper than a cache read)."""
        from openapi_rag.index.index import embed_chunks  # index imports this module

        model = get_embedder(embedder) if isinstance(embedder, str) else embedder
        if not chunks:
            return cls([], np.zeros((0, model.dimensions or 0), dtype=np.float32), model)
        return cls([c.id for c in chunks], embed_chunks(model, chunks, cache=cache), model)

    def search(
        self,
        k: int,
        *,
        text: str | None = None,
        vector: np.ndarray | None = None,
        allowed: Sequence[str] | None = None,
    ) -> Ranked:
        """The `k` best chunks, each at its best row's score (only chunks in `allowed` when given).
        The query is `vector` (the store embedder's) or, with an embedder of its own, `text`."""
        if not len(self.ids) or k <= 0:
            return []
        if self.embedder is not None:
            if text is None:
                raise ValueError("this view embeds its own queries: pass the text")
            vector = self.embed_queries([text])[0]
        if vector is None:
            raise ValueError("pass the query vector")
        if allowed is None:
            rows = None
            scores = inner_products(vector, self.vectors)  # in this thread (`store/products.py`)
        else:
            rows = np.asarray([r for c in allowed for r in self._rows_of().get(c, ())], dtype=np.int64)
            scores = inner_products(vector, self.vectors[rows])
        # Rows of one chunk compete for places: take more than k rows, then the best per chunk.
        wanted = min(len(scores), k * 4)
        top = (
            np.argpartition(-scores, wanted - 1)[:wanted] if wanted < len(scores) else np.arange(len(scores))
        )
        best: dict[str, float] = {}
        for i in top[np.argsort(-scores[top], kind="stable")]:
            chunk_id = self.ids[i if rows is None else rows[i]]
            if chunk_id not in best:
                best[chunk_id] = float(scores[i])
        return rank(best.items())[:k]

    def _rows_of(self) -> dict[str, list[int]]:
        if self._rows is None:
            self._rows = {}
            for row, chunk_id in enumerate(self.ids):
                self._rows.setdefault(chunk_id, []).append(row)
        return self._rows

    def save(self, folder: Path) -> None:
        """Write the vectors and their ids (and the embedder, when it is not the store's) to `folder`."""
        folder.mkdir(parents=True, exist_ok=True)
        np.save(folder / VECTORS_NPY, self.vectors)
        meta: dict[str, object] = {"embedder": None, "ids": list(self.ids)}
        if self.embedder is not None:
            # The name says which model; `vectors_of` (its cache key: the weights' digest where a
            # model has one) says which version of it made the rows, checked by `load`.
            meta.update(embedder=self.embedder.model_id, vectors_of=self.made_by or self.embedder.cache_key)
        (folder / META_JSON).write_text(json.dumps(meta), "utf-8")

    @classmethod
    def load(cls, folder: Path, chunk_ids: Sequence[str], *, directory: Path) -> ViewVectors | None:
        """The vectors saved in `folder`, or None when there are none; marked `stale` (with a
        warning) when the embedder they name now has other weights than the ones that made them
        (a package upgrade that ships a retrained `minilm-users`).

        Raises:
            IndexDamaged: the files disagree with each other or name chunks the index lacks.
        """
        if not (folder / META_JSON).is_file():
            return None
        meta = read_json(folder / META_JSON, dict, directory=directory)
        try:
            vectors = np.load(folder / VECTORS_NPY, allow_pickle=False)
            ids, name = meta["ids"], meta["embedder"]
        except (OSError, ValueError, KeyError) as exc:
            raise IndexDamaged(folder, f"cannot be read ({type(exc).__name__})", directory=directory) from exc
        if (
            not isinstance(ids, list)
            or vectors.ndim != 2
            or len(ids) != len(vectors)
            or not set(ids) <= set(chunk_ids)
            or not (name is None or isinstance(name, str))
        ):
            raise IndexDamaged(folder, "does not match the index's chunks", directory=directory)
        if not name:
            return cls(ids, vectors, None)
        from openapi_rag.index.consent import embedder_from_manifest  # index imports this module

        model = embedder_from_manifest(name, where=directory)  # remote: only if configured
        made_by = meta.get("vectors_of")  # absent in indexes written before it was recorded
        loaded = cls(ids, vectors, model, made_by=made_by if isinstance(made_by, str) else None)
        if loaded.stale:
            logger.warning(
                "%s: the second list was embedded by another version of %s (%s, now %s); searches leave "
                "it out until `openapi-rag index SPECS --index %s` re-embeds it",
                folder,
                name,
                made_by,
                model.cache_key,
                directory,
            )
        return loaded


def pooled(dense: Ranked, views: Ranked) -> Ranked:
    """Each chunk at its best score over its own vector (`dense`) and its views, best first."""
    best = dict(dense)
    for chunk_id, score in views:
        if score > best.get(chunk_id, float("-inf")):
            best[chunk_id] = score
    return rank(best.items())
