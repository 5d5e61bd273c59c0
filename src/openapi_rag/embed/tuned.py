"""`minilm-users`: all-MiniLM-L6-v2 fine-tuned on requests written in users' words for API operations.

The transformer was fine-tuned (``scripts/finetune_embedder.py``) on (request, operation) pairs
from ``../shared/data/realworld`` only: requests written in users' words for 6,923 operations by LLM
writers who saw each operation's title, path, summary and description, never a benchmark's specs or
tasks (``benchmarks/embedder/``). It ships as package data
(``openapi_rag/data/models/minilm-users/model.onnx``, the default's int8 graph with the new weights, and
``training.json``, the record of the run), so it is as offline as the default and runs on the same
tokenizer, pooling and fused graph.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from openapi_rag.embed.cache import file_digest
from openapi_rag.embed.minilm import MiniLMEmbedder
from openapi_rag.errors import EmbedderError

__all__ = ["TunedMiniLMEmbedder", "TunedMiniLMInt8Embedder", "register_embedders", "tuned_model_path"]

MODEL_ID = "all-MiniLM-L6-v2-users-onnx-int8"
INT8_MODEL_ID = "all-MiniLM-L6-v2-users-int8-arithmetic"
_MODEL_DIR = Path(__file__).resolve().parent.parent / "data" / "models" / "minilm-users"


def tuned_model_path() -> Path:
    """``model.onnx`` of `minilm-users`, inside this package."""
    path = _MODEL_DIR / "model.onnx"
    if not path.is_file():
        raise EmbedderError(
            f"the minilm-users model is missing from {_MODEL_DIR}: reinstall openapi-rag, or rebuild it "
            "with `python scripts/finetune_embedder.py` (needs the `train` extra)"
        )
    return path


class TunedMiniLMEmbedder(MiniLMEmbedder):
    """all-MiniLM-L6-v2 fine-tuned on user-phrased requests (384 dimensions); options as `MiniLMEmbedder`."""

    model_id = MODEL_ID

    def __init__(
        self,
        *,
        batch_size: int = 128,
        batch_tokens: int = 4 * 256,
        threads: int = 0,
        memory_arena: bool = True,
        fused: bool | None = None,
    ):
        # Explicit options (not **kwargs): `get_embedder` checks them against this signature.
        super().__init__(
            batch_size=batch_size,
            batch_tokens=batch_tokens,
            threads=threads,
            memory_arena=memory_arena,
            fused=fused,
        )

    def shipped_model_path(self) -> Path:
        return tuned_model_path()

    @property
    def cache_key(self) -> str:
        # The weights' digest too: a retrained model must not be served the old model's cached vectors.
        return f"{self.model_id}-{file_digest(tuned_model_path())}"


class TunedMiniLMInt8Embedder(TunedMiniLMEmbedder):
    """`minilm-users` computing in int8, as `minilm-q8` is the default's (`embed/minilm_int8.py`)."""

    model_id = INT8_MODEL_ID
    int8_arithmetic = True


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook: the fine-tuned model under its short names."""
    register("minilm-users", TunedMiniLMEmbedder, aliases=("minilm-users-int8", MODEL_ID))
    register("minilm-users-q8", TunedMiniLMInt8Embedder, aliases=(INT8_MODEL_ID,))
