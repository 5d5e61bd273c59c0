"""An `Index` kept in a PostgreSQL collection: opening it and searching it (writing: `pg_write.py`).

What a collection holds mirrors an index directory (`index/index.py`): the manifest (settings and
sources) in `openapi_rag_collections`, chunks with their vectors in `openapi_rag_chunks`, each
service's bundled description in `openapi_rag_services`, and the BM25 index's files in
`openapi_rag_files` (see `pg_connect.SCHEMA`).

Lexical side: the same BM25 (`search/bm25.py`, bm25s with the API-aware tokenizer) as the disk index,
rebuilt from the rows in the writer's transaction and stored beside them, loaded by readers at open.
PostgreSQL full-text search was the alternative; its parser and stemmer do not split `userId` or
`/users/{user_id}` the way `ApiTokenizer` does and `ts_rank` is not BM25, so recall parity with
the disk index would be luck. Hybrid fusion is the same `Searcher` code over both stores.

Consistency: an update (every changed spec, the BM25 files and the manifest) is one transaction;
readers search inside a repeatable-read snapshot and reload when the collection's `generation`
moved, so a search never mixes two states, and a killed writer leaves the last committed one.
Writers take a session-level `pg_advisory_lock` per collection (released by the server if the
writer dies), so a second writer waits (`--wait`) or stops with the first one's name.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from openapi_rag.embed import Embedder, get_embedder
from openapi_rag.errors import IndexDamaged, IndexMismatch, IndexNotFound, StoreUnavailable
from openapi_rag.index.index import Index, OperationNotFound
from openapi_rag.index.manifest import Manifest
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.clauses import check_query
from openapi_rag.search.results import SearchResults
from openapi_rag.search.settings import SearchSettings
from openapi_rag.store.filters import ChunkFilter
from openapi_rag.store.pg_connect import (
    CHUNKS,
    COLLECTIONS,
    FILES,
    SERVICES,
    Database,
    connect,
    database_for,
    missing_extension,
    schema_exists,
    vector_version,
)
from openapi_rag.store.pg_target import PgTarget
from openapi_rag.store.pgvector_store import (
    DEFAULT_EF_SEARCH,
    PgVectorStore,
)

BACKEND = "postgresql"

def _no_collection(target: PgTarget, conn: Any) -> IndexNotFound:
    names = (
        [row[0] for row in conn.execute(f"SELECT name FROM {COLLECTIONS} ORDER BY name")]
        if schema_exists(conn)
        else []
    )
    have = f" (collections: {', '.join(names)})" if names else " (it holds none)"
    return IndexNotFound(
        f"no collection {target.collection!r} in {target.redacted_dsn}{have}: build it with "
        f"`openapi-rag index SPECS --store DSN --collection {target.collection}`"
    )


def check_readable(target: PgTarget) -> None:
    """Refuse early, in one line, when the database cannot serve this collection."""
    conn = connect(target)
    try:
        if vector_version(conn) is None:
            raise missing_extension(target)
        row = (
            conn.execute(f"SELECT 1 FROM {COLLECTIONS} WHERE name = %s", (target.collection,)).fetchone()
            if schema_exists(conn)
            else None
        )
        if row is None:
            raise _no_collection(target, conn)
    finally:
        conn.close()


# ---- reading ----------------------------------------------------------------------------------------


class PgIndex(Index):
    """An `Index` over a PostgreSQL collection; reloads itself when another process commits an update."""

    def __init__(
        self,
        *,
        target: PgTarget,
        db: Database,
        collection_id: int,
        generation: int,
        manifest: Manifest,
        store: PgVectorStore,
        bm25: BM25Index,
        embedder: Embedder | None = None,
        settings: SearchSettings | None = None,
    ):
        super().__init__(manifest=manifest, store=store, bm25=bm25, embedder=embedder, settings=settings)
        self.target = target
        self.db = db
        self.collection_id = collection_id
        self.generation = generation
        self._settings = settings
        self._state_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"PgIndex({self.target}, generation={self.generation}, chunks={len(self.store)})"

    def _current_generation(self, conn: Any) -> int:
        row = conn.execute(
            f"SELECT id, generation FROM {COLLECTIONS} WHERE name = %s", (self.target.collection,)
        ).fetchone()
        if row is None:
            raise _no_collection(self.target, conn)
        if row[0] != self.collection_id:  # dropped and built again: a new collection
            return -1
        return int(row[1])

    def _searcher_at(self, conn: Any) -> Any:
        """The searcher of the generation this snapshot sees (reloading to it), or None to retry."""
        generation = self._current_generation(conn)
        with self._state_lock:
            if generation == self.generation:
                return self.searcher
            if 0 <= generation < self.generation:
                return None  # a snapshot older than what was loaded: take a new one
            state = _load_state(conn, self.target, self.db, embedder=self._embedder)
            self.collection_id, self.generation, self.manifest, self.store, self.bm25 = state
            Index.__init__(
                self,
                manifest=self.manifest,
                store=self.store,
                bm25=self.bm25,
                embedder=self._embedder,
                settings=self._settings,
                query_limits=self.query_limits,
            )
            return self.searcher

    def search_results(
        self,
        query: str,
        *,
        k: int | str = 10,
        mode: str = "hybrid",
        threshold: float | None = None,
        service: str | Sequence[str] | None = None,
        tag: str | Sequence[str] | None = None,
        expand: bool = True,
    ) -> SearchResults:
        """As `Index.search_results`, inside one snapshot of the collection."""
        check_query(query, self.query_limits)
        flt = ChunkFilter.of(services=service, tags=tag) if (service or tag) else None
        for _ in range(5):
            with self.db.snapshot() as conn:
                searcher = self._searcher_at(conn)
                if searcher is not None:
                    return searcher.search(
                        query, mode=mode, k=k, threshold=threshold, filter=flt, expand=expand
                    )
        raise StoreUnavailable(f"{self.target} kept changing during a search: try again")

    def service_record(self, service_id: str, *, cache: bool = True) -> dict[str, Any]:
        record = self._records.get(service_id)
        if record is not None:
            return record
        with self.db.connection() as conn:
            row = conn.execute(
                f"SELECT record FROM {SERVICES} WHERE collection_id = %s AND service_id = %s",
                (self.collection_id, service_id),
            ).fetchone()
        if row is None:
            raise OperationNotFound(
                f"no service {service_id!r} in {self.target}; services: {', '.join(self.manifest_service_ids())}"
            )
        record = row[0]
        if cache:
            self._records[service_id] = record
        return record

    def service_listing(self) -> list[dict[str, Any]]:
        """Each service's id, title, version and operation count, without reading the descriptions."""
        operations = {s.service: s.operations for s in self.manifest.sources.values()}
        with self.db.connection() as conn:
            rows = conn.execute(
                f"SELECT service_id, title, version FROM {SERVICES} WHERE collection_id = %s",
                (self.collection_id,),
            ).fetchall()
        found = {service_id: (title, version) for service_id, title, version in rows}
        return sorted(
            (
                {
                    "service": s,
                    "title": found.get(s, ("", ""))[0],
                    "version": found.get(s, ("", ""))[1],
                    "operations": n,
                }
                for s, n in operations.items()
            ),
            key=lambda item: item["service"],
        )

    def save(self, directory: str | Path, *, lock: bool = True) -> None:
        """Export the collection as an index directory (the disk format), e.g. for a laptop copy."""
        from openapi_rag.store import FaissStore

        store = FaissStore(self.store.dimensions)
        chunks = list(self.store.chunks())
        if chunks:
            store.add([c.id for c in chunks], self.store.get_vectors([c.id for c in chunks]), chunks)
        records = {sid: self.service_record(sid, cache=False) for sid in self.manifest_service_ids()}
        manifest = Manifest.from_dict({**self.manifest.to_dict(), "store": {"index_type": "flat"}})
        disk = Index(manifest=manifest, store=store, bm25=self.bm25, embedder=self.embedder, services=records)
        disk.save(directory, lock=lock)


def _load_state(
    conn: Any, target: PgTarget, db: Database, *, embedder: Embedder | None
) -> tuple[int, int, Manifest, PgVectorStore, BM25Index]:
    row = conn.execute(
        f"SELECT id, generation, manifest FROM {COLLECTIONS} WHERE name = %s", (target.collection,)
    ).fetchone()
    if row is None:
        raise _no_collection(target, conn)
    collection_id, generation, data = row
    manifest = Manifest.from_dict(data)
    if embedder is not None and embedder.model_id != manifest.embedder:
        raise IndexMismatch(
            f"{target} was built with embedder {manifest.embedder!r}, not {embedder.model_id!r}: "
            "search it without --embedder, or rebuild it with `openapi-rag index --embedder ... --rebuild`"
        )
    ids = [
        r[0]
        for r in conn.execute(
            f"SELECT chunk_id FROM {CHUNKS} WHERE collection_id = %s ORDER BY chunk_id", (collection_id,)
        )
    ]
    ef_search = int(manifest.store.get("ef_search", DEFAULT_EF_SEARCH))
    store = PgVectorStore(db, collection_id, manifest.dimensions, ids, ef_search=ef_search)
    bm25 = _read_bm25(conn, collection_id, target)
    listed = sum(len(source.chunks) for source in manifest.sources.values())
    if not (listed == len(ids) == len(bm25)):
        raise IndexDamaged(
            str(target),
            f"disagrees with itself (manifest lists {listed} chunks, {len(ids)} rows, BM25 holds {len(bm25)})",
            directory=f"--store DSN --collection {target.collection}",
        )
    return collection_id, int(generation), manifest, store, bm25


def _read_bm25(conn: Any, collection_id: int, target: PgTarget) -> BM25Index:
    rows = conn.execute(
        f"SELECT name, data FROM {FILES} WHERE collection_id = %s", (collection_id,)
    ).fetchall()
    with tempfile.TemporaryDirectory(prefix="openapi-rag-bm25-") as tmp:
        for name, data in rows:
            if "/" in name or name.startswith("."):  # our own names only: never write outside tmp
                raise IndexDamaged(
                    str(target), f"holds a stray file name {name!r}", directory=target.collection
                )
            (Path(tmp) / name).write_bytes(bytes(data))
        try:
            return BM25Index.load(tmp)
        except IndexNotFound:
            raise IndexDamaged(
                str(target), "has no BM25 index", directory=f"--store DSN --collection {target.collection}"
            ) from None


def open_collection(
    target: PgTarget, *, embedder: str | Embedder | None = None, settings: SearchSettings | None = None
) -> PgIndex:
    """Open collection `target` for search (the `Index.open` of a `PgTarget`).

    Raises:
        StoreUnavailable: the server cannot be reached, refuses the login, or lacks pgvector.
        IndexNotFound: no such collection.
        IndexMismatch: `embedder` is not the one the collection was built with.
    """
    check_readable(target)
    model = None if embedder is None else (get_embedder(embedder) if isinstance(embedder, str) else embedder)
    db = database_for(target)
    with db.snapshot() as conn:
        collection_id, generation, manifest, store, bm25 = _load_state(conn, target, db, embedder=model)
    return PgIndex(
        target=target,
        db=db,
        collection_id=collection_id,
        generation=generation,
        manifest=manifest,
        store=store,
        bm25=bm25,
        embedder=model,
        settings=settings,
    )


def generation_of(target: PgTarget) -> tuple[int, int] | None:
    """(collection id, generation) now committed, or None when the collection is not there."""
    with database_for(target).connection() as conn:
        row = conn.execute(
            f"SELECT id, generation FROM {COLLECTIONS} WHERE name = %s", (target.collection,)
        ).fetchone()
    return (int(row[0]), int(row[1])) if row else None


def embedder_name(target: PgTarget) -> str:
    """The embedder a collection was built with (what `serve` starts in each worker)."""
    check_readable(target)
    with database_for(target).connection() as conn:
        row = conn.execute(
            f"SELECT embedder FROM {COLLECTIONS} WHERE name = %s", (target.collection,)
        ).fetchone()
    if row is None:
        raise IndexNotFound(f"no collection {target.collection!r} in {target.redacted_dsn}")
    return str(row[0])
