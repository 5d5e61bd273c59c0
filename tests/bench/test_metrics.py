"""Metric functions against hand-computed values."""

from __future__ import annotations

import math

import pytest

from openapi_rag.bench.metrics import distinct, f1_score, nanmean, score_query, std_cv

LOG2_3 = math.log2(3)


def test_duplicates_in_the_retrieved_list_count_once_and_k_cuts_distinct_ids():
    # Distinct: a, x, b (the second "a" is dropped) -> cut at 3 keeps all three.
    s = score_query(["a", "x", "a", "b"], ["a", "b", "c"], k=3)
    assert (s.hits, s.retrieved, s.n_gold) == (2, 3, 3)
    assert s.recall == pytest.approx(2 / 3)
    assert s.precision == pytest.approx(2 / 3)
    assert s.f1 == pytest.approx(2 / 3)
    assert s.mrr == 1.0
    # DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal of 3 relevant = 1 + 1/log2(3) + 1/2.
    assert s.ndcg == pytest.approx(1.5 / (1 + 1 / LOG2_3 + 0.5))


def test_duplicates_in_the_gold_list_count_once():
    s = score_query(["a", "b"], ["a", "a", "b"], k=5)
    assert (s.recall, s.precision, s.f1, s.ndcg, s.n_gold) == (1.0, 1.0, 1.0, 1.0, 2)


def test_precision_divides_by_distinct_retrieved_not_k():
    # Two distinct operations returned at k=5: precision is 1/2, not 1/5 (the paper's definition).
    s = score_query(["a", "z", "z"], ["a"], k=5)
    assert s.retrieved == 2
    assert s.precision == 0.5


def test_empty_retrieval():
    s = score_query([], ["a"], k=5)
    assert (s.recall, s.f1, s.mrr, s.ndcg, s.retrieved, s.hits) == (0.0, 0.0, 0.0, 0.0, 0, 0)
    assert math.isnan(s.precision)  # undefined, left out of means like the paper's None


def test_k_larger_than_the_corpus():
    s = score_query(["b", "a"], ["a"], k=20)
    assert (s.recall, s.precision, s.mrr) == (1.0, 0.5, 0.5)
    assert s.ndcg == pytest.approx(1 / LOG2_3)  # ideal: one relevant id at rank 1


def test_rank_of_first_relevant_and_ndcg_ideal_is_capped_by_k():
    s = score_query(["x", "y", "a", "b"], ["a", "b", "c"], k=2)
    assert (s.recall, s.precision, s.mrr, s.ndcg) == (0.0, 0.0, 0.0, 0.0)
    s = score_query(["x", "a"], ["a", "b", "c"], k=2)
    assert s.mrr == 0.5
    assert s.ndcg == pytest.approx((1 / LOG2_3) / (1 + 1 / LOG2_3))  # ideal has min(3, k=2) hits


def test_adaptive_result_size_is_not_cut_and_ideal_uses_all_gold():
    s = score_query(["x", "a", "y", "z", "w", "v"], ["a", "b"], k=None)
    assert s.retrieved == 6
    assert (s.recall, s.precision) == (0.5, pytest.approx(1 / 6))
    assert s.ndcg == pytest.approx((1 / LOG2_3) / (1 + 1 / LOG2_3))


def test_query_without_gold_has_undefined_recall():
    s = score_query(["a"], [], k=5)
    assert math.isnan(s.recall) and math.isnan(s.f1) and math.isnan(s.mrr)
    assert s.precision == 0.0


def test_bad_k():
    with pytest.raises(ValueError, match="k must be >= 1"):
        score_query(["a"], ["a"], k=0)


def test_helpers():
    assert distinct(["b", "a", "b"]) == ["b", "a"]
    assert f1_score(0.5, 0.25) == pytest.approx(1 / 3)
    assert f1_score(0.0, math.nan) == 0.0
    assert math.isnan(f1_score(math.nan, 0.5))
    assert nanmean([1.0, math.nan, 0.0]) == 0.5
    assert math.isnan(nanmean([math.nan]))
    std, cv = std_cv([0.5, 0.7, 0.9])
    assert std == pytest.approx(0.2)
    assert cv == pytest.approx(0.2 / 0.7)
    assert all(math.isnan(v) for v in std_cv([0.4]))


def test_r1_is_the_recall_of_the_first_result_alone():
    assert score_query(["a", "b"], ["a"], k=5).r1 == 1.0
    assert score_query(["b", "a"], ["a"], k=5).r1 == 0.0  # found at rank 2: R@5 is 1, R@1 is 0
    assert score_query(["a", "b"], ["a", "b"], k=5).r1 == 0.5  # two gold: one of them first
    assert math.isnan(score_query(["a"], [], k=5).r1)
