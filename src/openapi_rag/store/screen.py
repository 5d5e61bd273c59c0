"""FAISS's exact top-m for several queries at once, with FAISS's own scores, from one matrix product.

A flat FAISS scan of one query reads every stored vector (15 MB on the realworld index) and, for a
few queries, reads them again per query: a long search request embeds 5-10 clauses and each went
through its own scan (~1.2 ms each once the model run has pushed the vectors out of the cache).
One matrix product ranks every row for all the queries in one read, but its float32 rounding
differs from FAISS's by up to ~4e-7, which would move scores, and with them tie orders and fused
scores. So the product only screens: for each query, the rows whose product score lies within
`screen_margin` of its m-th best are scored again with FAISS's own inner product
(`fvec_inner_products_ny`, the kernel of its flat scan: the same float32 bits, checked in
`tests/store/test_screen.py`), and the m best of those are kept, as `IndexFlatIP.search` keeps them.

Why no row of the true top m is lost: each product score `a` and FAISS score `e` of a row lie
within `delta` of each other (the bound in `screen_margin`). At least m rows have a >= A_m (the
m-th best product score), hence e >= A_m - delta, so the m-th best FAISS score E_m >= A_m - delta;
a row of the true top m has e >= E_m, so a >= e - delta >= A_m - 2 delta, which the margin lets
through.

The product runs in ONNX Runtime (a one-node `MatMul` graph whose constant is the transposed
vectors, which ONNX Runtime packs once for its GEMM), on one thread that never spins: 8 queries
in 1.6 ms where FAISS's 8 scans took 6.1 ms (1 query 1.07 vs 1.01 ms; cold cache, this project's
2-core machine). numpy's product was slower on one thread (4.6 ms) and, on OpenBLAS's two
spinning threads, stalled the rest of the search on a shared machine (a 3-query search took
~35 ms more). Building the graph needs the `onnx` package (the `fused` extra); without it
`Screen.of` gives None and the store scans with FAISS as before.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

from openapi_rag.store.products import inner_products

_UNIT_ROUNDOFF = float(np.finfo(np.float32).eps) / 2  # u = 2^-24


def screen_margin(queries: np.ndarray, largest_norm: float) -> np.ndarray:
    """Per query row, how far below its m-th best product score a row of FAISS's top m can lie.

    A float32 dot product of length d, summed in any order (FMA or not), is within
    gamma_d * |q| * |v| of the exact one, gamma_d = d u / (1 - d u) (Higham, "Accuracy and
    Stability of Numerical Algorithms", 2nd ed., eq. 3.5), so two computations differ by at most
    delta = 2 gamma_d |q| |v|. The argument above needs 2 delta; twice that again is headroom
    (1.8e-4 for unit vectors of 384 dimensions, against observed differences of ~4e-7).
    """
    d = queries.shape[1]
    gamma = d * _UNIT_ROUNDOFF / (1 - d * _UNIT_ROUNDOFF)
    return 8 * gamma * np.linalg.norm(queries, axis=1) * largest_norm


class Screen:
    """The product of query rows with a fixed set of vectors, in ONNX Runtime on one thread.

    Args:
        vectors: float32 (n, d), the flat index's rows in its order (copied, transposed, into the
            session: n x d x 4 bytes more memory, 15 MB on the realworld index).
    """

    def __init__(self, vectors: np.ndarray):
        import onnxruntime as ort
        from onnx import TensorProto, helper, numpy_helper

        n, d = vectors.shape
        graph = helper.make_graph(
            [helper.make_node("MatMul", ["queries", "vectors_t"], ["products"])],
            "screen",
            [helper.make_tensor_value_info("queries", TensorProto.FLOAT, ["q", d])],
            [helper.make_tensor_value_info("products", TensorProto.FLOAT, ["q", n])],
            [numpy_helper.from_array(np.ascontiguousarray(vectors.T, dtype=np.float32), "vectors_t")],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # the calling thread: no pool to wake, nothing spins
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session: Any = ort.InferenceSession(
            model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"]
        )

    @classmethod
    def of(cls, vectors: np.ndarray) -> Screen | None:
        """A screen over `vectors`, or None where the `onnx` package (to build it) is missing."""
        if importlib.util.find_spec("onnx") is None:
            return None
        return cls(vectors)

    def products(self, queries: np.ndarray) -> np.ndarray:
        """(q, n) float32: each query row's inner product with every vector, in this rounding."""
        return self._session.run(None, {"queries": queries})[0]


def screened_top(
    queries: np.ndarray, vectors: np.ndarray, m: int, *, screen: Screen, largest_norm: float
) -> tuple[np.ndarray, np.ndarray]:
    """The top-m (scores, rows) of each query row by inner product, as `faiss.IndexFlatIP.search`
    gives them (the same scores, bit for bit; among rows tied with the m-th score, any of them).

    Args:
        queries: float32 (q, d), C-contiguous.
        vectors: float32 (n, d), C-contiguous: the flat index's rows, in its order.
        m: results per query, 1 <= m < n.
        screen: the product over the same `vectors`.
        largest_norm: the largest row norm of `vectors` (1.0 for normalised rows), for the margin.
    """
    approx = screen.products(queries)  # (q, n): one read of the vectors for all the queries
    n = approx.shape[1]
    kth = np.partition(approx, n - m, axis=1)[:, n - m]  # each query's m-th best product score
    floors = kth - screen_margin(queries, largest_norm)
    scores = np.empty((len(queries), m), dtype=np.float32)
    rows = np.empty((len(queries), m), dtype=np.int64)
    for qi in range(len(queries)):
        candidates = np.flatnonzero(approx[qi] >= floors[qi])  # m or a few more
        # FAISS's scan kernel over the candidates, in this thread (`fvec_inner_products_by_idx`
        # would do it in place but opens an OpenMP region, whose barrier waits ~7 ms for a
        # thread the scheduler has put off on a busy machine)
        exact = inner_products(queries[qi], vectors[candidates])
        best = np.argsort(-exact, kind="stable")[:m]
        scores[qi], rows[qi] = exact[best], candidates[best]
    return scores, rows
