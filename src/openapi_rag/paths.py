"""Where openapi-rag keeps its files: `$OPENAPI_RAG_HOME`, else `~/.cache/openapi-rag`."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def openapi_rag_home() -> Path:
    """The root for caches (embeddings, tokenizer files); set OPENAPI_RAG_HOME to move it."""
    return Path(os.environ.get("OPENAPI_RAG_HOME") or Path.home() / ".cache" / "openapi-rag")


def package_file(package: str, *parts: str) -> Path | None:
    """A data file shipped inside an installed package (located on disk, its code never imported),
    or None when the package or the file is missing."""
    spec = importlib.util.find_spec(package)
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location, *parts)
        if path.is_file():
            return path
    return None
