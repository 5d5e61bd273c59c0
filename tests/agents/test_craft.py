from __future__ import annotations

from openapi_rag.agents import craft_vote

SUMMARY = ["A", "B", "C", "D", "E"]
NAME = ["B", "F", "A", "G", "E"]
DESCRIPTION = ["F", "C", "H", "E", "I"]


def test_round_robin_order_decides_who_enters_first() -> None:
    # Order of additions: A(s) B(n) F(d) | B(s)->B has 2 | F(n)->F has 2 | C(d) | C(s)->C | A(n)->A ...
    assert craft_vote([SUMMARY, NAME, DESCRIPTION], 1) == ["B"]
    assert craft_vote([SUMMARY, NAME, DESCRIPTION], 2) == ["B", "F"]
    assert craft_vote([SUMMARY, NAME, DESCRIPTION], 4) == ["B", "F", "C", "A"]


def test_stops_at_k_even_when_more_agree_later() -> None:
    full = craft_vote([SUMMARY, NAME, DESCRIPTION], 10)
    assert full == ["B", "F", "C", "A", "E"]  # only 5 endpoints are in two views at all
    assert craft_vote([SUMMARY, NAME, DESCRIPTION], 3) == full[:3]


def test_single_view_endpoints_never_enter() -> None:
    result = craft_vote([["X", "A"], ["Y", "A"], ["Z", "B"]], 5)
    assert result == ["A"]


def test_uneven_and_empty_lists_and_duplicates() -> None:
    assert craft_vote([["A"], [], ["B", "C", "A"]], 3) == ["A"]
    assert craft_vote([[], [], []], 3) == []
    assert craft_vote([SUMMARY, NAME, DESCRIPTION], 0) == []
    # A view repeating an endpoint still counts as one vote.
    assert craft_vote([["A", "A"], ["B"], ["C"]], 1) == []


def test_min_votes_three_needs_all_views() -> None:
    assert craft_vote([SUMMARY, NAME, DESCRIPTION], 5, min_votes=3) == ["E"]
