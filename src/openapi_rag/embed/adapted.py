"""`minilm-api`: the default all-MiniLM-L6-v2 with a 384 x 384 map trained on API operations.

The encoder is the default's own int8 ONNX model, frozen; only the map ``adapter.npy`` (590 KB,
package data in ``openapi_rag/data/models/minilm-api/``) is new. Mean pooling and the map are both
linear, so mapping the default's normalised vector and normalising again gives exactly what a
network with the map after its last layer would give, without shipping a second 23 MB encoder.

The map was trained by ``scripts/train_embedder.py`` on (pseudo-query, operation) pairs written by
templates from the specs of ``../shared/data/realworld`` only, never from a benchmark's specs or
tasks, with hard negatives from the same API; ``training.json`` beside it records the run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from openapi_rag.embed.base import normalize_rows
from openapi_rag.embed.minilm import MiniLMEmbedder
from openapi_rag.errors import EmbedderError

__all__ = ["AdaptedMiniLMEmbedder", "adapted_model_dir", "register_embedders"]

MODEL_ID = "all-MiniLM-L6-v2-api-onnx-int8"
_MODEL_DIR = Path(__file__).resolve().parent.parent / "data" / "models" / "minilm-api"


def adapted_model_dir() -> Path:
    """The folder holding ``adapter.npy`` and ``training.json`` of `minilm-api`."""
    if not (_MODEL_DIR / "adapter.npy").is_file():
        raise EmbedderError(
            f"the minilm-api map is missing from {_MODEL_DIR}: reinstall openapi-rag, or rebuild it "
            "with `python scripts/train_embedder.py` (needs the `train` extra)"
        )
    return _MODEL_DIR


class AdaptedMiniLMEmbedder(MiniLMEmbedder):
    """all-MiniLM-L6-v2 adapted to API operations (384 dimensions); options as `MiniLMEmbedder`."""

    model_id = MODEL_ID

    def __init__(
        self,
        *,
        batch_size: int = 128,
        batch_tokens: int = 4 * 256,
        threads: int = 0,
        memory_arena: bool = True,
    ):
        # Explicit options (not **kwargs): `get_embedder` checks them against this signature.
        weight = np.load(adapted_model_dir() / "adapter.npy", allow_pickle=False)
        if weight.shape != (self.dimensions, self.dimensions):
            raise EmbedderError(f"minilm-api map has shape {weight.shape}, expected 384 x 384")
        self._adapter = weight.astype(np.float32, copy=False)
        super().__init__(
            batch_size=batch_size, batch_tokens=batch_tokens, threads=threads, memory_arena=memory_arena
        )

    def _embed_ids(self, rows: list[list[int]]) -> np.ndarray:  # under both of MiniLM's paths
        return normalize_rows(super()._embed_ids(rows) @ self._adapter)


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook: the adapted model under its short names."""
    register("minilm-api", AdaptedMiniLMEmbedder, aliases=("minilm-api-int8", MODEL_ID))
