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
└── IndexMismatch
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
