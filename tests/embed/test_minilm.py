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


def test_length_buckets_pay_a_run_only_where_it_saves_more_padding():
    from openapi_rag.embed.minilm import length_buckets

    # one run of all three: 3 x 42 padded tokens + 9 = 135; [42] [31] [12]: 42 + 31 + 12 + 27 = 112
    assert length_buckets([42, 12, 31], most=128, budget=1024) == [[0], [2], [1]]
    # near lengths share a run: [20, 19, 18] padded to 20 is 60 + 9, alone 57 + 27
    assert length_buckets([18, 20, 19], most=128, budget=1024) == [[1, 2, 0]]
    assert length_buckets([10] * 5, most=2, budget=1024) == [[0, 1], [2, 3], [4]]  # `most` a run
    assert length_buckets([200, 200, 10], most=128, budget=256) == [[0], [1], [2]]  # the budget
    assert length_buckets([], most=1, budget=256) == []


def test_a_query_and_its_clauses_run_in_length_buckets_with_the_same_vectors(minilm, monkeypatch):
    texts = [
        "Create a new property listing for a luxury condominium in Manhattan, calculate its estimated "
        "valuation, and find the agents who sell most in that area",
        "create a property listing",
        "calculate its estimated valuation",
        "find agents",
    ]
    alone = np.stack([minilm.embed(text) for text in texts])
    runs, tokenized = [], []
    checked, token_ids = minilm._checked_ids, minilm._token_ids
    monkeypatch.setattr(minilm, "_checked_ids", lambda rows: runs.append(len(rows)) or checked(rows))
    monkeypatch.setattr(minilm, "_token_ids", lambda batch: tokenized.extend(batch) or token_ids(batch))
    together = minilm.embed_many(texts)
    assert sorted(runs) == [1, 3]  # the long query alone, the clauses together
    assert sorted(tokenized) == sorted(texts)  # each text tokenized once, for its bucket and its run
    np.testing.assert_allclose(together, alone, rtol=0, atol=1e-6)
