"""The int8-arithmetic graph of the bundled MiniLM (`embed/minilm_int8.py`) against the float one."""

from __future__ import annotations

import collections

import numpy as np
import onnx

from openapi_rag.embed import get_embedder
from openapi_rag.embed.minilm import MiniLMEmbedder, MiniLMInt8Embedder, minilm_model_path
from openapi_rag.embed.minilm_int8 import int8_minilm_graph
from openapi_rag.embed.tuned import TunedMiniLMEmbedder, TunedMiniLMInt8Embedder

TEXTS = [
    "create a playlist",
    "refund the charge a customer disputed yesterday",
    "GET /v1/customers/{customer}/sources\nList sources of a customer.\nlimit (query): page size",
    "",
]


def test_the_graph_computes_in_int8(tmp_path):
    model = onnx.load_from_string(int8_minilm_graph(minilm_model_path(), cache_dir=tmp_path))
    ops = collections.Counter(node.op_type for node in model.graph.node)
    assert ops["QAttention"] == 6 and ops["MatMulInteger"] == 18 and ops["QEmbedLayerNormalization"] == 1
    assert not {"Attention", "MatMul", "EmbedLayerNormalization"} & ops.keys()
    # weights stay int8: no float matrix the size of a layer's
    floats = [t for t in model.graph.initializer if t.data_type == onnx.TensorProto.FLOAT]
    assert max(len(t.raw_data) for t in floats) < 4 * 512 * 384


def test_the_graph_is_quantized_once_then_read_from_the_cache(tmp_path, monkeypatch):
    first = int8_minilm_graph(minilm_model_path(), cache_dir=tmp_path)
    (cached,) = tmp_path.glob("minilm-*.onnx")
    assert cached.read_bytes() == first
    monkeypatch.setattr(
        "openapi_rag.embed.minilm_int8.quantize_dynamic",
        lambda *a, **k: (_ for _ in ()).throw(AssertionError("quantized again")),
        raising=False,
    )
    assert int8_minilm_graph(minilm_model_path(), cache_dir=tmp_path) == first
    assert not [p for p in tmp_path.iterdir() if p.is_dir()]  # no scratch left behind


def test_int8_vectors_stay_near_the_float_graph_s_and_rank_alike():
    floats = MiniLMEmbedder(threads=1).embed_many(TEXTS)
    ints = MiniLMInt8Embedder(threads=1).embed_many(TEXTS)
    drift = 1 - (floats * ints).sum(axis=1)
    assert float(drift.max()) < 0.03 and float(drift.max()) > 1e-6  # near, but another model's vectors
    # the nearest text of each query is the same in both
    np.testing.assert_array_equal((floats @ floats.T).argsort()[:, -2], (ints @ ints.T).argsort()[:, -2])


def test_each_arithmetic_has_a_name_and_a_model_id_of_its_own():
    assert isinstance(get_embedder("minilm-q8"), MiniLMInt8Embedder)
    assert isinstance(get_embedder("minilm-users-q8"), TunedMiniLMInt8Embedder)
    ids = {MiniLMEmbedder.model_id, MiniLMInt8Embedder.model_id, TunedMiniLMEmbedder.model_id}
    assert len(ids | {TunedMiniLMInt8Embedder.model_id}) == 4  # never one cache or index for two
    assert get_embedder(MiniLMInt8Embedder.model_id).model_id == MiniLMInt8Embedder.model_id
    assert TunedMiniLMInt8Embedder().cache_key != TunedMiniLMEmbedder().cache_key


def test_an_int8_first_embedder_gets_the_int8_second_list():
    from openapi_rag.search.views import default_second

    assert default_second(MiniLMInt8Embedder.model_id) == "minilm-users-q8"
    assert default_second(MiniLMEmbedder.model_id) == "minilm-users"
    assert default_second("text-embedding-3-small") is None


def test_quantizing_leaves_the_user_s_logging_alone(tmp_path):
    # onnxruntime.quantization calls logging.basicConfig on import: without care every library's
    # records (bm25s' DEBUG lines) would print on the terminal of a CLI run. In a fresh process,
    # where the root logger has no handler yet.
    import subprocess
    import sys

    script = (
        "import logging; from openapi_rag.embed.minilm import minilm_model_path;"
        "from openapi_rag.embed.minilm_int8 import int8_minilm_graph;"
        f"int8_minilm_graph(minilm_model_path(), cache_dir={str(tmp_path)!r});"
        "root = logging.getLogger(); print(len(root.handlers), root.level);"
        "logging.getLogger('some.library').warning('this must not print')"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", str(30)]  # no handler added, WARNING as Python starts it
    assert "some.library" not in done.stderr  # Python's last resort prints the message alone
