"""What a server accepts and how it protects itself: one record, filled by the CLI, read by every layer."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.store.pg_target import PgTarget

KEY_ENV = "OPENAPI_RAG_API_KEY"
KEY_FILE_ENV = "OPENAPI_RAG_API_KEY_FILE"
MIN_KEY_LENGTH = 16


class ServeConfigError(OpenAPIRagError):
    """The server cannot start as configured (a public bind without a key, a bad key file)."""


@dataclass(frozen=True)
class Limits:
    """Request limits; anything beyond them is a 4xx JSON error naming the field."""

    max_query_chars: int = 1_000
    max_k: int = 100
    max_batch: int = 32
    max_body_bytes: int = 64 * 1024
    # Per key, for the whole server: each of N workers enforces rate / N (see `security.RateLimiter`).
    # 50 searches/s with bursts of 100 is far above what one agent or person sends, and low enough
    # that one leaked key cannot take the catalog from everyone else.
    rate_per_second: float = 50.0
    rate_burst: int = 100


@dataclass(frozen=True)
class ServeSettings:
    """How to run the HTTP API or the MCP server over one index."""

    index_dir: Path | PgTarget  # a directory, or a collection in PostgreSQL
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    keys: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    # Loopback without a key serves the local user only; no rate limit unless asked for.
    rate_limit_loopback: bool = False
    cors_origins: tuple[str, ...] = ()
    reload_interval: float = 2.0

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def check(self) -> None:
        """Refuse to start where the server would be open to others without a key."""
        if not self.loopback and not self.keys:
            raise ServeConfigError(
                f"refusing to listen on {self.host} without an API key: set {KEY_ENV} "
                f"or {KEY_FILE_ENV} (a file with one key per line), or bind to 127.0.0.1"
            )
        if self.workers < 1:
            raise ServeConfigError("--workers must be at least 1")


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and `localhost`; every other name or address counts as public."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def load_keys(key_file: str | Path | None = None) -> tuple[str, ...]:
    """API keys from `KEY_ENV` (comma-separated) and a key file (one per line, `#` comments).

    Keys never come from the command line, where `ps` would show them to every user.

    Raises:
        ServeConfigError: the key file is missing, or a key is shorter than MIN_KEY_LENGTH.
    """
    keys = [k.strip() for k in os.environ.get(KEY_ENV, "").split(",") if k.strip()]
    key_file = key_file or os.environ.get(KEY_FILE_ENV) or None
    if key_file:
        path = Path(key_file)
        try:
            lines = path.read_text("utf-8").splitlines()
        except OSError as exc:
            raise ServeConfigError(f"{path}: cannot read the API key file ({exc.strerror})") from exc
        keys += [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    short = [i for i, k in enumerate(keys, 1) if len(k) < MIN_KEY_LENGTH]
    if short:
        raise ServeConfigError(
            f"API key #{short[0]} is shorter than {MIN_KEY_LENGTH} characters: "
            'use a random one, e.g. python -c "import secrets; print(secrets.token_urlsafe(32))"'
        )
    return tuple(dict.fromkeys(keys))
