"""`eval --store DSN`: the evaluation's indexes searched from PostgreSQL instead of FAISS.

Each group's index is built exactly as the default evaluation builds it (same chunks, same vectors
from the embedding cache), copied into a scratch collection and searched through `PgIndex`, so a
difference in recall is the store's (HNSW instead of exact search; the same BM25 and fusion).
"""

from __future__ import annotations

import uuid
from typing import Any

from openapi_rag.bench.retrievers import IndexRetrieverFactory, RunConfig, build_index
from openapi_rag.model import Service
from openapi_rag.store.pg_target import PgTarget


class PgIndexRetrieverFactory(IndexRetrieverFactory):
    """`IndexRetrieverFactory` whose indexes live in collections `eval-<random>` of `dsn` (dropped after)."""

    def __init__(self, dsn: str) -> None:
        super().__init__(build=self._build_in_postgres)
        self.dsn = dsn
        self._target: PgTarget | None = None

    def _build_in_postgres(self, services: list[Service], config: RunConfig) -> Any:
        from openapi_rag.store.pg_write import copy_into_collection

        self.close()
        self._target = PgTarget(self.dsn, f"eval-{uuid.uuid4().hex[:12]}")
        return copy_into_collection(build_index(services, config), self._target)

    def close(self) -> None:
        """Drop the scratch collection of the last build."""
        if self._target is not None:
            from openapi_rag.store.pg_write import drop_collection

            drop_collection(self._target)
            self._target = None
