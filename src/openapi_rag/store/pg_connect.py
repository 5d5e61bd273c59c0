"""Connections to the PostgreSQL store: one pool per process, errors as one clear line, the schema.

psycopg 3 with `psycopg_pool` and the `pgvector` adapter (the `pg` extra). Every statement passes
values as parameters; the only things composed into SQL are our own table names and integers
(collection ids, dimensions), through `psycopg.sql`.

Pools are per process: a forked `serve` worker must not share the parent's sockets, so the pool is
closed before a fork (`os.register_at_fork`) and opened again lazily in whichever process uses it.
"""

from __future__ import annotations

import contextvars
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from openapi_rag.errors import MissingDependency, StoreUnavailable
from openapi_rag.store.pg_target import STORE_ENV, PgTarget

PG_EXTRA_HINT = 'the PostgreSQL store needs the `pg` extra: pip install "openapi-rag[pg]"'
# libpq waits for an unroutable host as long as TCP does (minutes); a catalog should say so sooner.
CONNECT_TIMEOUT_S = 5
POOL_MAX = int(os.environ.get("OPENAPI_RAG_PG_POOL", "8"))

COLLECTIONS = "openapi_rag_collections"
CHUNKS = "openapi_rag_chunks"
SERVICES = "openapi_rag_services"
FILES = "openapi_rag_files"
# First key of every advisory lock this tool takes (the second is the collection's hash), so ours
# never collide with an application's own advisory locks in a shared database.
LOCK_NAMESPACE = 0x0A91_0A91

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {COLLECTIONS} (
    id serial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    embedder text NOT NULL,
    dimensions integer NOT NULL,
    manifest json NOT NULL,          -- the same manifest an index directory holds
    generation bigint NOT NULL DEFAULT 1,  -- +1 at every committed update: readers reload on change
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS {CHUNKS} (
    collection_id integer NOT NULL REFERENCES {COLLECTIONS}(id) ON DELETE CASCADE,
    chunk_id text NOT NULL,
    service text NOT NULL,
    kind text NOT NULL,
    tags text[] NOT NULL,
    data json NOT NULL,              -- Chunk.to_dict(); json, not jsonb: kept as written
    embedding vector NOT NULL,       -- normalised; an HNSW index per collection casts it to vector(dims)
    PRIMARY KEY (collection_id, chunk_id)
);
CREATE INDEX IF NOT EXISTS {CHUNKS}_service ON {CHUNKS} (collection_id, service);
CREATE TABLE IF NOT EXISTS {SERVICES} (
    collection_id integer NOT NULL REFERENCES {COLLECTIONS}(id) ON DELETE CASCADE,
    service_id text NOT NULL,
    title text NOT NULL,
    version text NOT NULL,
    record json NOT NULL,            -- the bundled description `show` rebuilds the service from
    PRIMARY KEY (collection_id, service_id)
);
CREATE TABLE IF NOT EXISTS {FILES} (
    collection_id integer NOT NULL REFERENCES {COLLECTIONS}(id) ON DELETE CASCADE,
    name text NOT NULL,              -- bm25/<file>: the lexical index, rebuilt with every update
    data bytea NOT NULL,
    PRIMARY KEY (collection_id, name)
);
"""


def _psycopg() -> Any:
    try:
        import pgvector.psycopg  # noqa: F401
        import psycopg
        import psycopg_pool  # noqa: F401
    except ImportError as exc:
        raise MissingDependency(f"{exc.name} not installed: {PG_EXTRA_HINT}") from None
    return psycopg


def explain_connect_error(target: PgTarget, exc: Exception) -> StoreUnavailable:
    """One line for a failed connection: which host, what went wrong, what to do."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    lowered = str(exc).lower()
    user = _dsn_user(target.dsn)
    if "password authentication failed" in lowered or "no password supplied" in lowered:
        return StoreUnavailable(
            f"PostgreSQL at {target.host} refused the login of user {user!r} (wrong or missing password): "
            f"put the right password in {STORE_ENV} or ~/.pgpass"
        )
    if "does not exist" in lowered and "database" in lowered:
        return StoreUnavailable(
            f"PostgreSQL at {target.host} has no database named in {target.redacted_dsn}: "
            "create it (createdb NAME) or fix --store"
        )
    if "could not translate host name" in lowered or "failed to resolve" in lowered:
        return StoreUnavailable(
            f"cannot resolve the PostgreSQL host {target.host}: check --store / {STORE_ENV}"
        )
    return StoreUnavailable(
        f"cannot reach PostgreSQL at {target.host} ({_reason(text)}): check that the server runs and "
        f"that --store / {STORE_ENV} names it"
    )


def _reason(text: str) -> str:
    for known in (
        "Connection refused",
        "timeout expired",
        "No such file or directory",
        "Network is unreachable",
    ):
        if known.lower() in text.lower():
            return known.lower()
    return text[:200]


def _dsn_user(dsn: str) -> str:
    from psycopg.conninfo import conninfo_to_dict

    try:
        return str(conninfo_to_dict(dsn).get("user") or os.environ.get("PGUSER") or "(default)")
    except Exception:  # noqa: BLE001 - only for a message
        return "(default)"


def connect_kwargs(target: PgTarget) -> dict[str, Any]:
    return {
        "connect_timeout": CONNECT_TIMEOUT_S,
        # Named in pg_stat_activity, so a waiting writer can say who holds the collection.
        "application_name": f"openapi-rag pid {os.getpid()} on {socket.gethostname()}"[:63],
    }


def vector_version(conn: Any) -> str | None:
    row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    return row[0] if row else None


def missing_extension(target: PgTarget, detail: str = "") -> StoreUnavailable:
    extra = f" ({detail})" if detail else ""
    return StoreUnavailable(
        f"the database in {target.redacted_dsn} lacks the pgvector extension{extra}: install pgvector on "
        "the server (Debian: apt-get install postgresql-NN-pgvector; managed PostgreSQL: enable 'vector') "
        "and run CREATE EXTENSION vector as a database owner"
    )


def connect(target: PgTarget, *, autocommit: bool = True) -> Any:
    """A single connection (not pooled), errors translated; the caller closes it."""
    psycopg = _psycopg()
    try:
        return psycopg.connect(target.dsn, autocommit=autocommit, **connect_kwargs(target))
    except psycopg.OperationalError as exc:
        raise explain_connect_error(target, exc) from None


def ensure_schema(conn: Any, target: PgTarget) -> None:
    """Create the extension (when allowed) and our tables, once; refuse clearly without pgvector."""
    psycopg = _psycopg()
    if vector_version(conn) is None:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except psycopg.Error as exc:
            detail = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            raise missing_extension(target, detail) from None
    with conn.transaction():
        # Two writers creating the schema at once would race on CREATE TABLE IF NOT EXISTS.
        conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_NAMESPACE,))
        conn.execute(SCHEMA)


def schema_exists(conn: Any) -> bool:
    row = conn.execute("SELECT to_regclass(%s)", (COLLECTIONS,)).fetchone()
    return row is not None and row[0] is not None


# ---- the per-process pool -------------------------------------------------------------------------

_bound: contextvars.ContextVar[Any] = contextvars.ContextVar("openapi_rag_pg_connection", default=None)
# The one registry of pools: one per DSN in this process, each closed before a fork.
_databases: dict[str, Database] = {}
_databases_lock = threading.Lock()


def database_for(target: PgTarget) -> Database:
    """The pool of `target`'s database in this process, made on first use and shared from then on
    (a served index, its reload poller and a writer's reads use the same one)."""
    with _databases_lock:
        db = _databases.get(target.dsn)
        if db is None:
            db = _databases[target.dsn] = Database(target)
        return db


class Database:
    """A pool of connections to one database, opened lazily in each process that uses it.

    Get one with `database_for`: only those are closed before a fork. One made directly (a test's)
    is its maker's to close.
    """

    def __init__(self, target: PgTarget, *, max_size: int = POOL_MAX):
        self.target = target
        self.max_size = max_size
        self._pool: Any = None
        self._pid = 0
        self._lock = threading.Lock()

    def _configure(self, conn: Any) -> None:
        from pgvector.psycopg import register_vector

        register_vector(conn)

    def pool(self) -> Any:
        if self._pool is None or self._pid != os.getpid():
            with self._lock:
                if self._pool is None or self._pid != os.getpid():
                    _psycopg()
                    from psycopg_pool import ConnectionPool

                    # A pool inherited through fork is abandoned, not closed: its sockets are the parent's.
                    self._pool = ConnectionPool(
                        self.target.dsn,
                        min_size=1,
                        max_size=self.max_size,
                        kwargs={"autocommit": True, **connect_kwargs(self.target)},
                        configure=self._configure,
                        open=False,
                        name="openapi-rag",
                    )
                    try:
                        self._pool.open(wait=True, timeout=CONNECT_TIMEOUT_S + 5)
                    except Exception as exc:  # PoolTimeout: say why the connections fail
                        self._pool.close()
                        self._pool = None
                        conn = connect(self.target)  # raises the one-line reason
                        conn.close()
                        raise StoreUnavailable(f"cannot open connections to {self.target}: {exc}") from None
                    self._pid = os.getpid()
        return self._pool

    @contextmanager
    def connection(self) -> Iterator[Any]:
        """The connection bound to this context (a snapshot or a writer's transaction), else a pooled one."""
        bound = _bound.get()
        if bound is not None:
            yield bound
            return
        with self.pool().connection() as conn:
            yield conn

    @contextmanager
    def bind(self, conn: Any) -> Iterator[Any]:
        """Run the block's reads and writes on `conn`."""
        token = _bound.set(conn)
        try:
            yield conn
        finally:
            _bound.reset(token)

    @contextmanager
    def snapshot(self) -> Iterator[Any]:
        """A read-only repeatable-read transaction for the block: every read sees one committed state."""
        if _bound.get() is not None:  # already inside one (or inside a writer's transaction)
            yield _bound.get()
            return
        with self.pool().connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            with self.bind(conn):
                yield conn

    def close(self) -> None:
        if self._pool is not None and self._pid == os.getpid():
            self._pool.close()
        self._pool = None


def _close_pools_before_fork() -> None:
    for database in list(_databases.values()):
        database.close()


os.register_at_fork(before=_close_pools_before_fork)
