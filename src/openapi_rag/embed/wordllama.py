"""`wordllama`: static word vectors from a large LLM's token table (the `wordllama` wheel's data).

WordLlama (D. Lee Miller, MIT) trims the token-embedding table of Llama 2 models to 256 dimensions
and trains it so that the mean of a text's token vectors embeds the text: no network, one lookup
and a mean per text, about a thousand times cheaper than a transformer. Its tokenizer holds
32,000 tokens learnt from far more text than MiniLM's 30,522 WordPiece vocabulary, so it has a
vector of its own for more of the words users and APIs write.

The weights and tokenizer are package data of the `wordllama` wheel (~19 MB, the `static` extra).
They are read by locating the package, without importing it: its code configures the root logger
on import and can fetch weights from the network when a file is missing, and neither may happen
here (offline by default, `tests/embed/test_wordllama.py` blocks the network).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from openapi_rag.embed.base import Embedder, normalize_rows
from openapi_rag.embed.minilm import encode_ids
from openapi_rag.errors import EmbedderError, MissingDependency
from openapi_rag.paths import package_dirs

__all__ = ["WordLlamaEmbedder", "register_embedders", "wordllama_files"]

MODEL_ID = "wordllama-l2-supercat-256"
WEIGHTS = "weights/l2_supercat_256.safetensors"
TOKENIZER = "tokenizers/l2_supercat_tokenizer_config.json"
TENSOR = "embedding.weight"
INSTALL = 'pip install "openapi-rag[static]"'


def wordllama_files() -> tuple[Path, Path]:
    """The weights and tokenizer files inside the installed `wordllama` package.

    Raises:
        MissingDependency: the package is not installed.
        EmbedderError: it is installed without the files (a build that did not bundle them).
    """
    folders = package_dirs("wordllama")
    if not folders:
        raise MissingDependency(f"the wordllama embedder needs its weights: {INSTALL}")
    root = folders[0]
    weights, tokenizer = root / WEIGHTS, root / TOKENIZER
    for path in (weights, tokenizer):
        if not path.is_file():
            raise EmbedderError(
                f"{path} is missing from the installed wordllama package: reinstall it ({INSTALL})"
            )
    return weights, tokenizer


class WordLlamaEmbedder(Embedder):
    """Mean of a text's static token vectors (256 dimensions), L2-normalised."""

    model_id = MODEL_ID
    dimensions = 256
    max_tokens = 512
    batch_size = 256

    def __init__(self, *, max_tokens: int = 512):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        weights, tokenizer = wordllama_files()
        table = load_file(str(weights)).get(TENSOR)
        if table is None or table.ndim != 2 or table.shape[1] != self.dimensions:
            raise EmbedderError(f"{weights} holds no {self.dimensions}-dimensional {TENSOR!r} table")
        self._table = np.ascontiguousarray(table, dtype=np.float32)
        self._tokenizer = Tokenizer.from_file(str(tokenizer))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self.max_tokens = max_tokens

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        last = self._table.shape[0] - 1
        for row, token_ids in enumerate(encode_ids(self._tokenizer, texts, add_special_tokens=False)):
            ids = np.clip(np.asarray(token_ids[: self.max_tokens], dtype=np.int64), 0, last)
            if ids.size:
                out[row] = self._table[ids].mean(axis=0)
        return normalize_rows(out)


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook (the weights are read on first use, so listing needs no extra)."""
    register("wordllama", WordLlamaEmbedder, aliases=(MODEL_ID,))
