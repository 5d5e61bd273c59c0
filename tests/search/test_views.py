"""Short views max-pooled into the dense list, and a second embedder's list (`search/views.py`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from openapi_rag.errors import IndexDamaged
from openapi_rag.search.views import ViewVectors, pooled


def _unit(*rows: list[float]) -> np.ndarray:
    vectors = np.asarray(rows, dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_a_chunk_scores_its_best_view_once():
    views = ViewVectors(["a", "a", "b", "c"], _unit([1, 0], [0, 1], [1, 1], [-1, 0]))
    ranked = views.search(3, vector=np.asarray([0.0, 1.0], dtype=np.float32))
    assert [chunk_id for chunk_id, _ in ranked] == ["a", "b", "c"]
    assert ranked[0][1] == pytest.approx(1.0) and ranked[1][1] == pytest.approx(2**-0.5)
    assert views.search(1, vector=np.asarray([1.0, 0.0], dtype=np.float32)) == [("a", pytest.approx(1.0))]


def test_allowed_chunks_only_and_empty_cases():
    views = ViewVectors(["a", "a", "b"], _unit([1, 0], [0, 1], [1, 1]))
    query = np.asarray([0.0, 1.0], dtype=np.float32)
    assert [c for c, _ in views.search(5, vector=query, allowed=["b", "zzz"])] == ["b"]
    assert views.search(0, vector=query) == []
    assert ViewVectors([], np.zeros((0, 2), dtype=np.float32)).search(3, vector=query) == []
    with pytest.raises(ValueError, match="query vector"):
        views.search(3, text="words")


def test_pooled_keeps_each_chunk_at_its_best():
    assert pooled([("a", 0.5), ("b", 0.4)], [("b", 0.9), ("c", 0.1), ("a", 0.2)]) == [
        ("b", 0.9),
        ("a", 0.5),
        ("c", 0.1),
    ]


def test_save_and_load_round_trip_and_damage(tmp_path):
    views = ViewVectors(["a", "a", "b"], _unit([1, 0], [0, 1], [1, 1]))
    views.save(tmp_path / "views")
    loaded = ViewVectors.load(tmp_path / "views", ["a", "b"], directory=tmp_path)
    assert loaded is not None and list(loaded.ids) == ["a", "a", "b"] and loaded.embedder is None
    np.testing.assert_array_equal(loaded.vectors, views.vectors)
    assert ViewVectors.load(tmp_path / "none", ["a"], directory=tmp_path) is None
    with pytest.raises(IndexDamaged, match="does not match"):
        ViewVectors.load(tmp_path / "views", ["a"], directory=tmp_path)  # names a chunk the index lacks
    (tmp_path / "views" / "view.json").write_text(json.dumps({"ids": ["a"]}), "utf-8")
    with pytest.raises(IndexDamaged, match="cannot be read"):
        ViewVectors.load(tmp_path / "views", ["a", "b"], directory=tmp_path)
    (tmp_path / "views" / "view.json").write_text('{"ids": ["a"', "utf-8")
    with pytest.raises(IndexDamaged, match="view.json is not valid JSON"):
        ViewVectors.load(tmp_path / "views", ["a", "b"], directory=tmp_path)


def test_a_full_query_memo_starts_over_without_losing_the_texts_asked_for(monkeypatch):
    # A request's texts are embedded together; when the memo fills, those already known must still
    # be answered (a long-running server hit a KeyError here once the memo held QUERY_MEMO texts).
    from openapi_rag.embed import Embedder

    class Counting(Embedder):
        model_id, dimensions, max_tokens = "counting", 2, 16

        def _embed_batch(self, texts):
            return np.asarray([[len(t), 1.0] for t in texts], dtype=np.float32)

    monkeypatch.setattr("openapi_rag.search.views.QUERY_MEMO", 3)
    views = ViewVectors(["c1"], np.asarray([[1.0, 0.0]], dtype=np.float32), embedder=Counting())
    views.embed_queries(["a", "bb", "ccc"])  # the memo is full
    vectors = views.embed_queries(["bb", "dddd"])  # one known, one new: the memo starts over
    assert [float(v[0]) for v in vectors] == [2.0, 4.0]
    assert set(views._queries) == {"bb", "dddd"}
