"""Inner products of one query with many rows, computed in the calling thread.

A search's products are small: one query against the ~10k rows of the second embedder's list is
~0.7 ms on one core. numpy hands each product to OpenBLAS, which splits it over every core. Its
worker threads then spin, waiting for more work, on the cores that ONNX Runtime's next model run
needs.

Measured in a search on the realworld index (2-core machine), that product took 6.6 ms instead of
0.7 ms. Over 200 `openapi-rag bench search` queries, with the BLAS threads limited to one, CPU per
query fell from 50.6 ms to 29.7 ms.

FAISS's flat-scan kernel (`fvec_inner_products_ny`) needs no thread pool. It gives the scores that
`IndexFlatIP.search` gives, bit for bit, so every list a search reads rounds alike.
"""

from __future__ import annotations

import faiss
import numpy as np

__all__ = ["inner_products"]


def inner_products(query: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """float32 (n,): each of `rows` (n, d) times `query` (d,), by FAISS's scan kernel, in this thread."""
    query = np.ascontiguousarray(query, dtype=np.float32)
    rows = np.ascontiguousarray(rows, dtype=np.float32)
    if rows.ndim != 2 or query.shape != (rows.shape[1],):
        raise ValueError(f"rows of shape {rows.shape} and a query of shape {query.shape} do not match")
    out = np.empty(len(rows), dtype=np.float32)
    if len(rows):
        faiss.fvec_inner_products_ny(
            faiss.swig_ptr(out), faiss.swig_ptr(query), faiss.swig_ptr(rows), rows.shape[1], len(rows)
        )
    return out
