"""Where openapi-rag keeps its files: `$OPENAPI_RAG_HOME`, else `~/.cache/openapi-rag`."""

from __future__ import annotations

import os
from pathlib import Path


def openapi_rag_home() -> Path:
    """The root for caches (embeddings, tokenizer files); set OPENAPI_RAG_HOME to move it."""
    return Path(os.environ.get("OPENAPI_RAG_HOME") or Path.home() / ".cache" / "openapi-rag")
