from __future__ import annotations

import pytest

from openapi_rag.search.fusion import reciprocal_rank_fusion

DENSE = [("a", 0.9), ("b", 0.5), ("c", 0.1)]
LEXICAL = [("c", 14.0), ("a", 9.0), ("d", 1.0)]


def test_hand_computed_rrf() -> None:
    fused = reciprocal_rank_fusion([DENSE, LEXICAL])
    assert [item for item, _ in fused] == ["a", "c", "b", "d"]
    assert [score for _, score in fused] == pytest.approx([1 / 61 + 1 / 62, 1 / 63 + 1 / 61, 1 / 62, 1 / 63])


def test_weights_and_k() -> None:
    fused = dict(reciprocal_rank_fusion([DENSE, LEXICAL], weights=[2.0, 1.0]))
    assert fused == pytest.approx({"a": 2 / 61 + 1 / 62, "c": 2 / 63 + 1 / 61, "b": 2 / 62, "d": 1 / 63})
    fused = reciprocal_rank_fusion([DENSE, LEXICAL], k=0)
    assert fused == [("a", 1.5), ("c", pytest.approx(4 / 3)), ("b", 0.5), ("d", pytest.approx(1 / 3))]
    # A zero weight leaves only the other list's order.
    assert [i for i, _ in reciprocal_rank_fusion([DENSE, LEXICAL], weights=[0, 1])][:3] == ["c", "a", "d"]


def test_scores_are_ignored_and_ties_go_to_the_smaller_id() -> None:
    assert reciprocal_rank_fusion([[("y", 100.0)], [("x", 0.001)]]) == [("x", 1 / 61), ("y", 1 / 61)]


def test_edge_cases() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []
    assert reciprocal_rank_fusion([DENSE]) == [("a", 1 / 61), ("b", 1 / 62), ("c", 1 / 63)]
    with pytest.raises(ValueError, match="got 1 weights for 2 ranked lists"):
        reciprocal_rank_fusion([DENSE, LEXICAL], weights=[1.0])
    with pytest.raises(ValueError, match="k must be"):
        reciprocal_rank_fusion([DENSE], k=-1)
