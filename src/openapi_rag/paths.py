"""Where openapi-rag keeps its files: `$OPENAPI_RAG_HOME`, else `~/.cache/openapi-rag`."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def openapi_rag_home() -> Path:
    """The root for caches (embeddings, tokenizer files); set OPENAPI_RAG_HOME to move it."""
    return Path(os.environ.get("OPENAPI_RAG_HOME") or Path.home() / ".cache" / "openapi-rag")


def package_dirs(package: str) -> list[Path]:
    """The folders of an installed package (located on disk, its code never imported: model
    packages' `__init__` may pull in SDKs we do not need); empty when it is not installed."""
    spec = importlib.util.find_spec(package)
    return [Path(location) for location in (spec.submodule_search_locations or [])] if spec else []


def package_file(package: str, *parts: str) -> Path | None:
    """A data file shipped inside an installed package, or None when the package or the file is
    missing."""
    for folder in package_dirs(package):
        path = folder.joinpath(*parts)
        if path.is_file():
            return path
    return None
