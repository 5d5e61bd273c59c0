"""Declarative chunk filters: by service, tag and chunk kind.

A filter is data, not a callable, so that a SQL-backed store (pgvector) can turn it into a WHERE
clause. Within one field the values are alternatives (any of these services); across fields they
combine (service AND tag AND kind). `None` means "no constraint on this field".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from openapi_rag.model import Chunk


def _frozen(values: Iterable[str] | str | None) -> frozenset[str] | None:
    if values is None:
        return None
    if isinstance(values, str):
        return frozenset([values])
    return frozenset(values)


def chunk_tags(chunk: Chunk) -> list[str]:
    """The tags a chunk carries in `metadata["tags"]` (the operation's OpenAPI tags)."""
    tags = chunk.metadata.get("tags") or []
    return [tags] if isinstance(tags, str) else [str(t) for t in tags]


@dataclass(frozen=True)
class ChunkFilter:
    """Which chunks a search may return.

    Example:
        >>> ChunkFilter.of(services=["spotify"], tags=["playlists"]).matches(chunk)  # doctest: +SKIP

    Attributes:
        services: chunk.service must be one of these.
        tags: at least one of chunk.metadata["tags"] must be one of these (chunks without tags fail).
        kinds: chunk.kind must be one of these (endpoint, schema, errors, security, document).
    """

    services: frozenset[str] | None = None
    tags: frozenset[str] | None = None
    kinds: frozenset[str] | None = None

    @classmethod
    def of(
        cls,
        *,
        services: Iterable[str] | str | None = None,
        tags: Iterable[str] | str | None = None,
        kinds: Iterable[str] | str | None = None,
    ) -> ChunkFilter:
        """Build a filter from any iterables (or single strings)."""
        return cls(services=_frozen(services), tags=_frozen(tags), kinds=_frozen(kinds))

    @property
    def is_empty(self) -> bool:
        """True when the filter lets every chunk through."""
        return self.services is None and self.tags is None and self.kinds is None

    def matches(self, chunk: Chunk) -> bool:
        """Whether one chunk passes the filter."""
        if self.services is not None and chunk.service not in self.services:
            return False
        if self.kinds is not None and chunk.kind not in self.kinds:
            return False
        if self.tags is not None and not self.tags.intersection(chunk_tags(chunk)):
            return False
        return True

    def to_dict(self) -> dict[str, Any]:
        return {
            name: sorted(values)
            for name, values in (("services", self.services), ("tags", self.tags), ("kinds", self.kinds))
            if values is not None
        }


class Postings:
    """Row positions of each service, kind and tag, so a filter becomes a boolean mask without a scan.

    Built once per store version from `(service, kind, tags)` triples in row order.
    """

    def __init__(self, rows: Iterable[tuple[str, str, list[str]]]):
        self._by: dict[tuple[str, str], list[int]] = {}
        n = 0
        for row, (service, kind, tags) in enumerate(rows):
            self._by.setdefault(("service", service), []).append(row)
            self._by.setdefault(("kind", kind), []).append(row)
            for tag in set(tags):
                self._by.setdefault(("tag", tag), []).append(row)
            n = row + 1
        self.size = n

    def _field_mask(self, field: str, values: frozenset[str]) -> np.ndarray:
        mask = np.zeros(self.size, dtype=bool)
        for value in values:
            rows = self._by.get((field, value))
            if rows:
                mask[rows] = True
        return mask

    def mask(self, flt: ChunkFilter | None) -> np.ndarray | None:
        """Rows passing `flt`, or None when it constrains nothing."""
        if flt is None or flt.is_empty:
            return None
        mask = np.ones(self.size, dtype=bool)
        for field, values in (("service", flt.services), ("kind", flt.kinds), ("tag", flt.tags)):
            if values is not None:
                mask &= self._field_mask(field, values)
        return mask
