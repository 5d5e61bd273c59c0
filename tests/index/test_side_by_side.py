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
