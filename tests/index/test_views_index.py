"""An index keeps its short views and a second embedder's vectors on disk, and searches with them."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from openapi_rag.chunking import get_strategy
from openapi_rag.index import Index, build_index
from openapi_rag.search.settings import SearchSettings
from openapi_rag.search.views import VIEWS
from openapi_rag.spec import load_services


def _with_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """`compact` writes views by default (they are off: `chunking/compact.py` VIEWS)."""
    from openapi_rag.chunking.compact import CompactStrategy

    monkeypatch.setitem(CompactStrategy.__init__.__kwdefaults__, "views", True)


def test_views_are_built_saved_loaded_and_pooled(specs, tmp_path):
    strategy = get_strategy("compact", views=True)
    index = Index.build(load_services([specs]).services, strategy=strategy, embedder="word-hash")
    chunks = list(index.store.chunks())
    assert index.views is not None and len(index.views) == sum(len(c.metadata[VIEWS]) for c in chunks)
    assert index.manifest.strategy_params["views"] is True
    index.save(tmp_path / "idx")
    opened = Index.open(tmp_path / "idx", settings=SearchSettings(view_pool=True))
    assert opened.views is not None and list(opened.views.ids) == list(index.views.ids)
    np.testing.assert_array_equal(opened.views.vectors, index.views.vectors)
    # A view's own words reach its operation even where the whole line is a blur of other fields.
    chunk = next(c for c in chunks if len(c.metadata[VIEWS]) > 1)
    view = chunk.metadata[VIEWS][-1]
    pooled = opened.searcher.search_chunks(view, mode="dense", k=3)
    assert pooled[0].chunk_id == chunk.id and pooled[0].score == pytest.approx(1.0, abs=1e-5)
    opened.searcher.configure(view_pool=False)
    alone = opened.searcher.search_chunks(view, mode="dense", k=3)
    assert all(hit.score < 0.999 for hit in alone)


def test_an_update_keeps_the_views(specs, tmp_path, monkeypatch):
    _with_views(monkeypatch)
    build_index([specs], tmp_path / "idx", embedder="word-hash")
    before = Index.open(tmp_path / "idx").views
    (specs / "yelp.yaml").unlink()
    build_index([specs], tmp_path / "idx", embedder="word-hash")
    after = Index.open(tmp_path / "idx")
    assert before is not None and after.views is not None
    assert set(after.views.ids) == set(after.store.ids()) and len(after.views) < len(before)


def test_by_default_there_is_no_views_folder(specs, tmp_path):
    index = Index.build(load_services([specs]).services, embedder="word-hash")
    index.save(tmp_path / "idx")
    assert index.views is None and not (tmp_path / "idx" / VIEWS).exists()
    assert Index.open(tmp_path / "idx").views is None


@pytest.mark.skipif(importlib.util.find_spec("wordllama") is None, reason="needs the static extra")
def test_a_static_view_is_a_third_list(specs, tmp_path):
    index = Index.build(load_services([specs]).services, embedder="word-hash", static="wordllama")
    index.save(tmp_path / "idx")
    opened = Index.open(tmp_path / "idx")
    assert opened.static is not None and opened.static.embedder.model_id == "wordllama-l2-supercat-256"
    assert set(opened.static.ids) == set(opened.store.ids()) and opened.static.vectors.shape[1] == 256
    query = "buy a ticket for the museum"
    off = [h.id for h in opened.search(query, k=5, expand=False)]
    opened.searcher.configure(static_weight=1.0, dense_weight=0.0, bm25_weight=0.0)
    alone = opened.search(query, k=5, expand=False)
    assert alone and alone[0].service == "redocly-museum-api" and "ticket" in alone[0].id.lower()
    assert off  # the default ignores the view (static_weight 0)


def test_views_as_a_third_list_of_the_hybrid_fusion(specs, tmp_path):
    strategy = get_strategy("compact", views=True)
    index = Index.build(load_services([specs]).services, strategy=strategy, embedder="word-hash")
    chunk = next(c for c in index.store.chunks() if len(c.metadata[VIEWS]) > 1)
    query = chunk.metadata[VIEWS][-1]
    listed = index.searcher.search_chunks(query, mode="hybrid", k=200)
    index.searcher.configure(view_weight=1.0)
    with_views = index.searcher.search_chunks(query, mode="hybrid", k=200)
    assert with_views[0].chunk_id == chunk.id
    assert [h.score for h in with_views] != [h.score for h in listed]  # a third list was fused
    index.searcher.configure(view_weight=0.0)
    assert [(h.chunk_id, h.score) for h in index.searcher.search_chunks(query, mode="hybrid", k=200)] == [
        (h.chunk_id, h.score) for h in listed
    ]


def test_pooled_and_fused_views_are_searched_once_per_text(specs, tmp_path, monkeypatch):
    strategy = get_strategy("compact", views=True)
    index = Index.build(load_services([specs]).services, strategy=strategy, embedder="word-hash")
    chunk = next(c for c in index.store.chunks() if len(c.metadata[VIEWS]) > 1)
    query = chunk.metadata[VIEWS][-1]
    assert index.views is not None
    searched = []
    search = index.views.search
    monkeypatch.setattr(index.views, "search", lambda *a, **kw: searched.append(1) or search(*a, **kw))
    index.searcher.configure(view_pool=True, view_weight=1.0, clauses=False)
    both = index.searcher.search_chunks(query, mode="hybrid", k=50)
    assert len(searched) == 1  # one text: one view search serves the pooling and the third list
    assert both[0].chunk_id == chunk.id and both[0].dense_score == pytest.approx(1.0, abs=1e-5)
    index.searcher.configure(view_weight=0.0)
    pooled_only = index.searcher.search_chunks(query, mode="hybrid", k=50)
    assert [h.score for h in both] != [h.score for h in pooled_only]  # the views were fused too
