from __future__ import annotations

import pytest

from openapi_rag.search.fusion import minmax_fusion


def test_normalises_each_list_and_sums_with_weights() -> None:
    fused = dict(
        minmax_fusion([[("a", 0.9), ("b", 0.7), ("c", 0.5)], [("c", 10.0), ("d", 2.0)]], weights=[0.5, 0.5])
    )
    assert fused == pytest.approx({"a": 0.5, "b": 0.25, "c": 0.5, "d": 0.0})


def test_order_is_score_then_id_and_keeps_score_gaps() -> None:
    ranked = minmax_fusion([[("x", 1.0), ("y", 0.99), ("z", 0.0)]])
    assert [i for i, _ in ranked] == ["x", "y", "z"]
    assert ranked[1][1] == pytest.approx(0.99)  # a near tie stays near (RRF would not say so)


def test_single_item_or_equal_scores_count_as_best_and_empty_lists_are_skipped() -> None:
    assert minmax_fusion([[("a", 3.0)], []]) == [("a", 1.0)]
    assert minmax_fusion([[("a", 2.0), ("b", 2.0)]]) == [("a", 1.0), ("b", 1.0)]


def test_weight_count_must_match() -> None:
    with pytest.raises(ValueError, match="weights"):
        minmax_fusion([[("a", 1.0)]], weights=[1.0, 2.0])
