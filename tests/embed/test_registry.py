from __future__ import annotations

import sys

import numpy as np
import pytest

from openapi_rag.embed import (
    Embedder,
    EmbedderError,
    MissingDependency,
    UnknownEmbedder,
    get_embedder,
    list_embedders,
    register_embedder,
    unregister_embedder,
)

from .conftest import FakeEmbedder, vector_of


@pytest.fixture
def registered_fake():
    register_embedder("fake", FakeEmbedder, aliases=("fake-alias",))
    yield
    unregister_embedder("fake")


def test_builtins_are_listed():
    names = list_embedders()
    assert {"minilm", "openai:<model>", "sentence-transformers:<model>"} <= set(names)
    assert names == sorted(names)


def test_unknown_embedder_lists_every_valid_name():
    with pytest.raises(UnknownEmbedder) as info:
        get_embedder("nope")
    message = str(info.value)
    assert message.startswith("Unknown embedder 'nope'. Valid names: ")
    for name in list_embedders():
        assert name in message
    assert "all-MiniLM-L6-v2" in message  # aliases too


def test_family_without_model_says_what_is_missing():
    with pytest.raises(UnknownEmbedder, match=r"'openai' needs a model: openai:<model>"):
        get_embedder("openai")


def test_registered_fake_by_name_and_alias(registered_fake):
    assert "fake" in list_embedders()
    assert isinstance(get_embedder("fake"), FakeEmbedder)
    assert get_embedder("fake-alias", batch_size=5).batch_size == 5


def test_unregister_removes_the_name(registered_fake):
    unregister_embedder("fake")
    with pytest.raises(UnknownEmbedder):
        get_embedder("fake")


def test_family_factory_receives_the_model():
    seen = []

    def factory(model: str, **options: object) -> Embedder:
        seen.append((model, options))
        return FakeEmbedder()

    register_embedder("toy", factory, family=True)
    try:
        get_embedder("toy:some/model:v2", batch_size=3)
        assert "toy:<model>" in list_embedders()
    finally:
        unregister_embedder("toy")
    assert seen == [("some/model:v2", {"batch_size": 3})]


def test_names_with_colons_are_refused():
    with pytest.raises(ValueError, match="':'"):
        register_embedder("a:b", FakeEmbedder)


def test_bad_options_name_the_embedder():
    with pytest.raises(EmbedderError, match=r"Bad options for embedder 'minilm': .*'colour'"):
        get_embedder("minilm", colour="blue")


def test_sentence_transformers_missing_gives_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # import now fails
    with pytest.raises(MissingDependency) as info:
        get_embedder("sentence-transformers:all-mpnet-base-v2")
    assert 'pip install "openapi-rag[local]"' in str(info.value)
    with pytest.raises(MissingDependency):
        get_embedder("st:all-mpnet-base-v2")


# -- the base class ----------------------------------------------------------------------------


def test_embed_many_restores_order_across_length_sorted_batches(fake):
    texts = ["a", "a much longer text here", "mid size", "bb", "x y z w v u", "q"]
    vectors = fake.embed_many(texts)
    assert vectors.shape == (6, 8) and vectors.dtype == np.float32
    for text, vector in zip(texts, vectors, strict=True):
        expected = vector_of(text) / np.linalg.norm(vector_of(text))
        np.testing.assert_allclose(vector, expected, rtol=1e-6)
    # Batches of 2, longest first: less padding, and the heaviest batch comes first.
    assert fake.batches[0] == ["a much longer text here", "x y z w v u"]
    assert all(len(b) <= 2 for b in fake.batches)


def test_embed_one_and_empty_input(fake):
    assert fake.embed("hello").shape == (8,)
    assert fake.embed_many([]).shape == (0, 8)
    assert fake.embed_many(iter(["from", "a generator"])).shape == (2, 8)


def test_a_batch_of_the_wrong_size_is_an_error():
    class Broken(FakeEmbedder):
        def _embed_batch(self, texts):
            return np.zeros((len(texts) + 1, 8), dtype=np.float32)

    with pytest.raises(EmbedderError, match="3 vectors for 2 texts"):
        Broken().embed_many(["a", "b"])


def test_vectors_of_the_wrong_dimension_are_an_error():
    class Broken(FakeEmbedder):
        def _embed_batch(self, texts):
            return np.ones((len(texts), 5), dtype=np.float32)

    with pytest.raises(EmbedderError, match="5 dimensions, expected 8"):
        Broken().embed("a")


def test_progress_bar_goes_to_stderr(fake, monkeypatch, capsys):
    monkeypatch.delenv("OPENAPI_RAG_NO_PROGRESS", raising=False)
    fake.embed_many(["a", "b", "c"], show_progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "embedding:" in captured.err and "/3" in captured.err
