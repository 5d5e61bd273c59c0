"""The fused graph of the bundled MiniLM (`embed/minilm_graph.py`) against the shipped export."""

from __future__ import annotations

import collections

import numpy as np
import onnx
import pytest

from openapi_rag.embed.minilm import MiniLMEmbedder, minilm_model_path
from openapi_rag.embed.minilm_graph import fused_minilm_graph
from openapi_rag.errors import EmbedderError

TEXTS = [
    "create a playlist",
    "Update the details of an existing reservation with ID 123 to shift the check-in date to "
    '"2023-11-22", then cancel the reservation of the guest who booked the same room',
    "GET /v1/customers/{customer}/sources\nList sources of a customer.\nlimit (query): page size",
    "",
]


def test_the_fused_graph_uses_the_fused_operators():
    model = onnx.load_from_string(fused_minilm_graph(minilm_model_path()))
    ops = collections.Counter(node.op_type for node in model.graph.node)
    assert ops["Attention"] == 6 and ops["SkipLayerNormalization"] == 12 and ops["BiasGelu"] == 6
    assert ops["EmbedLayerNormalization"] == 1
    assert not {"Softmax", "Transpose", "Where", "IsNaN"} & ops.keys()  # the export's attention: gone
    # the shipped int8 weights, dequantized at load as the export does: no float copy of a matrix
    floats = [t for t in model.graph.initializer if t.data_type == onnx.TensorProto.FLOAT]
    assert max(len(t.raw_data) for t in floats) < 4 * 512 * 384


def test_fused_vectors_equal_the_shipped_graph_s_within_float_rounding():
    fused = MiniLMEmbedder(threads=1).embed_many(TEXTS)
    shipped = MiniLMEmbedder(threads=1, fused=False).embed_many(TEXTS)
    assert float((1 - (fused * shipped).sum(axis=1)).max()) < 1e-6
    np.testing.assert_allclose(fused, shipped, rtol=0, atol=1e-6)


def test_padding_in_a_batch_leaves_a_fused_vector_alone():
    embedder = MiniLMEmbedder(threads=1)
    alone = np.stack([embedder.embed(text) for text in TEXTS])
    np.testing.assert_allclose(embedder._embed_batch(TEXTS), alone, rtol=0, atol=1e-6)


def test_another_export_is_refused_with_its_path(tmp_path):
    model = onnx.load(str(minilm_model_path()))
    for tensor in model.graph.initializer:
        tensor.name = tensor.name.replace("layer.5.output.dense", "layer.5.out")
    for node in model.graph.node:
        node.input[:] = [name.replace("layer.5.output.dense", "layer.5.out") for name in node.input]
    path = tmp_path / "other.onnx"
    onnx.save(model, str(path))
    with pytest.raises(
        EmbedderError, match=r"other\.onnx: not the expected MiniLM export .*layer\.5\.output\.dense"
    ):
        fused_minilm_graph(path)


def test_the_default_is_fused_where_onnx_is_installed():
    assert MiniLMEmbedder()._fused and not MiniLMEmbedder(fused=False)._fused
