"""`PgVectorStore`: the chunks of one collection in PostgreSQL, searched with pgvector.

One view of one committed state ("generation") of a collection: the ids are read once when the
view is made, and the `Index` runs each search inside a repeatable-read snapshot of that same
generation (`pg_index.py`), so the BM25 index, the ids and every row read agree.

Dense search orders by cosine distance (`<=>`) over the collection's HNSW index (`vector_cosine_ops`,
a partial index per collection on `embedding::vector(dims)`); vectors are normalised on the way in,
so `1 - distance` is the same cosine similarity FAISS returns. HNSW is approximate: `ef_search`
(raised to k + slack for deep fetches) trades speed for recall. Filtered searches are exact: the
ORDER BY is written so the HNSW index cannot serve it and PostgreSQL sorts the rows that pass
(found through the btree on service), as FAISS does for filtered searches.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from openapi_rag.model import Chunk
from openapi_rag.store.base import Ranked, as_matrix, normalized, rank
from openapi_rag.store.filters import ChunkFilter, chunk_tags
from openapi_rag.store.pg_connect import CHUNKS, Database

DEFAULT_EF_SEARCH = 200
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
# pgvector's largest ef_search; a deeper fetch is answered exactly (a sort over the collection).
MAX_EF_SEARCH = 1000
_TIE_SLACK = 8  # as FaissStore: fetch past k so that ties at the cut are ordered by id
CHUNK_CACHE_SIZE = 50_000  # chunks kept per view (a few hundred MB at most)


def hnsw_index_name(collection_id: int) -> str:
    return f"{CHUNKS}_hnsw_{int(collection_id)}"


class PgVectorStore:
    """The chunks of collection `collection_id` as of one generation.

    Args:
        db: the connection pool.
        collection_id: the collection's row id.
        dimensions: vector length (fixed per collection).
        ids: every chunk id of this generation (read in the same snapshot as the rest of the view).
        ef_search: HNSW candidate list size (recall against speed).
    """

    def __init__(
        self,
        db: Database,
        collection_id: int,
        dimensions: int,
        ids: Sequence[str],
        *,
        ef_search: int = DEFAULT_EF_SEARCH,
    ):
        self.db = db
        self.collection_id = int(collection_id)
        self._dimensions = int(dimensions)
        self._ids = list(ids)
        self._id_set = set(self._ids)
        self.ef_search = ef_search
        # Chunks read so far. A view never changes (a new generation gets a new view), so they stay
        # valid; without it every search parsed the JSON of a few hundred rows again (~6x FAISS).
        self._cache: dict[str, Chunk] = {}

    # ---- basic facts -------------------------------------------------------------------------

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in self._id_set

    def __repr__(self) -> str:
        return f"PgVectorStore(collection_id={self.collection_id}, dimensions={self._dimensions}, count={len(self)})"

    def ids(self) -> list[str]:
        return list(self._ids)

    def _sql(self, text: str) -> Any:
        """`text` with {t}, {cid}, {dims} filled in: our table name and integers, never user input."""
        from psycopg import sql

        return sql.SQL(text).format(
            t=sql.Identifier(CHUNKS), cid=sql.Literal(self.collection_id), dims=sql.SQL(str(self._dimensions))
        )

    # ---- writing (inside the writer's transaction, see pg_index.py) ----------------------------

    def add(self, ids: Sequence[str], vectors: np.ndarray, chunks: Sequence[Chunk]) -> None:
        """Insert new chunks with their (normalised) vectors.

        Raises:
            ValueError: lengths disagree, `ids[i] != chunks[i].id`, or an id is already stored.
        """
        ids = list(ids)
        matrix = normalized(as_matrix(vectors, self._dimensions, "vectors"))
        if not (len(ids) == matrix.shape[0] == len(chunks)):
            raise ValueError(f"got {len(ids)} ids, {matrix.shape[0]} vectors and {len(chunks)} chunks")
        if any(i != c.id for i, c in zip(ids, chunks, strict=True)):
            raise ValueError("ids and chunks disagree")
        clash = sorted({i for i in ids if i in self._id_set} | {i for i, n in Counter(ids).items() if n > 1})
        if clash:
            raise ValueError(
                f"chunk ids already stored or repeated: {', '.join(clash[:5])}; remove them first"
            )
        from psycopg.types.json import Json

        with self.db.connection() as conn, conn.cursor() as cur:
            copy_sql = self._sql(
                "COPY {t} (collection_id, chunk_id, service, kind, tags, data, embedding) FROM STDIN"
            )
            with cur.copy(copy_sql) as copy:
                for chunk, vector in zip(chunks, matrix, strict=True):
                    copy.write_row(
                        (
                            self.collection_id,
                            chunk.id,
                            chunk.service,
                            chunk.kind,
                            chunk_tags(chunk),
                            Json(chunk.to_dict()),
                            vector,
                        )
                    )
        self._ids.extend(ids)
        self._id_set.update(ids)

    def remove(self, ids: Iterable[str]) -> int:
        """Delete chunks by id (unknown ids are ignored); returns how many were removed."""
        doomed = [i for i in dict.fromkeys(ids) if i in self._id_set]
        if not doomed:
            return 0
        with self.db.connection() as conn:
            conn.execute(
                self._sql("DELETE FROM {t} WHERE collection_id = {cid} AND chunk_id = ANY(%s)"), (doomed,)
            )
        gone = set(doomed)
        for chunk_id in gone:
            self._cache.pop(chunk_id, None)
        self._ids = [i for i in self._ids if i not in gone]
        self._id_set -= gone
        return len(doomed)

    # ---- reading -------------------------------------------------------------------------------

    def get(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """The chunks, in the order asked; KeyError names unknown ids."""
        if not chunk_ids:
            return []
        cache = self._cache
        wanted = [i for i in dict.fromkeys(chunk_ids) if i not in cache]
        found = {i: cache[i] for i in chunk_ids if i in cache}
        if wanted:
            with self.db.connection() as conn:
                rows = conn.execute(
                    self._sql(
                        "SELECT chunk_id, data FROM {t} WHERE collection_id = {cid} AND chunk_id = ANY(%s)"
                    ),
                    (wanted,),
                ).fetchall()
            if len(cache) > CHUNK_CACHE_SIZE:
                cache.clear()
            for chunk_id, data in rows:
                found[chunk_id] = cache[chunk_id] = Chunk.from_dict(data)
        missing = [i for i in chunk_ids if i not in found]
        if missing:
            raise KeyError(f"unknown chunk ids: {', '.join(missing[:5])}")
        return [found[i] for i in chunk_ids]

    def get_vectors(self, chunk_ids: Sequence[str]) -> np.ndarray:
        if not chunk_ids:
            return np.zeros((0, self._dimensions), dtype=np.float32)
        with self.db.connection() as conn:
            rows = conn.execute(
                self._sql(
                    "SELECT chunk_id, embedding FROM {t} WHERE collection_id = {cid} AND chunk_id = ANY(%s)"
                ),
                (list(dict.fromkeys(chunk_ids)),),
            ).fetchall()
        # pgvector's loader gives `Vector` objects (numpy arrays in older versions of the adapter).
        found = {
            chunk_id: np.asarray(getattr(v, "to_numpy", lambda v=v: v)(), dtype=np.float32)
            for chunk_id, v in rows
        }
        missing = [i for i in chunk_ids if i not in found]
        if missing:
            raise KeyError(f"unknown chunk ids: {', '.join(missing[:5])}")
        return np.stack([found[i] for i in chunk_ids]).astype(np.float32)

    def chunks(self, batch_size: int = 2000) -> Iterator[Chunk]:
        """Every chunk, by id (pages of `batch_size`, so a large collection is never read at once)."""
        last = ""
        while True:
            with self.db.connection() as conn:
                rows = conn.execute(
                    self._sql(
                        "SELECT chunk_id, data FROM {t} WHERE collection_id = {cid} AND chunk_id > %s "
                        "ORDER BY chunk_id LIMIT %s"
                    ),
                    (last, batch_size),
                ).fetchall()
            for _, data in rows:
                yield Chunk.from_dict(data)
            if len(rows) < batch_size:
                return
            last = rows[-1][0]

    def _where(self, flt: ChunkFilter | None) -> tuple[str, list[Any]]:
        if flt is None or flt.is_empty:
            return "", []
        clauses, params = [], []
        if flt.services is not None:
            clauses.append("service = ANY(%s)")
            params.append(sorted(flt.services))
        if flt.kinds is not None:
            clauses.append("kind = ANY(%s)")
            params.append(sorted(flt.kinds))
        if flt.tags is not None:
            clauses.append("tags && %s::text[]")
            params.append(sorted(flt.tags))
        return " AND " + " AND ".join(clauses), params

    def select(self, filter: ChunkFilter) -> list[str]:
        """Ids of the chunks passing `filter`, by id."""
        where, params = self._where(filter)
        with self.db.connection() as conn:
            rows = conn.execute(
                self._sql(
                    "SELECT chunk_id FROM {t} WHERE collection_id = {cid}" + where + " ORDER BY chunk_id"
                ),
                params,
            ).fetchall()
        return [row[0] for row in rows]

    # ---- search --------------------------------------------------------------------------------

    def search(self, query_vectors: np.ndarray, k: int, filter: ChunkFilter | None = None) -> list[Ranked]:
        """The `k` nearest chunks by cosine similarity for each query row, score descending then id."""
        queries = normalized(as_matrix(query_vectors, self._dimensions, "query vectors"))
        if k <= 0 or not self._ids:
            return [[] for _ in range(len(queries))]
        fetch = min(len(self._ids), k + _TIE_SLACK)
        exact = (filter is not None and not filter.is_empty) or fetch > MAX_EF_SEARCH
        where, params = self._where(filter)
        # `+ 0` keeps the HNSW index out of an exact search (it serves only the bare expression).
        distance = "(embedding::vector({dims}) <=> %s::vector({dims}))" + (" + 0" if exact else "")
        query = self._sql(
            "SELECT chunk_id, 1 - (embedding::vector({dims}) <=> %s::vector({dims})) FROM {t} "
            "WHERE collection_id = {cid}" + where + " ORDER BY " + distance + " LIMIT %s"
        )
        results = []
        with self.db.connection() as conn:
            if not exact:
                self._set_ef_search(conn, max(self.ef_search, fetch))
            for vector in queries:
                depth = fetch
                while True:
                    rows = conn.execute(query, [vector, *params, vector, depth]).fetchall()
                    ranked = rank((chunk_id, float(score)) for chunk_id, score in rows)
                    # Ties reaching past what was fetched: the id order needs all of them (as FaissStore).
                    tied = len(ranked) > k and ranked[-1][1] == ranked[k - 1][1]
                    if not (tied and len(rows) == depth and depth < len(self._ids)):
                        break
                    depth = min(len(self._ids), depth * 2)
                    if not exact:
                        self._set_ef_search(conn, max(self.ef_search, depth))
                results.append(ranked[:k])
        return results

    @staticmethod
    def _set_ef_search(conn: Any, ef_search: int) -> None:
        value = str(min(MAX_EF_SEARCH, ef_search))
        if getattr(conn, "_openapi_rag_ef", None) != value:  # a session setting: set once per connection
            conn.execute("SELECT set_config('hnsw.ef_search', %s, false)", (value,))
            conn._openapi_rag_ef = value
