"""Several queries screened by one product give FAISS's own top lists, scores bit for bit."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from types import SimpleNamespace

import faiss
import numpy as np
import pytest

from openapi_rag.model import Chunk
from openapi_rag.store import FaissStore
from openapi_rag.store import screen as screen_module
from openapi_rag.store.screen import Screen, screen_margin, screened_top

pytestmark = pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="needs the onnx package")

DIM = 384


def catalog_like(n: int, seed: int = 0) -> np.ndarray:
    """Unit rows with what a catalog has: exact copies (one API in JSON and YAML: tied scores)
    and near-copies a rounding apart (where two roundings could order them differently)."""
    rng = np.random.default_rng(seed)
    rows = rng.standard_normal((n, DIM)).astype(np.float32)
    rows[n // 2 : n // 2 + 40] = rows[:40]  # copies
    rows[n // 2 + 40 : n // 2 + 80] = rows[40:80] * np.float32(1 + 1e-7)  # near-copies
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def queries_near(rows: np.ndarray, count: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    picked = rows[rng.integers(0, 80, count)] + 0.05 * rng.standard_normal((count, DIM)).astype(np.float32)
    return np.ascontiguousarray(picked / np.linalg.norm(picked, axis=1, keepdims=True), dtype=np.float32)


def test_screened_scores_are_faiss_scores_bit_for_bit() -> None:
    rows = catalog_like(3000)
    queries = queries_near(rows, 8)
    flat = faiss.IndexFlatIP(DIM)
    flat.add(rows)
    for m in (1, 10, 58, 400):
        expected_scores, expected_rows = flat.search(queries, m)
        scores, found = screened_top(queries, rows, m, screen=Screen(rows), largest_norm=1.0)
        for qi in range(len(queries)):
            assert np.array_equal(np.sort(scores[qi]), np.sort(expected_scores[qi]))  # same bits
            last = expected_scores[qi][-1]  # rows above the m-th score are the same rows
            assert set(found[qi][scores[qi] > last]) == set(expected_rows[qi][expected_scores[qi] > last])


def test_the_product_rounds_otherwise_within_the_margin() -> None:
    rows = catalog_like(3000)
    queries = queries_near(rows, 8)
    products = Screen(rows).products(queries)
    margin = screen_margin(queries, 1.0)
    out = np.empty(len(rows), dtype=np.float32)
    for qi in range(len(queries)):
        faiss.fvec_inner_products_ny(
            faiss.swig_ptr(out), faiss.swig_ptr(queries[qi]), faiss.swig_ptr(rows), DIM, len(rows)
        )
        difference = np.abs(products[qi] - out).max()
        assert difference < margin[qi] / 4  # the bound the margin doubles twice


def store_of(rows: np.ndarray, make_chunk: Callable[..., Chunk]) -> FaissStore:
    chunks = [make_chunk(f"c{i:04d}") for i in range(len(rows))]
    store = FaissStore(DIM)
    store.add([c.id for c in chunks], rows, chunks)
    return store


def test_several_queries_get_the_lists_of_one_at_a_time(make_chunk: Callable[..., Chunk]) -> None:
    rows = catalog_like(1500)
    store = store_of(rows, make_chunk)
    queries = queries_near(rows, 6)
    together = store.search(queries, k=20)
    assert store._screen()[1] is not None  # the screen answered, not FAISS's scan
    assert together == [store.search(query, k=20)[0] for query in queries]
    assert all(len(ranked) == 20 for ranked in together)


def test_ties_past_the_slack_are_still_ordered_by_id(make_chunk: Callable[..., Chunk]) -> None:
    rows = catalog_like(600)
    rows[100:140] = rows[0]  # 41 rows tied for the best score of a query along rows[0]
    store = store_of(rows, make_chunk)
    queries = np.ascontiguousarray(np.stack([rows[0], rows[1]]))
    first, _ = store.search(queries, k=10)
    assert [chunk_id for chunk_id, _ in first] == ["c0000", *(f"c{i:04d}" for i in range(100, 109))]
    assert first == store.search(rows[0], k=10)[0]


def test_vectors_added_later_are_screened_too(make_chunk: Callable[..., Chunk]) -> None:
    rows = catalog_like(800)
    store = store_of(rows[:700], make_chunk)
    queries = queries_near(rows, 3)
    store.search(queries, k=5)
    extra = [make_chunk(f"d{i:04d}") for i in range(100)]
    store.add([c.id for c in extra], rows[700:], extra)
    assert store.search(queries, k=30) == [store.search(query, k=30)[0] for query in queries]


def test_without_onnx_the_store_scans_with_faiss(
    make_chunk: Callable[..., Chunk], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = catalog_like(500)
    store = store_of(rows, make_chunk)
    queries = queries_near(rows, 3)
    expected = store.search(queries, k=10)
    store = store_of(rows, make_chunk)
    monkeypatch.setattr(screen_module.importlib.util, "find_spec", lambda name: None)
    assert store.search(queries, k=10) == expected
    assert store._screen()[1] is None


def test_warming_a_store_builds_its_screen_before_any_search(make_chunk: Callable[..., Chunk]) -> None:
    from openapi_rag.serve.service import warm_embedder

    rows = catalog_like(300)
    store = store_of(rows, make_chunk)
    assert store._screening[2] is None  # nothing built yet

    # an index as the server holds it: an embedder (a double: no model needed here) and this store
    index = SimpleNamespace(embedder=SimpleNamespace(embed=lambda text: None), store=store)
    warm_embedder(index)
    built = store._screening[2]
    assert built is not None
    queries = queries_near(rows, 3)
    store.search(queries, k=5)
    assert store._screening[2] is built  # the search used the screen the warm-up built
