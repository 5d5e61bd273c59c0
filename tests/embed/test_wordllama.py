"""`wordllama`: static word vectors read from the installed wheel's data, offline."""

from __future__ import annotations

import socket
import sys

import numpy as np
import pytest

from openapi_rag.embed import get_embedder, list_embedders

pytest.importorskip("safetensors")
if __import__("importlib").util.find_spec("wordllama") is None:
    pytest.skip('needs the static extra: pip install "openapi-rag[static]"', allow_module_level=True)

from openapi_rag.embed.wordllama import WordLlamaEmbedder, wordllama_files  # noqa: E402


@pytest.fixture()
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network at all: a connection attempt fails the test."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the wordllama embedder tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_loads_the_bundled_files_offline_without_importing_the_package(offline):
    weights, tokenizer = wordllama_files()
    assert weights.stat().st_size > 10_000_000 and tokenizer.is_file()  # the real table, not a pointer
    sys.modules.pop("wordllama", None)
    embedder = get_embedder("wordllama")
    assert isinstance(embedder, WordLlamaEmbedder) and "wordllama" in list_embedders()
    vectors = embedder.embed_many(["delete a customer", "remove a client", "list invoices", ""])
    assert "wordllama" not in sys.modules  # its code (root logging, downloads) never runs
    assert vectors.shape == (4, 256) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors[:3], axis=1), 1.0, rtol=1e-5)
    assert not vectors[3].any()  # an empty text has no tokens: a zero vector, not NaN
    similar, unrelated = vectors[0] @ vectors[1], vectors[0] @ vectors[2]
    assert similar > unrelated + 0.1


def test_long_text_is_cut_at_max_tokens(offline):
    short = WordLlamaEmbedder(max_tokens=4)
    assert np.allclose(short.embed("one two three four five six"), short.embed("one two three four seven"))


def test_a_few_texts_and_a_pool_sized_batch_give_the_same_vectors(offline, monkeypatch):
    from openapi_rag.embed import minilm

    embedder = get_embedder("wordllama")
    texts = [f"refund order {i} to the customer's card" for i in range(minilm.POOL_MIN_TEXTS + 3)]
    pooled = embedder.embed_many(texts)  # the tokenizer's thread pool
    called = []
    tokenizer = embedder._tokenizer

    class OneByOne:  # the single-text call only: a batch call would fail the test
        def encode(self, text: str, **options: object) -> object:
            called.append(text)
            return tokenizer.encode(text, **options)

    monkeypatch.setattr(embedder, "_tokenizer", OneByOne())
    alone = np.stack([embedder.embed(t) for t in texts[:3]])  # in the calling thread
    assert called == texts[:3]
    np.testing.assert_array_equal(alone, pooled[:3])
