"""Averaging per domain then over domains, spread, and the Friedman table on a synthetic grid."""

from __future__ import annotations

import math

import pytest

from openapi_rag.bench import stats
from openapi_rag.bench.aggregate import SUMMARY_COLUMNS, domain_rows, summary_rows
from openapi_rag.bench.metrics import score_query
from openapi_rag.bench.paper import compare_with_paper
from openapi_rag.bench.retrievers import RunConfig
from openapi_rag.bench.runner import QueryResult
from openapi_rag.bench.stats import format_p, friedman_markdown, friedman_tests


def _result(domain, qid, cfg, retrieved, gold, k=5, tokens=10):
    return QueryResult("synthetic", domain, domain, qid, cfg, k, score_query(retrieved, gold, k), tokens)


def test_domains_weigh_the_same_whatever_their_size():
    cfg = RunConfig("endpoint")
    results = [_result("a", "a1", cfg, ["x"], ["x"], tokens=100)] + [
        _result("b", f"b{i}", cfg, ["y"], ["x"], tokens=10) for i in range(3)
    ]
    (row,) = summary_rows(results)
    assert list(row) == list(SUMMARY_COLUMNS)
    assert row["recall"] == 0.5  # (1.0 + 0.0) / 2, not 1/4
    assert row["precision"] == 0.5
    assert row["f1"] == 0.5  # F1 of the means
    assert row["tokens"] == 55.0
    assert (row["n_queries"], row["n_domains"], row["spread_over"]) == (4, 2, "domains")
    assert row["recall_std"] == pytest.approx(math.sqrt(0.5))  # sample std of [1, 0]
    assert row["recall_cv"] == pytest.approx(math.sqrt(0.5) / 0.5)
    assert [(d["domain"], d["recall"], d["n_queries"]) for d in domain_rows(results)] == [
        ("a", 1.0, 1),
        ("b", 0.0, 3),
    ]


def test_single_domain_spread_is_over_queries_and_empty_results_skip_precision():
    cfg = RunConfig("endpoint")
    results = [
        _result("d", "q1", cfg, ["x"], ["x"]),
        _result("d", "q2", cfg, [], ["x"]),
        _result("d", "q3", cfg, ["y", "x"], ["x"]),
    ]
    (row,) = summary_rows(results)
    assert row["recall"] == pytest.approx(2 / 3)
    assert row["precision"] == pytest.approx(0.75)  # mean of 1 and 1/2; the empty result is left out
    assert row["empty"] == 1
    assert row["spread_over"] == "queries"
    assert row["recall_std"] == pytest.approx(math.sqrt(1 / 3))


def test_summary_rows_order_configs_as_given_and_auto_last():
    a, b = RunConfig("thin"), RunConfig("endpoint")
    results = [_result("d", "q", c, ["x"], ["x"], k=k) for c in (a, b) for k in (None, 10, 5)]
    assert [(r["strategy"], r["k"]) for r in summary_rows(results)] == [
        ("thin", "5"),
        ("thin", "10"),
        ("thin", "auto"),
        ("endpoint", "5"),
        ("endpoint", "10"),
        ("endpoint", "auto"),
    ]


def _grid(values: dict[str, list[float]], domains: list[str], k=5, embedder="default"):
    """QueryResults whose recall is given per strategy and query (one gold id, 4 ids retrieved)."""
    out = []
    for strategy, recalls in values.items():
        for i, recall in enumerate(recalls):
            gold = [f"g{j}" for j in range(4)]
            retrieved = gold[: int(recall * 4)] + ["n1", "n2", "n3", "n4"]
            r = score_query(retrieved, gold, k)
            out.append(
                QueryResult(
                    "synthetic", domains[i], domains[i], f"q{i}", RunConfig(strategy, embedder), k, r, 0
                )
            )
    return out


def test_friedman_on_a_synthetic_grid_matches_the_hand_computed_statistic():
    pytest.importorskip("scipy")
    # Every query ranks A > B > C: rank sums 12, 8, 4 over n = 4 blocks, k = 3 treatments.
    # chi2 = 12 / (n k (k+1)) * sum(R^2) - 3 n (k+1) = 0.25 * 224 - 48 = 8; p = exp(-8/2) for 2 df.
    domains = ["d1", "d1", "d2", "d2"]
    results = _grid(
        {"A": [1.0, 0.75, 1.0, 0.75], "B": [0.5, 0.5, 0.75, 0.5], "C": [0.0, 0.25, 0.25, 0.0]}, domains
    )
    cells = {c.domain: c for c in friedman_tests(results)}
    assert set(cells) == {"d1", "d2", "all"}
    assert cells["all"].n_blocks == 4 and cells["all"].strategies == 3
    assert cells["all"].statistic == pytest.approx(8.0)
    assert cells["all"].p_value == pytest.approx(math.exp(-4))
    assert cells["d1"].n_blocks == 2 and cells["d1"].statistic == pytest.approx(4.0)
    table = friedman_markdown(list(cells.values()))
    assert "| domain | k=5 |" in table
    assert "| all | .018* |" in table


def test_friedman_not_applicable_cases():
    two = _grid({"A": [1.0, 0.5], "B": [0.5, 0.0]}, ["d", "d"])
    assert [c.note for c in friedman_tests(two)] == ["n/a: needs >= 3 strategies"]
    ties = _grid({"A": [0.5, 0.5], "B": [0.5, 0.5], "C": [0.5, 0.5]}, ["d", "d"])
    (cell,) = friedman_tests(ties)
    assert (cell.p_value, cell.note) == (1.0, "all strategies score the same")
    one = _grid({"A": [1.0], "B": [0.5], "C": [0.0]}, ["d"])
    assert friedman_tests(one)[0].note == "n/a: fewer than 2 queries"
    assert "n/a" in friedman_markdown(friedman_tests(two))


def test_friedman_without_scipy_says_so(monkeypatch):
    monkeypatch.setattr(stats, "scipy_available", lambda: False)
    results = _grid({"A": [1.0, 0.5], "B": [0.5, 0.0], "C": [0.0, 0.25]}, ["d", "d"])
    (cell,) = friedman_tests(results)
    assert math.isnan(cell.p_value) and "scipy not installed" in cell.note


def test_friedman_columns_per_embedder_and_k():
    pytest.importorskip("scipy")
    values = {"A": [1.0, 0.75, 1.0], "B": [0.5, 0.5, 0.75], "C": [0.0, 0.25, 0.25]}
    results = _grid(values, ["d"] * 3, k=5) + _grid(values, ["d"] * 3, k=10, embedder="other")
    table = friedman_markdown(friedman_tests(results))
    assert table.splitlines()[0] == "| domain | default · k=5 | other · k=10 |"


def test_format_p():
    assert [format_p(p) for p in (0.0001, 0.004, 0.03, 0.42, math.nan)] == [
        "<.001***",
        ".004**",
        ".030*",
        ".420",
        "n/a",
    ]


def test_compare_with_paper_puts_our_rows_beside_the_published_ones():
    summary = [
        {
            "dataset": "restbench",
            "strategy": "endpoint",
            "embedder": "minilm",
            "mode": "dense",
            "k": "20",
            "recall": 0.7,
            "precision": 0.1,
        }
    ]
    rows = compare_with_paper(summary)
    assert {r["strategy"] for r in rows} == {"endpoint", "summary", "craft", "thin"}
    (ours,) = [r for r in rows if r["embedder"]]
    assert ours["paper_recall"] == 0.638 and ours["recall_delta"] == pytest.approx(0.062)
    assert all(r["dataset"] == "restbench" for r in rows)


def test_confidence_intervals_resample_queries_within_domains():
    from openapi_rag.bench.bootstrap import bootstrap_ci

    cfg = RunConfig("endpoint")
    # domain a always found, domain b never: every resample has mean recall 0.5
    fixed = [_result("a", f"a{i}", cfg, ["x"], ["x"]) for i in range(3)]
    fixed += [_result("b", f"b{i}", cfg, ["y"], ["x"]) for i in range(5)]
    (row,) = summary_rows(fixed)
    assert (row["recall_ci_low"], row["recall_ci_high"]) == (0.5, 0.5)
    # one domain, half the queries found: the interval holds the mean and narrows with more queries
    few = bootstrap_ci([[1.0, 0.0] * 5])
    many = bootstrap_ci([[1.0, 0.0] * 200])
    assert few[0] < 0.5 < few[1] and many[0] < 0.5 < many[1]
    assert many[1] - many[0] < (few[1] - few[0]) / 3
    assert bootstrap_ci([[1.0, 0.0] * 5]) == few  # seeded: the same report every run
    assert all(math.isnan(v) for v in bootstrap_ci([[math.nan], []]))  # nothing defined


def test_halves_get_their_own_rows_with_r1_and_mrr_intervals():
    from dataclasses import replace

    cfg = RunConfig("endpoint")
    results = [
        replace(_result("d", f"q{i}", cfg, ["x", "y"] if i % 2 else ["y", "x"], ["x"]), half=half)
        for i, half in enumerate(["tune", "tune", "report", "report", "report", "tune"])
    ]
    rows = summary_rows(results, halves=True)
    assert [(r["half"], r["n_queries"]) for r in rows] == [("all", 6), ("tune", 3), ("report", 3)]
    assert rows[0]["r1"] == 0.5 and rows[0]["recall"] == 1.0 and rows[0]["mrr"] == 0.75
    assert rows[1]["r1"] == pytest.approx(2 / 3) and rows[2]["r1"] == pytest.approx(1 / 3)
    assert rows[0]["r1_ci_low"] <= 0.5 <= rows[0]["r1_ci_high"]
    assert rows[0]["mrr_ci_low"] <= 0.75 <= rows[0]["mrr_ci_high"]
    # Results from one half only (eval --half tune) are labelled with it, once.
    assert [r["half"] for r in summary_rows(results[:2], halves=True)] == ["tune"]


def test_paired_t_test_by_hand_and_without_variance():
    """One paired t-test for eval-calls and eval-sql; no scipy warning where differences do not vary."""
    pytest.importorskip("scipy")
    # Differences 1, 0, 1: mean 2/3, standard deviation 1/sqrt(3), so t = (2/3) / (1/3) = 2 with 2 df.
    t, p = stats.paired_t_test([1, 0, 1], [0, 0, 0])
    assert t == pytest.approx(2.0) and p == pytest.approx(0.1835, abs=1e-4)
    t, p = stats.paired_t_test([0, 0, 0], [1, 0, 1])
    assert t == pytest.approx(-2.0) and p == pytest.approx(0.1835, abs=1e-4)
    for x, y, sign, p_value in (
        ([1, 1, 0], [1, 1, 0], math.nan, 1.0),  # the same scores
        ([], [], math.nan, 1.0),
        ([math.nan, 1], [math.nan, 1], math.nan, 1.0),  # a case neither could score counts as the same
        ([1, 1, 1], [0, 0, 0], math.inf, 0.0),  # every difference the same
        ([0, 0], [1, 1], -math.inf, 0.0),
        ([1], [0], math.inf, 0.0),
    ):
        t, p = stats.paired_t_test(x, y)
        assert (math.isnan(t) if math.isnan(sign) else t == sign) and p == p_value, (x, y)
