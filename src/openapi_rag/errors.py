"""Exceptions raised by openapi-rag.

OpenAPIRagError
├── SpecError                 a description could not be loaded (carries file and location)
│   ├── SpecNotFound
│   ├── SpecParseError        invalid JSON/YAML, bad characters, duplicate anchors
│   ├── LimitExceeded         a size, count or depth bound of `spec.limits.ReadLimits` was reached
│   └── UnsupportedSpecVersion  not OpenAPI 3.x / Swagger 2.0 / Postman
├── ConvertError              a Postman collection or other source could not be converted
├── EmbedderError
│   ├── UnknownEmbedder
│   ├── NeedsKey
│   └── MissingDependency
├── IndexNotFound
├── IndexMismatch
├── IndexDamaged              a file of the index is truncated, garbage or disagrees with the others
├── IndexLocked               another process is writing the index
├── StoreUnavailable          the PostgreSQL store cannot be reached, refuses the login, or lacks pgvector
├── NothingIndexed            no API description found, or every one failed to load
├── RemoteNotConfigured       an index names a remote model the user did not configure
└── InvalidQuery              (also a ValueError) empty, too long, or too many clauses
"""

from __future__ import annotations

from pathlib import Path


class OpenAPIRagError(Exception):
    """Base class of every error openapi-rag raises on purpose."""


class SpecError(OpenAPIRagError):
    """A description could not be loaded. `file` and `where` say where the problem is."""

    def __init__(self, message: str, *, file: str | Path | None = None, where: str | None = None):
        self.file = str(file) if file is not None else None
        self.where = where
        self.reason = message
        parts = [p for p in (self.file, where) if p]
        super().__init__(f"{': '.join(parts)}: {message}" if parts else message)


class SpecNotFound(SpecError):
    """The path does not exist or holds no API description."""


class SpecParseError(SpecError):
    """The file is not valid JSON/YAML (or holds characters we cannot read)."""


class LimitExceeded(SpecError):
    """A description went past one of the loader's bounds; `limit` names it (a `ReadLimits` field)."""

    def __init__(self, message: str, *, file: str | Path | None = None, where: str | None = None, limit: str = ""):
        super().__init__(message, file=file, where=where)
        self.limit = limit


class UnsupportedSpecVersion(SpecError):
    """The document is not OpenAPI 3.x, Swagger 2.0 or a Postman collection."""


class ConvertError(OpenAPIRagError):
    """A source (Postman collection, HTML page) could not be converted to OpenAPI."""


class EmbedderError(OpenAPIRagError):
    """An embedding model could not be selected or run."""


class UnknownEmbedder(EmbedderError):
    """No embedder is registered under that name."""


class NeedsKey(EmbedderError):
    """A remote model needs an API key that was not found."""


class MissingDependency(OpenAPIRagError):
    """An optional dependency is not installed; the message names the pip command."""


class IndexNotFound(OpenAPIRagError):
    """No index exists in the given directory."""


class IndexMismatch(OpenAPIRagError):
    """The index was built with other settings than the ones requested."""


class IndexDamaged(OpenAPIRagError):
    """A file of the index cannot be used. `file` names it; the message says how to rebuild."""

    def __init__(self, file: str | Path, problem: str, *, directory: str | Path | None = None):
        self.file = str(file)
        self.problem = problem
        where = str(directory) if directory is not None else "DIR"
        super().__init__(
            f"{file} {problem}: rebuild with `openapi-rag index SPECS... --index {where} --rebuild`"
        )


class IndexLocked(OpenAPIRagError):
    """Another process holds the index's writer lock."""

    def __init__(self, message: str, *, directory: str | Path):
        self.directory = str(directory)
        super().__init__(message)


class StoreUnavailable(OpenAPIRagError):
    """The PostgreSQL store cannot be used: host unreachable, login refused, or no `vector` extension."""


class NothingIndexed(OpenAPIRagError):
    """`index` found no API description, or every one failed; `failed` lists the failures."""

    def __init__(self, message: str, *, failed: list[dict[str, object]] | None = None):
        self.failed = failed or []
        super().__init__(message)


class RemoteNotConfigured(OpenAPIRagError):
    """An index names a remote embedder or LLM that the user has not configured for this run."""


class InvalidQuery(OpenAPIRagError, ValueError):
    """A query that cannot be searched: empty, over the length limit, or with too many clauses."""
