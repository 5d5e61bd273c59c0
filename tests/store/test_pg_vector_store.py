"""`PgVectorStore` against `FaissStore` on the same vectors: rankings, ties, filters, reads, removal."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from openapi_rag.model import Chunk
from openapi_rag.store import ChunkFilter, FaissStore
from openapi_rag.store.pg_connect import COLLECTIONS, Database, connect, ensure_schema
from openapi_rag.store.pg_target import PgTarget
from openapi_rag.store.pg_write import _create_index_sql
from openapi_rag.store.pgvector_store import PgVectorStore

DIM = 16


@pytest.fixture
def stores(
    pg_target: PgTarget, make_chunk: Callable[..., Chunk], unit_rows: Callable[..., np.ndarray]
) -> Iterator[tuple[PgVectorStore, FaissStore, Any]]:
    from pgvector.psycopg import register_vector

    chunks = [
        make_chunk(f"{s}{i:02d}", service=s, tags=["even" if i % 2 == 0 else "odd"])
        for s in "ab"
        for i in range(40)
    ]
    vectors = unit_rows(len(chunks), DIM, seed=3)
    vectors[1] = vectors[0]  # exact ties: the order must fall back to the id, on both stores
    vectors[2] = vectors[0]
    conn = connect(pg_target)
    ensure_schema(conn, pg_target)
    register_vector(conn)
    cid = conn.execute(
        f"INSERT INTO {COLLECTIONS} (name, embedder, dimensions, manifest) VALUES (%s, 'test', %s, '{{}}') "
        "RETURNING id",
        (pg_target.collection, DIM),
    ).fetchone()[0]
    db = Database(pg_target)
    pg = PgVectorStore(db, cid, DIM, [])
    with db.bind(conn):
        pg.add([c.id for c in chunks], vectors, chunks)
    conn.execute(_create_index_sql(cid, DIM))
    faiss = FaissStore(DIM)
    faiss.add([c.id for c in chunks], vectors, chunks)
    yield pg, faiss, conn
    conn.close()
    db.close()


def _ids(ranked: list[tuple[str, float]]) -> list[str]:
    return [chunk_id for chunk_id, _ in ranked]


def test_rankings_and_scores_match_faiss_with_ties_and_filters(
    stores: tuple[PgVectorStore, FaissStore, Any], unit_rows: Callable[..., np.ndarray]
) -> None:
    pg, faiss, _ = stores
    queries = unit_rows(5, DIM, seed=9)
    queries[0] = faiss.get_vectors(["a00"])[0]  # hits the three tied vectors first
    for flt in (
        None,
        ChunkFilter.of(services="b"),
        ChunkFilter.of(tags="even"),
        ChunkFilter.of(services="a", tags="odd"),
    ):
        for k in (1, 2, 5, 30):
            got, want = pg.search(queries, k, flt), faiss.search(queries, k, flt)
            assert [_ids(r) for r in got] == [_ids(r) for r in want], (flt, k)
            for g, w in zip(got, want, strict=True):
                assert np.allclose([s for _, s in g], [s for _, s in w], atol=1e-5)
    assert _ids(pg.search(queries[0], 2)[0]) == ["a00", "a01"]  # tied at 1.0: by id


def test_reads_and_removal(stores: tuple[PgVectorStore, FaissStore, Any]) -> None:
    pg, faiss, conn = stores
    assert len(pg) == len(faiss) == 80 and "b07" in pg and "zz" not in pg
    assert [c.to_dict() for c in pg.get(["b03", "a10"])] == [c.to_dict() for c in faiss.get(["b03", "a10"])]
    assert np.allclose(pg.get_vectors(["a05", "b05"]), faiss.get_vectors(["a05", "b05"]), atol=1e-6)
    assert pg.select(ChunkFilter.of(services="a", tags="odd")) == sorted(
        faiss.select(ChunkFilter.of(services="a", tags="odd"))
    )
    assert [c.id for c in pg.chunks(batch_size=7)] == sorted(faiss.ids())
    with pytest.raises(KeyError, match="unknown chunk ids: nope"):
        pg.get(["a01", "nope"])
    with pytest.raises(ValueError, match="already stored"):
        pg.add(["a01"], np.ones((1, DIM)), pg.get(["a01"]))
    with pg.db.bind(conn):
        assert pg.remove(["a00", "a01", "nope"]) == 2
    faiss.remove(["a00", "a01"])
    query = faiss.get_vectors(["a02"])[0]
    assert _ids(pg.search(query, 3)[0]) == _ids(faiss.search(query, 3)[0])
    assert "a00" not in pg and len(pg) == 78


def test_both_stores_refuse_the_same_bad_vectors_in_the_same_words(
    stores: tuple[PgVectorStore, FaissStore, Any],
) -> None:
    """The shape and finiteness checks are one helper (`store.base.as_matrix`) for both backends."""
    pg, faiss, _ = stores
    new = [Chunk.from_dict({**pg.get(["a01"])[0].to_dict(), "id": "new"})]
    for bad, message in (
        (np.ones((1, DIM + 1)), rf"vectors must have shape \(n, {DIM}\), got \(1, {DIM + 1}\)"),
        (np.full((1, DIM), np.nan), "vectors contain NaN or infinite values"),
    ):
        for store in (pg, faiss):
            with pytest.raises(ValueError, match=message):
                store.add(["new"], bad, new)
    for store in (pg, faiss):
        with pytest.raises(ValueError, match=rf"query vectors must have shape \(n, {DIM}\), got \({DIM - 1},\)"):
            store.search(np.ones(DIM - 1), 3)
        with pytest.raises(ValueError, match="query vectors contain NaN or infinite values"):
            store.search(np.full(DIM, np.inf), 3)
    assert len(pg) == len(faiss) == 80  # nothing went in


def test_one_pool_per_database_each_closed_before_a_fork(pg_target: PgTarget) -> None:
    """`database_for` is the one registry of pools: readers and writers of a DSN share one, and the
    fork hook closes exactly those (a forked `serve` worker must not use the parent's sockets)."""
    from openapi_rag.store import pg_connect

    db = pg_connect.database_for(pg_target)
    assert pg_connect.database_for(PgTarget(pg_target.dsn, "another-collection")) is db
    with db.connection() as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
    assert db._pool is not None
    pg_connect._close_pools_before_fork()
    assert db._pool is None
    with db.connection() as conn:  # opened again on first use
        assert conn.execute("SELECT 2").fetchone() == (2,)
