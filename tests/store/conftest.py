from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from openapi_rag.model import Chunk


def _make_chunk(
    chunk_id: str,
    *,
    service: str = "svc",
    kind: str = "endpoint",
    operations: list[str] | None = None,
    text: str = "",
    **metadata: Any,
) -> Chunk:
    return Chunk(
        id=chunk_id,
        kind=kind,
        service=service,
        operations=operations if operations is not None else [f"GET /{chunk_id}"],
        embed_text=text or chunk_id,
        content=f"content of {chunk_id}",
        metadata=metadata,
    )


def _unit_rows(n: int, dim: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def make_chunk() -> Callable[..., Chunk]:
    """make_chunk(id, service=, kind=, operations=, text=, **metadata) -> Chunk"""
    return _make_chunk


@pytest.fixture
def unit_rows() -> Callable[..., np.ndarray]:
    """unit_rows(n, dim, seed=0): deterministic random unit vectors."""
    return _unit_rows


@pytest.fixture
def chunks() -> list[Chunk]:
    """Six chunks over two services and two tags."""
    make_chunk = _make_chunk
    return [
        make_chunk("a1", service="alpha", tags=["users"]),
        make_chunk("a2", service="alpha", tags=["users", "admin"]),
        make_chunk("a3", service="alpha", tags=["orders"]),
        make_chunk("b1", service="beta", tags=["users"]),
        make_chunk("b2", service="beta", tags=["orders"]),
        make_chunk("b3", service="beta", kind="schema", operations=[], schema="Order"),
    ]


# A real PostgreSQL + pgvector server for tests/store/test_pg*.py (one per session).
from tests.store.pg_fixtures import pg_dsn, pg_server, pg_target  # noqa: E402, F401
