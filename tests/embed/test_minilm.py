"""The real bundled model (loads from disk in well under a second)."""

from __future__ import annotations

import numpy as np
import pytest

from openapi_rag.embed import EmbedderError, get_embedder
from openapi_rag.embed.minilm import MiniLMEmbedder, minilm_model_path


@pytest.fixture(scope="module")
def minilm() -> MiniLMEmbedder:
    embedder = get_embedder("minilm")
    assert isinstance(embedder, MiniLMEmbedder)
    return embedder


def test_identity_and_shape(minilm):
    assert minilm.model_id == "all-MiniLM-L6-v2-onnx-int8"
    assert (minilm.dimensions, minilm.max_tokens) == (384, 256)
    assert minilm_model_path().name == "model.onnx"
    vectors = minilm.embed_many(["list playlists", "delete a card", ""])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)


def test_aliases_give_the_same_model():
    assert get_embedder("all-MiniLM-L6-v2").model_id == get_embedder("minilm").model_id
    assert get_embedder("all-MiniLM-L6-v2-onnx-int8").model_id == "all-MiniLM-L6-v2-onnx-int8"


def test_similar_requests_are_closer(minilm):
    query, same, other = minilm.embed_many(
        ["list all playlists of a user", "get a user's playlists", "delete a payment method"]
    )
    assert float(query @ same) > float(query @ other) + 0.3


def test_padding_does_not_change_a_vector(minilm):
    short = "get a user's playlists"
    alone = minilm.embed(short)
    batched = minilm.embed_many([short, "a much longer text " * 30])[0]
    assert float(alone @ batched) > 0.9999


def test_long_text_is_truncated_to_256_tokens(minilm):
    long_text = " ".join(f"word{i}" for i in range(2000))
    a, b = minilm.embed_many([long_text, long_text + " and something completely different at the end"])
    assert float(a @ b) > 0.99999  # only the first 256 tokens count


def test_batches_respect_the_token_budget(minilm):
    embedder = MiniLMEmbedder(batch_size=100, batch_tokens=256)
    texts = ["short"] * 5 + ["a longer text with several more words in it"] * 3 + ["x " * 300]
    sizes = []
    for indices, _ in embedder.iter_batches(texts):
        sizes.append(len(indices))
    assert sizes[0] == 1  # the 256-token text alone
    assert sum(sizes) == len(texts)
    reference = minilm.embed_many(texts)
    np.testing.assert_allclose(embedder.embed_many(texts), reference, atol=1e-5)


def test_bad_batch_settings_are_refused():
    with pytest.raises(EmbedderError, match="batch_tokens >= 256"):
        MiniLMEmbedder(batch_tokens=100)
