"""The bundled MiniLM's fused graph with int8 arithmetic, quantized once and kept on disk.

The shipped export stores int8 weights but computes in float32: ONNX Runtime dequantizes every
weight at load, so each run reads ~88 MB of float32 weights and multiplies in float32. Here
`onnxruntime.quantization.quantize_dynamic` turns the fused graph (`minilm_graph.py`) into one of
`MatMulInteger`, `QAttention` and `QEmbedLayerNormalization`: weights stay int8 (one symmetric
scale per output column, as the export stores them), activations are quantized per tensor at run
time. On this project's 2-core machine a query's run takes about half the CPU of the float graph
and a long chunk's about two thirds; vectors move by 1 − cosine ~.008 on average (max ~.017 on
2,000 endpoint texts), so they are another model's: an embedder of its own name (`minilm-q8`),
never mixed with the float graph's vectors in one index or cache.

Quantizing takes ~3 s, so the graph is written once to the cache (`$OPENAPI_RAG_HOME/cache/graphs`),
named by the source file's digest, this recipe and ONNX Runtime's version, and written atomically
(a concurrent reader never sees half a file); a later load reads it (~0.05 s).
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from pathlib import Path

from openapi_rag.embed.cache import file_digest
from openapi_rag.embed.minilm_graph import fused_minilm_model
from openapi_rag.errors import MissingDependency
from openapi_rag.paths import openapi_rag_home

__all__ = ["int8_minilm_graph"]

RECIPE = "fused-dynamic-int8-per-channel-v1"
"""Names the quantization below; change it when the graph it makes changes, so caches start over."""


def int8_minilm_graph(path: str | Path, *, cache_dir: str | Path | None = None) -> bytes:
    """The serialized int8-arithmetic graph of the MiniLM export at `path` (inputs and output as
    the export's), from the cache when it holds one."""
    try:
        import onnx
        import onnxruntime
    except ImportError:
        raise MissingDependency(
            "the int8 MiniLM graph needs onnx: pip install 'openapi-rag[fused]'"
        ) from None
    source = Path(path)
    key = file_digest(source)
    folder = Path(cache_dir) if cache_dir is not None else openapi_rag_home() / "cache" / "graphs"
    target = folder / f"minilm-{key}-{RECIPE}-ort{onnxruntime.__version__}.onnx"
    if target.is_file():
        return target.read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as scratch, _root_logger_kept():
        # imported here: on import it configures the root logger (`_root_logger_kept` undoes that)
        from onnxruntime.quantization import QuantType, quantize_dynamic

        written = Path(scratch) / "model.onnx"
        quantize_dynamic(
            fused_minilm_model(source, float_weights=True),
            written,
            per_channel=True,  # the export's own layout: one scale per output column
            weight_type=QuantType.QInt8,
            # the fused operators are outside ONNX's shape inference; their outputs are float32
            extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT},
        )
        graph = written.read_bytes()
        os.replace(written, target)  # atomic: a concurrent reader never sees half a file
    return graph


@contextlib.contextmanager
def _root_logger_kept():
    """The root logger as it was, after `onnxruntime.quantization`: importing it calls
    `logging.basicConfig` (a handler on the root logger, so every library's records would print on
    the user's terminal), and quantizing logs advice ("consider pre-processing") there."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    advice = logging.Filter("openapi-rag: none")  # passes no record of the root logger's own
    root.addFilter(advice)
    try:
        yield
    finally:
        root.removeFilter(advice)
        root.handlers[:] = handlers
        root.setLevel(level)
