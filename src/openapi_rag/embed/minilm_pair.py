"""The default MiniLM and a fine-tune of it that kept its lowest layers, run as one graph.

`minilm-users` (`tuned.py`) was fine-tuned with the embeddings and the lowest of the six layers frozen
(three until session 20), so for any text those compute exactly what the default's compute. An index
embeds every chunk with both models (the second list); run as one graph
(`minilm_graph.paired_minilm_model`) the shared part runs once and each model's own layers after it:
11 layer runs a text where two models take 12, ~9% less CPU (600 endpoint texts, one thread: 8.9 ->
8.0 s; 6.5 s with three shared layers). The nodes and weights are each model's own, so the vectors
are too, bit for bit.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from openapi_rag.embed.base import normalize_rows
from openapi_rag.embed.minilm import MiniLMEmbedder, padded_ids

__all__ = ["PairedMiniLM"]


class PairedMiniLM(MiniLMEmbedder):
    """Two MiniLM exports that share their lowest layers, as one embedder whose rows hold both
    models' vectors side by side (768 columns: the first model's 384, then the second's; `split`).

    Build it with `PairedMiniLM.of(first, second)`, which says None where the two cannot share a graph.
    Options (threads, batch sizes, memory arena) are the first model's, or `threads` given here.
    """

    dimensions = 768

    def __init__(self, first: MiniLMEmbedder, second: MiniLMEmbedder, *, threads: int | None = None):
        super().__init__(
            batch_size=first.batch_size,
            batch_tokens=first.batch_tokens,
            threads=first._threads if threads is None else threads,
            memory_arena=first._memory_arena,
            fused=True,
        )
        self.first, self.second = first, second
        self.model_id = f"{first.model_id}+{second.model_id}"

    @classmethod
    def of(cls, first: object, second: object, *, threads: int | None = None) -> PairedMiniLM | None:
        """The pair of `first` and `second`, or None unless both run a shipped export of this model in
        the fused float graph (the `fused` extra) and share at least one layer above the embeddings."""
        if not all(
            isinstance(m, MiniLMEmbedder) and m._model_path is None and m._fused and not m.int8_arithmetic
            for m in (first, second)
        ):
            return None
        assert isinstance(first, MiniLMEmbedder) and isinstance(second, MiniLMEmbedder)
        if _shared_layers(first.shipped_model_path(), second.shipped_model_path()) < 1:
            return None
        return cls(first, second, threads=threads)

    def with_threads(self, threads: int) -> PairedMiniLM:
        return PairedMiniLM(self.first, self.second, threads=threads)

    def _graph(self) -> bytes:
        from openapi_rag.embed.minilm_graph import paired_minilm_model

        model, _ = paired_minilm_model(self.first.shipped_model_path(), self.second.shipped_model_path())
        return bytes(model.SerializeToString())

    def _embed_ids(self, rows: list[list[int]]) -> np.ndarray:
        ids, mask = padded_ids(rows)
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        hidden = self._session.run(["last_hidden_state", "second_hidden_state"], feeds)
        weights = mask[..., None].astype(np.float32)
        count = np.maximum(weights.sum(axis=1), 1e-9)
        # Pooled and normalised as each model alone does it (`MiniLMEmbedder._embed_ids`).
        return np.hstack([normalize_rows((h * weights).sum(axis=1) / count) for h in hidden])

    @staticmethod
    def split(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The first model's vectors and the second's, out of this embedder's rows."""
        half = vectors.shape[1] // 2
        return vectors[:, :half], vectors[:, half:]


@functools.cache
def _shared_layers(first: Path, second: Path) -> int:
    """Layers the two exports share, read once a process (two model files, ~0.2 s)."""
    from openapi_rag.embed.minilm_graph import shared_layers_of

    return shared_layers_of(first, second)
