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


def test_the_screen_is_built_after_a_reload_but_not_before_a_fork(index_dir: Path, tmp_path: Path) -> None:
    import importlib.util
    import os
    import shutil

    import pytest

    if importlib.util.find_spec("onnx") is None:
        pytest.skip("the screen needs the onnx package (the `fused` extra)")
    served = tmp_path / "idx"
    shutil.copytree(index_dir, served)
    holder = IndexHolder(served)
    # Opened as the parent opens it before forking workers: no ONNX Runtime session yet (none
    # survives a fork); each worker builds its own in `warm_embedder`.
    assert holder.current.index.store._screening[2] is None
    manifest = served / "manifest.json"
    stat = manifest.stat()
    os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a rebuilt index
    assert holder.poll()
    assert holder.current.index.store._screening[2] is not None  # built by the reload, not a request


def test_a_worker_starts_the_second_embedder_too(index_dir: Path) -> None:
    from openapi_rag.serve.service import warm_embedder

    index = IndexHolder(index_dir).current.index
    second = index.static.embedder  # a new index with the default embedder holds minilm-users' list
    assert second._session is None  # not before a fork
    warm_embedder(index)
    assert second._session is not None  # each worker's own, before its first request
