"""Inner products in the calling thread, with FAISS's own rounding."""

from __future__ import annotations

import faiss
import numpy as np
import pytest

from openapi_rag.store.products import inner_products


def test_the_scores_of_a_flat_faiss_scan_bit_for_bit():
    rng = np.random.default_rng(7)
    rows = rng.standard_normal((3001, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    query = rows[17] + 0.1 * rng.standard_normal(384).astype(np.float32)
    index = faiss.IndexFlatIP(384)
    index.add(rows)
    scores, found = index.search(query[None, :], len(rows))
    mine = inner_products(query, rows)
    assert np.array_equal(mine[found[0]], scores[0])
    assert np.allclose(mine, rows @ query, atol=1e-5)  # the product numpy would give, to rounding


def test_any_layout_and_no_rows():
    rows = np.arange(12, dtype=np.float64).reshape(3, 4)[:, ::-1]  # float64, not contiguous
    assert inner_products(np.ones(4), rows).tolist() == [6.0, 22.0, 38.0]
    assert inner_products(np.ones(4), np.zeros((0, 4))).shape == (0,)


def test_mismatched_shapes_are_refused():
    with pytest.raises(ValueError, match="do not match"):
        inner_products(np.ones(3), np.ones((2, 4)))
