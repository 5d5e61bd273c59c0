from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from openapi_rag.embed import EmbedderError, EmbeddingCache, default_cache_root, embed_with_cache

from .conftest import FakeEmbedder


def vectors(n: int, dims: int = 4, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).random((n, dims), dtype=np.float32)


def test_default_location_is_under_openapi_rag_home():
    cache = EmbeddingCache("openai:text-embedding-3-small")
    home = Path(os.environ["OPENAPI_RAG_HOME"])
    assert default_cache_root() == home / "cache" / "embeddings"
    assert cache.path == home / "cache" / "embeddings" / "openai_text-embedding-3-small" / "vectors.sqlite"
    assert cache.path.is_file()


def test_miss_then_hit(tmp_path):
    cache = EmbeddingCache("m", root=tmp_path)
    found, missing = cache.get_many(["a", "b"])
    assert found == {} and missing == [0, 1]
    stored = vectors(2)
    cache.put_many(["a", "b"], stored)
    found, missing = cache.get_many(["b", "c", "a", "b"])
    assert missing == [1]
    assert sorted(found) == [0, 2, 3]
    np.testing.assert_array_equal(found[0], stored[1])
    np.testing.assert_array_equal(found[2], stored[0])
    np.testing.assert_array_equal(found[3], stored[1])
    assert found[0].dtype == np.float32 and found[0].flags.writeable
    assert len(cache) == 2 and cache.dimensions == 4


def test_vectors_persist_across_instances(tmp_path):
    with EmbeddingCache("m", root=tmp_path) as first:
        first.put_many(["kept"], vectors(1, seed=3))
    second = EmbeddingCache("m", root=tmp_path)
    found, missing = second.get_many(["kept"])
    assert missing == []
    np.testing.assert_array_equal(found[0], vectors(1, seed=3)[0])
    assert second.dimensions == 4


def test_models_are_kept_apart(tmp_path):
    EmbeddingCache("model-a", root=tmp_path).put_many(["t"], vectors(1))
    assert EmbeddingCache("model-b", root=tmp_path).get_many(["t"])[1] == [0]


def test_a_directory_of_another_model_is_refused(tmp_path):
    EmbeddingCache("a/b", root=tmp_path)  # slug a_b
    with pytest.raises(EmbedderError, match="caches 'a/b', not 'a:b'"):
        EmbeddingCache("a:b", root=tmp_path)


def test_put_checks_shapes_and_dimensions(tmp_path):
    cache = EmbeddingCache("m", root=tmp_path)
    with pytest.raises(ValueError, match="one vector per text"):
        cache.put_many(["a", "b"], vectors(3))
    cache.put_many(["a"], vectors(1, dims=4))
    with pytest.raises(EmbedderError, match="holds 4-dimensional vectors"):
        cache.put_many(["b"], vectors(1, dims=5))
    cache.clear()
    assert len(cache) == 0
    cache.put_many(["b"], vectors(1, dims=5))  # an emptied cache takes a new size


def test_many_texts_and_odd_text(tmp_path):
    cache = EmbeddingCache("m", root=tmp_path)
    texts = [f"text {i}" for i in range(2500)] + ["lone surrogate \ud800", ""]
    cache.put_many(texts, vectors(len(texts)))
    found, missing = cache.get_many(texts)
    assert missing == [] and len(found) == len(texts)


def test_embed_with_cache_embeds_each_missing_text_once(tmp_path):
    fake = FakeEmbedder()
    cache = EmbeddingCache.for_embedder(fake, root=tmp_path)
    texts = ["alpha", "beta", "alpha", "gamma delta"]
    first = embed_with_cache(fake, texts, cache)
    assert sorted(fake.embedded) == ["alpha", "beta", "gamma delta"]
    np.testing.assert_array_equal(first, fake.embed_many(texts))

    fake.batches.clear()
    second = embed_with_cache(fake, texts + ["new one"], cache)
    assert fake.embedded == ["new one"]
    np.testing.assert_array_equal(second[:4], first)
    assert len(cache) == 4


def test_embed_with_cache_keeps_finished_batches_when_interrupted(tmp_path):
    fake = FakeEmbedder(batch_size=2, fail_on_batch=1)  # the second batch is "Ctrl-C"
    cache = EmbeddingCache.for_embedder(fake, root=tmp_path)
    with pytest.raises(KeyboardInterrupt):
        embed_with_cache(fake, ["a", "bb", "ccc", "dddd"], cache)
    assert len(cache) == 2  # the longest two, embedded first
    assert cache.get_many(["dddd", "ccc", "bb", "a"])[1] == [2, 3]


def test_embed_with_cache_without_cache_and_without_texts(tmp_path):
    fake = FakeEmbedder()
    assert embed_with_cache(fake, ["x"], None).shape == (1, 8)
    assert embed_with_cache(fake, [], EmbeddingCache.for_embedder(fake, root=tmp_path)).shape == (0, 8)


def test_embed_with_cache_refuses_another_models_cache(tmp_path):
    with pytest.raises(EmbedderError, match="cache of 'other'"):
        embed_with_cache(FakeEmbedder(), ["x"], EmbeddingCache("other", root=tmp_path))
