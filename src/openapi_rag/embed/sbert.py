"""``sentence-transformers:<model>``: any sentence-transformers model, behind the ``local`` extra.

Nothing is downloaded unless asked: a hub name loads from the local Hugging Face cache only,
unless ``allow_download=True`` or ``OPENAPI_RAG_ALLOW_DOWNLOAD=1``. A path to a saved model always
works offline.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.embed.base import Embedder, normalize_rows
from openapi_rag.errors import EmbedderError, MissingDependency

__all__ = ["SentenceTransformersEmbedder", "register_embedders"]

INSTALL_HINT = 'pip install "openapi-rag[local]"'


class SentenceTransformersEmbedder(Embedder):
    """A sentence-transformers model (a hub name or a local directory).

    Args:
        model: e.g. ``all-mpnet-base-v2``, ``BAAI/bge-small-en-v1.5`` or ``./my-model``.
        device: ``cpu``, ``cuda``, ...; sentence-transformers picks one when None.
        batch_size: texts per forward pass.
        allow_download: fetch a hub model missing from the local cache (needs network).
    """

    def __init__(
        self,
        model: str,
        *,
        device: str | None = None,
        batch_size: int = 32,
        allow_download: bool | None = None,
    ) -> None:
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise MissingDependency(
                f"sentence-transformers:{model} needs the sentence-transformers package: {INSTALL_HINT}"
            ) from exc
        if allow_download is None:
            allow_download = os.environ.get("OPENAPI_RAG_ALLOW_DOWNLOAD", "").lower() in ("1", "true", "yes")
        is_path = Path(model).expanduser().exists()
        try:
            self._model: Any = SentenceTransformer(
                str(Path(model).expanduser()) if is_path else model,
                device=device,
                local_files_only=not (allow_download or is_path),
            )
        except Exception as exc:  # hub, OS and torch errors all mean "cannot load"
            hint = (
                ""
                if allow_download or is_path
                else "; it is not in the local Hugging Face cache and downloading is off: pass "
                "allow_download=True or set OPENAPI_RAG_ALLOW_DOWNLOAD=1 (needs network)"
            )
            raise EmbedderError(f"Could not load sentence-transformers model {model!r}: {exc}{hint}") from exc
        self.model_id = f"sentence-transformers:{model}"
        self.dimensions = int(self._model.get_sentence_embedding_dimension())
        self.max_tokens = int(self._model.max_seq_length)
        self.batch_size = batch_size

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        vectors = self._model.encode(
            texts,
            batch_size=len(texts),
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return normalize_rows(vectors)


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook."""
    register("sentence-transformers", SentenceTransformersEmbedder, aliases=("st",), family=True)
