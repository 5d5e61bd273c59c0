"""Fixtures for index tests: a fast deterministic embedder registered by name, and small spec folders."""

from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from openapi_rag.embed import Embedder, normalize_rows, register_embedder, unregister_embedder

FIXTURES = Path(__file__).resolve().parents[1] / "spec" / "fixtures"
CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"


class WordHashEmbedder(Embedder):
    """64-dimensional bag of hashed lower-case words: similar texts get similar vectors, instantly."""

    model_id = "word-hash"
    dimensions = 64
    max_tokens = 10_000

    def __init__(self) -> None:
        self.calls = 0

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        self.calls += len(texts)
        rows = []
        for text in texts:
            vector = np.zeros(64, dtype=np.float32)
            for word in re.findall(r"[a-z]+", text.lower()):
                vector[hashlib.sha256(word.encode()).digest()[0] % 64] += 1.0
            rows.append(vector if vector.any() else np.ones(64, dtype=np.float32))
        return normalize_rows(np.stack(rows))


@pytest.fixture(autouse=True)
def word_hash() -> WordHashEmbedder:
    instance = WordHashEmbedder()
    register_embedder("word-hash", lambda **_: instance)
    yield instance
    unregister_embedder("word-hash")


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    """A folder with three small real specs from the example catalog."""
    folder = tmp_path / "specs"
    folder.mkdir()
    for name in ("uber.yaml", "yelp.yaml", "redocly-museum.yaml"):
        shutil.copy(CATALOG / name, folder / name)
    return folder
