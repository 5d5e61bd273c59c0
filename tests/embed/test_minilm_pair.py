"""The default MiniLM and `minilm-users` as one graph: their shared layers run once, each model's
vectors come out bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")  # the paired graph is written with onnx's helpers (the `fused` extra)

from openapi_rag.embed.minilm import MiniLMEmbedder, MiniLMInt8Embedder, minilm_model_path  # noqa: E402
from openapi_rag.embed.minilm_graph import paired_minilm_model, shared_layers_of  # noqa: E402
from openapi_rag.embed.minilm_pair import PairedMiniLM  # noqa: E402
from openapi_rag.embed.tuned import TunedMiniLMEmbedder, tuned_model_path  # noqa: E402
from openapi_rag.errors import EmbedderError  # noqa: E402

TEXTS = [
    "refund a payment",
    "POST /v1/refunds Create a refund. Refunds a charge that has previously been created. charge amount reason",
    "kick someone out of my Discord server",
    "word " * 400,  # past the 256 tokens the models read
]


def test_minilm_users_shares_the_embeddings_and_its_lowest_layer_with_the_default() -> None:
    assert shared_layers_of(minilm_model_path(), tuned_model_path()) == 1  # it was trained with them frozen
    assert shared_layers_of(minilm_model_path(), minilm_model_path()) == 6


def test_the_pair_gives_each_models_own_vectors_bit_for_bit() -> None:
    first, second = MiniLMEmbedder(), TunedMiniLMEmbedder()
    pair = PairedMiniLM.of(first, second)
    assert pair is not None and pair.dimensions == 768
    both = pair.embed_many(TEXTS)
    ours, theirs = PairedMiniLM.split(both)
    assert np.array_equal(ours, first.embed_many(TEXTS))
    assert np.array_equal(theirs, second.embed_many(TEXTS))
    assert not np.allclose(ours, theirs)  # two models, not one twice
    # on one thread, in other batches: the same (a thread count or a batch never changes a sum)
    assert np.array_equal(pair.with_threads(1).embed_many(TEXTS[::-1])[::-1], both)


def test_the_graph_runs_the_shared_layers_once() -> None:
    model, shared = paired_minilm_model(minilm_model_path(), tuned_model_path())
    attention = [n for n in model.graph.node if n.op_type == "Attention"]
    assert shared == 1 and len(attention) == 1 + 2 * 5  # 11 layers, where two models run 12
    assert [o.name for o in model.graph.output] == ["last_hidden_state", "second_hidden_state"]


@pytest.mark.parametrize(
    "models",
    [
        (MiniLMEmbedder(fused=False), TunedMiniLMEmbedder()),  # the shipped graph, as it is
        (MiniLMInt8Embedder(), TunedMiniLMEmbedder()),  # int8 arithmetic: other vectors
        (MiniLMEmbedder(model_path=minilm_model_path()), TunedMiniLMEmbedder()),  # an export run as it is
        (MiniLMEmbedder(), object()),
    ],
)
def test_no_pair_where_one_graph_would_not_give_the_same_vectors(models: tuple[object, object]) -> None:
    assert PairedMiniLM.of(*models) is None


def test_exports_that_share_nothing_have_no_paired_graph(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(minilm_model_path()))
    for tensor in model.graph.initializer:  # other embeddings: the position table's scale
        if tensor.name == "inner.embeddings.position_embeddings.weight_scale":
            tensor.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(tensor) * 2, tensor.name))
    other = tmp_path / "model.onnx"
    onnx.save(model, str(other))
    assert shared_layers_of(minilm_model_path(), other) == -1
    with pytest.raises(EmbedderError, match="do not share their embeddings"):
        paired_minilm_model(minilm_model_path(), other)
