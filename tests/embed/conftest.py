"""Fixtures for the embedder tests: an isolated home and a deterministic fake embedder."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from openapi_rag.embed import Embedder, normalize_rows

# Besides those tests/conftest.py clears: our own settings, and lower-case proxies (httpx reads them).
_ENV = (
    "OPENAPI_RAG_EMBED_API_KEY",
    "OPENAPI_RAG_EMBED_BASE_URL",
    "OPENAPI_RAG_ALLOW_DOWNLOAD",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
)


@pytest.fixture(autouse=True)
def embed_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No embedding keys, base URLs or proxies from the developer's shell."""
    for name in _ENV:
        monkeypatch.delenv(name, raising=False)


class FakeEmbedder(Embedder):
    """8-dimensional vectors from hashed words; records every batch it is asked for."""

    model_id = "fake"
    dimensions = 8
    max_tokens = 64

    def __init__(self, *, batch_size: int = 2, fail_on_batch: int | None = None) -> None:
        self.batch_size = batch_size
        self.batches: list[list[str]] = []
        self.fail_on_batch = fail_on_batch

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if self.fail_on_batch is not None and len(self.batches) == self.fail_on_batch:
            raise KeyboardInterrupt
        self.batches.append(list(texts))
        return normalize_rows(np.stack([vector_of(t) for t in texts]))

    @property
    def embedded(self) -> list[str]:
        return [t for batch in self.batches for t in batch]


def vector_of(text: str) -> np.ndarray:
    vector = np.zeros(8, dtype=np.float32)
    for word in text.split() or [""]:
        digest = hashlib.sha256(word.encode()).digest()
        vector[digest[0] % 8] += 1.0 + digest[1] / 255
    return vector


@pytest.fixture
def fake() -> FakeEmbedder:
    return FakeEmbedder()
