"""Writing PostgreSQL collections: the writer lock, one update in one transaction, copy, list, drop.

See `pg_index.py` for what a collection holds and how readers stay consistent with the writer.
"""

from __future__ import annotations

import tempfile
import time
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.errors import IndexLocked
from openapi_rag.index.index import Index
from openapi_rag.index.manifest import Manifest
from openapi_rag.model import Chunk
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.settings import SearchSettings
from openapi_rag.store.pg_connect import (
    CHUNKS,
    COLLECTIONS,
    FILES,
    LOCK_NAMESPACE,
    SERVICES,
    connect,
    database_for,
    ensure_schema,
    schema_exists,
)
from openapi_rag.store.pg_index import BACKEND, PgIndex, open_collection
from openapi_rag.store.pg_target import PgTarget
from openapi_rag.store.pgvector_store import (
    DEFAULT_EF_SEARCH,
    HNSW_EF_CONSTRUCTION,
    HNSW_M,
    PgVectorStore,
    hnsw_index_name,
)

_POLL_SECONDS = 0.2


def _lock_key(name: str) -> int:
    """The second advisory-lock key of a collection: a stable signed 32-bit hash of its name."""
    value = zlib.crc32(name.encode("utf-8"))
    return value - (1 << 32) if value >= 1 << 31 else value


# ---- writing ----------------------------------------------------------------------------------------


def _holder(conn: Any, key: int) -> str:
    row = conn.execute(
        "SELECT a.application_name, a.client_addr FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s::bigint::oid "
        "AND l.objid = (%s::bigint & 4294967295)::oid LIMIT 1",
        (LOCK_NAMESPACE, key),
    ).fetchone()
    if row is None:
        return "another writer"
    name, addr = row
    return f"{name or 'another client'}" + (f" from {addr}" if addr else "")


@contextmanager
def collection_lock(target: PgTarget, *, wait: bool = False, timeout: float | None = None) -> Iterator[Any]:
    """Hold the writer lock of a collection (a session-level advisory lock) for the block.

    Raises:
        IndexLocked: another writer holds it (and `wait` is off or timed out).
    """
    conn = connect(target)
    key = _lock_key(target.collection)
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (LOCK_NAMESPACE, key)).fetchone()[0]:
            if not wait or (deadline is not None and time.monotonic() >= deadline):
                raise IndexLocked(
                    f"{target} is being updated by {_holder(conn, key)}: wait for it to finish, "
                    "or pass --wait to queue behind it",
                    directory=str(target),
                )
            time.sleep(_POLL_SECONDS)
        try:
            yield conn
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_NAMESPACE, key))
    finally:
        conn.close()


def write_update(
    target: PgTarget,
    *,
    manifest: Manifest,
    existing: PgIndex | None,
    stale_chunk_ids: Sequence[str],
    new_chunks: Sequence[Chunk],
    vectors: np.ndarray,
    records: dict[str, dict[str, Any]],
    bm25_b: float,
) -> None:
    """Commit one update of a collection in ONE transaction (the caller holds `collection_lock`).

    Args:
        manifest: the new manifest (its `store` settings are filled in here).
        existing: the collection as opened before the update; None builds it afresh (replacing any).
        stale_chunk_ids: chunks of changed and removed specs.
        new_chunks, vectors: chunks of new and changed specs, with their vectors.
        records: stored descriptions of new and changed services (the others are kept).
        bm25_b: BM25 length normalisation for the rebuilt lexical index.
    """
    from pgvector.psycopg import register_vector
    from psycopg.types.json import Json

    conn = connect(target, autocommit=True)
    try:
        ensure_schema(conn, target)
        register_vector(conn)
        manifest.store = {
            "backend": BACKEND,
            "hnsw_m": HNSW_M,
            "ef_construction": HNSW_EF_CONSTRUCTION,
            "ef_search": int(
                (existing.manifest.store if existing else {}).get("ef_search", DEFAULT_EF_SEARCH)
            ),
        }
        db = database_for(target)
        with conn.transaction(), db.bind(conn):
            row = conn.execute(
                f"SELECT id FROM {COLLECTIONS} WHERE name = %s FOR UPDATE", (target.collection,)
            ).fetchone()
            fresh = existing is None or row is None or row[0] != existing.collection_id
            if row is not None and fresh:  # --rebuild (or a collection built under our feet): replace it
                conn.execute(_drop_index_sql(row[0]))
                conn.execute(f"DELETE FROM {COLLECTIONS} WHERE id = %s", (row[0],))
            if fresh:
                collection_id = conn.execute(
                    f"INSERT INTO {COLLECTIONS} (name, embedder, dimensions, manifest) VALUES (%s, %s, %s, %s) "
                    "RETURNING id",
                    (target.collection, manifest.embedder, manifest.dimensions, Json(manifest.to_dict())),
                ).fetchone()[0]
                store = PgVectorStore(db, collection_id, manifest.dimensions, [])
            else:
                assert existing is not None
                collection_id = existing.collection_id
                store = PgVectorStore(db, collection_id, manifest.dimensions, existing.store.ids())
                store.remove(stale_chunk_ids)
            if len(new_chunks):
                store.add([c.id for c in new_chunks], vectors, new_chunks)
            if fresh:  # built after the rows went in: one bulk HNSW build instead of row-by-row inserts
                conn.execute("SET LOCAL maintenance_work_mem = '512MB'")
                conn.execute(_create_index_sql(collection_id, manifest.dimensions))
            _write_services(conn, collection_id, manifest, records)
            _write_bm25(conn, collection_id, BM25Index.from_chunks(store.chunks(), b=bm25_b))
            conn.execute(
                f"UPDATE {COLLECTIONS} SET manifest = %s, embedder = %s, dimensions = %s, "
                "generation = generation + 1, updated_at = now() WHERE id = %s",
                (Json(manifest.to_dict()), manifest.embedder, manifest.dimensions, collection_id),
            )
    finally:
        conn.close()


def _create_index_sql(collection_id: int, dimensions: int) -> Any:
    from psycopg import sql

    return sql.SQL(
        "CREATE INDEX {name} ON {t} USING hnsw ((embedding::vector({dims})) vector_cosine_ops) "
        "WITH (m = {m}, ef_construction = {efc}) WHERE collection_id = {cid}"
    ).format(
        name=sql.Identifier(hnsw_index_name(collection_id)),
        t=sql.Identifier(CHUNKS),
        dims=sql.SQL(str(int(dimensions))),
        m=sql.Literal(HNSW_M),
        efc=sql.Literal(HNSW_EF_CONSTRUCTION),
        cid=sql.Literal(int(collection_id)),
    )


def _drop_index_sql(collection_id: int) -> Any:
    from psycopg import sql

    return sql.SQL("DROP INDEX IF EXISTS {name}").format(name=sql.Identifier(hnsw_index_name(collection_id)))


def _write_services(
    conn: Any, collection_id: int, manifest: Manifest, records: dict[str, dict[str, Any]]
) -> None:
    from psycopg.types.json import Json

    keep = [source.service for source in manifest.sources.values()]
    conn.execute(
        f"DELETE FROM {SERVICES} WHERE collection_id = %s AND NOT (service_id = ANY(%s))",
        (collection_id, keep),
    )
    with conn.cursor() as cur:
        cur.executemany(
            f"INSERT INTO {SERVICES} (collection_id, service_id, title, version, record) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (collection_id, service_id) DO UPDATE SET title = EXCLUDED.title, "
            "version = EXCLUDED.version, record = EXCLUDED.record",
            [
                (collection_id, service_id, str(record.get("title") or ""), _version(record), Json(record))
                for service_id, record in records.items()
            ],
        )


def _version(record: dict[str, Any]) -> str:
    info = (record.get("document") or {}).get("info")
    version = info.get("version") if isinstance(info, dict) else None
    return str(version) if version is not None else ""


def _write_bm25(conn: Any, collection_id: int, bm25: BM25Index) -> None:
    conn.execute(f"DELETE FROM {FILES} WHERE collection_id = %s", (collection_id,))
    with tempfile.TemporaryDirectory(prefix="openapi-rag-bm25-") as tmp:
        bm25.save(tmp, atomic=False)
        files = [(collection_id, path.name, path.read_bytes()) for path in sorted(Path(tmp).iterdir())]
    with conn.cursor() as cur:
        cur.executemany(f"INSERT INTO {FILES} (collection_id, name, data) VALUES (%s, %s, %s)", files)


# ---- listing and dropping -------------------------------------------------------------------------


def list_collections(dsn_target: PgTarget) -> list[dict[str, Any]]:
    """Every collection in the database of `dsn_target`: name, embedder, sizes, last update."""
    conn = connect(dsn_target)
    try:
        if not schema_exists(conn):
            return []
        rows = conn.execute(
            f"SELECT c.name, c.embedder, c.dimensions, c.generation, c.updated_at, c.manifest, "
            f"(SELECT count(*) FROM {CHUNKS} k WHERE k.collection_id = c.id) "
            f"FROM {COLLECTIONS} c ORDER BY c.name"
        ).fetchall()
    finally:
        conn.close()
    out = []
    for name, embedder, dimensions, generation, updated_at, manifest, chunks in rows:
        sources = (manifest or {}).get("sources", {})
        out.append(
            {
                "collection": name,
                "embedder": embedder,
                "dimensions": dimensions,
                "strategy": (manifest or {}).get("strategy"),
                "services": len(sources),
                "operations": sum(int(s.get("operations", 0)) for s in sources.values()),
                "chunks": int(chunks),
                "generation": int(generation),
                "updated_at": updated_at.isoformat(),
            }
        )
    return out


def drop_collection(target: PgTarget, *, wait: bool = False) -> bool:
    """Delete a collection and its rows; False when there was none. Waits for (or refuses) a writer."""
    with collection_lock(target, wait=wait) as conn:
        if not schema_exists(conn):
            return False
        with conn.transaction():
            row = conn.execute(
                f"SELECT id FROM {COLLECTIONS} WHERE name = %s FOR UPDATE", (target.collection,)
            ).fetchone()
            if row is None:
                return False
            conn.execute(_drop_index_sql(row[0]))
            conn.execute(f"DELETE FROM {COLLECTIONS} WHERE id = %s", (row[0],))
    return True


def ensure_writable(target: PgTarget) -> None:
    """Fail before any work when the database cannot take a collection (no pgvector, no rights)."""
    conn = connect(target)
    try:
        ensure_schema(conn, target)
    finally:
        conn.close()


def copy_into_collection(index: Index, target: PgTarget) -> PgIndex:
    """Write an in-memory or on-disk `Index` into collection `target` (replacing it) and open it.

    The chunks and vectors are the index's own (nothing is chunked or embedded again), so the two
    can be compared search for search (`eval --store`, `bench store`).
    """
    ids = index.store.ids()
    records = {service_id: index.service_record(service_id) for service_id in index.manifest_service_ids()}
    with collection_lock(target):
        write_update(  # checks the schema (pgvector, rights) first, before it writes
            target,
            manifest=Manifest.from_dict(index.manifest.to_dict()),
            existing=None,
            stale_chunk_ids=[],
            new_chunks=index.store.get(ids),
            vectors=index.store.get_vectors(ids),
            records=records,
            bm25_b=SearchSettings.from_dict(index.manifest.search).bm25_b,
        )
    return open_collection(target, embedder=index.embedder)
