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


def test_a_fixed_depth_makes_fused_scores_independent_of_how_deep_lists_were_fetched() -> None:
    """A list fetched deeper (a larger k) is the same list with more items after it; with `depth`
    the items of the head keep their fused scores, so the order does not depend on k."""
    dense = [(f"d{i}", 1.0 - i / 100) for i in range(100)]
    lexical = [(f"d{i}", 20.0 - i / 3) for i in range(30, 60)] + [(f"x{i}", 9.0 - i / 50) for i in range(200)]
    shallow = minmax_fusion([dense[:10], lexical[:10]], weights=[0.5, 0.5], depth=10)
    deep = minmax_fusion([dense, lexical], weights=[0.5, 0.5], depth=10)
    assert deep[: len(shallow)] == shallow
    # without a depth, the floor moves with the list's end, and so does the order
    moving = minmax_fusion([dense[:10], lexical[:10]], weights=[0.5, 0.5])
    assert [i for i, _ in moving] != [i for i, _ in minmax_fusion([dense, lexical], weights=[0.5, 0.5])][:20]
    # items in no head come below every head item (d40 and d41 are next in both lists)
    tail = [i for i, _ in deep[len(shallow) :]]
    assert tail[:2] == ["d40", "d41"] and set(tail).isdisjoint(i for i, _ in shallow)
    assert max(score for _, score in deep[len(shallow) :]) < min(score for _, score in shallow)


def test_a_known_floor_keeps_close_scores_of_a_short_list_close() -> None:
    # BM25 on a rare word: three chunks share it, with near-equal scores; the rest score 0.
    lexical = [("get", 1.226), ("delete", 1.196), ("put", 1.196)]
    dense = [("delete", 0.38), ("get", 0.35), ("put", 0.33), ("other", 0.1)]
    stretched = dict(minmax_fusion([dense, lexical], weights=[0.5, 0.5]))
    assert stretched["get"] > stretched["delete"]  # 1.226 vs 1.196 read as 1 vs 0
    floored = dict(minmax_fusion([dense, lexical], weights=[0.5, 0.5], floors=[None, 0.0]))
    assert floored["delete"] > floored["get"]  # the dense first place stands
    assert floored["get"] - floored["delete"] < stretched["get"] - stretched["delete"]
    assert minmax_fusion([lexical], floors=[None]) == minmax_fusion([lexical])
