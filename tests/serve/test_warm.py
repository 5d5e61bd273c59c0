"""Before workers fork, the served index is loaded as far as searches read it."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.serve.service import IndexHolder


def test_opening_for_serving_loads_heads_and_catalog_tables(index_dir: Path) -> None:
    index = IndexHolder(index_dir).current.index
    store, searcher = index.store, index.searcher
    assert store._index is not None  # the FAISS index
    assert set(store._heads) == set(store.ids())  # every chunk head, decoded once
    assert searcher._graph is not None and searcher._api_names is not None
    assert index._embedder is None  # warmed without starting the embedder (workers start their own)
