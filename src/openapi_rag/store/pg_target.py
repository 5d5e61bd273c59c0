"""Where a PostgreSQL catalog lives: a DSN and a collection name (no database driver imported here).

`Index.open`, `build_index` and the CLI take a `PgTarget` wherever they take an index directory.
The DSN may carry a password; `str(target)` never shows it, so it stays out of messages and logs
(and the CLI reads the DSN from `OPENAPI_RAG_STORE` so it stays out of `ps` too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

STORE_ENV = "OPENAPI_RAG_STORE"
COLLECTION_ENV = "OPENAPI_RAG_COLLECTION"
DEFAULT_COLLECTION = "default"
SCHEMES = ("postgresql://", "postgres://")

# A collection name is stored as a value, never spliced into SQL; the bound keeps names readable in
# messages and `collections list`.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,62}")


def is_store_dsn(value: str) -> bool:
    return value.startswith(SCHEMES)


@dataclass(frozen=True)
class PgTarget:
    """A collection in a PostgreSQL database.

    Args:
        dsn: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DB[?...]` (libpq URI; `host=` may name a
            Unix socket directory).
        collection: the collection's name (letters, digits, `_ . -`; up to 63 characters).
    """

    dsn: str = field(repr=False)
    collection: str = DEFAULT_COLLECTION

    def __post_init__(self) -> None:
        if not is_store_dsn(self.dsn):
            raise ValueError(f"--store must be a postgresql:// URI, not {self.redacted_dsn!r}")
        if not _NAME.fullmatch(self.collection):
            raise ValueError(
                f"collection name {self.collection!r} must be 1-63 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit"
            )

    @property
    def redacted_dsn(self) -> str:
        """The DSN without its password (and without query parameters, which may hold one)."""
        try:
            parts = urlsplit(self.dsn)
        except ValueError:
            return "postgresql://?"
        host = parts.hostname or ""
        if parts.port:
            host = f"{host}:{parts.port}"
        user = f"{parts.username}@" if parts.username else ""
        return f"{parts.scheme}://{user}{host}{parts.path}"

    @property
    def host(self) -> str:
        """The host (or socket directory) the DSN names, for messages."""
        parts = urlsplit(self.dsn)
        if parts.hostname:
            return f"{parts.hostname}:{parts.port or 5432}"
        match = re.search(r"(?:^|[?&])host=([^&]+)", parts.query)
        return match.group(1) if match else "localhost:5432 (default socket)"

    def __str__(self) -> str:
        return f"collection {self.collection!r} in {self.redacted_dsn}"
