"""The two models embed a build's new chunks side by side: the same vectors as one after the other."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from openapi_rag.embed import get_embedder
from openapi_rag.embed.cache import EmbeddingCache
from openapi_rag.index.index import embed_chunks
from openapi_rag.index.side_by_side import MIN_CHUNKS, embed_new_chunks
from openapi_rag.spec import load_services
from tests.conftest import shared_data


def test_side_by_side_gives_the_first_models_vectors_and_caches_the_seconds(tmp_path: Path) -> None:
    from openapi_rag.chunking import get_strategy

    nytimes = shared_data("realworld", "nytimes")
    chunks = get_strategy("compact").chunk(load_services([nytimes]).services)
    chunks = (chunks * 2)[: MIN_CHUNKS + 6]  # repeated texts are embedded once
    assert len(chunks) >= MIN_CHUNKS
    first, second = get_embedder("minilm"), get_embedder("minilm-users")
    alone = first.embed_many([c.embed_text for c in chunks])
    together = embed_new_chunks(first, second, chunks, cores=2)
    assert np.array_equal(together, alone)  # bit for bit: threads never change a sum
    texts = [c.embed_text for c in chunks]
    with EmbeddingCache(second.cache_key) as cache:  # the second model's, cached meanwhile
        found, missing = cache.get_many(texts)
    assert not missing and len(found) == len(texts)
    assert np.array_equal(embed_chunks(second, chunks), second.embed_many(texts))


def test_the_shipped_graphs_still_run_side_by_side_with_the_same_vectors() -> None:
    from openapi_rag.embed.minilm import MiniLMEmbedder
    from openapi_rag.embed.minilm_pair import PairedMiniLM
    from openapi_rag.embed.tuned import TunedMiniLMEmbedder

    chunks = _nytimes_chunks()
    first, second = MiniLMEmbedder(fused=False), TunedMiniLMEmbedder(fused=False)
    assert PairedMiniLM.of(first, second) is None  # no fused graph: no paired one either
    texts = [c.embed_text for c in chunks]
    assert np.array_equal(embed_new_chunks(first, second, chunks, cores=2), first.embed_many(texts))
    with EmbeddingCache(second.cache_key) as cache:
        assert not cache.get_many(texts)[1]


def test_texts_one_cache_already_holds_are_embedded_by_the_other_model_alone(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from openapi_rag.embed.minilm_pair import PairedMiniLM
    from openapi_rag.index import side_by_side

    chunks = _nytimes_chunks()
    texts = list(dict.fromkeys(c.embed_text for c in chunks))
    first, second = get_embedder("minilm"), get_embedder("minilm-users")
    pair = PairedMiniLM.of(first, second)
    assert pair is not None
    with EmbeddingCache(first.cache_key) as cache:  # an earlier build's: the first model's only
        cache.put_many(texts[:20], first.embed_many(texts[:20]))
    runs: list[tuple[str, list[str]]] = []
    embed_into = side_by_side._embed_into
    monkeypatch.setattr(
        side_by_side,
        "_embed_into",
        lambda model, todo, *a, **kw: (
            runs.append((model.model_id, todo)) or embed_into(model, todo, *a, **kw)
        ),
    )
    side_by_side.cache_both(pair, texts, workers=2)
    assert (
        [(name, sorted(todo)) for name, todo in runs]
        == [
            (pair.model_id, sorted(texts[20:])),  # both lack them: the pair
            (second.model_id, sorted(texts[:20])),  # the second model's alone
        ]
    )
    for model in (first, second):
        assert np.array_equal(embed_chunks(model, chunks), model.embed_many([c.embed_text for c in chunks]))


def _nytimes_chunks() -> list:
    from openapi_rag.chunking import get_strategy

    nytimes = shared_data("realworld", "nytimes")
    chunks = get_strategy("compact").chunk(load_services([nytimes]).services)
    return (chunks * 2)[: MIN_CHUNKS + 6]
