from __future__ import annotations

import pytest

from openapi_rag.search.clauses import is_context, single_intent, split_clauses
from openapi_rag.search.context import own_words


def test_splits_at_commas_semicolons_and_sentence_ends() -> None:
    query = (
        "Retrieve the status of all equipment, access active alerts for the grid; "
        "configure new alert thresholds. Then submit the integration status, and list every sector"
    )
    assert split_clauses(query) == [
        "Retrieve the status of all equipment",
        "access active alerts for the grid",
        "configure new alert thresholds.",
        "Then submit the integration status",
        "list every sector",
    ]


def test_then_inside_a_sentence_cuts() -> None:
    assert split_clauses("find the album id and then list its tracks") == [
        "find the album id",
        "list its tracks",
    ]


def test_single_intent_and_short_pieces_give_nothing() -> None:
    assert split_clauses("movies and TV shows of Tom Hanks") == []  # "and" alone does not cut
    assert split_clauses("Get alerts, e.g. solar") == []  # one clause long enough: nothing to split
    assert split_clauses("") == []


def test_single_intent_needs_words_of_its_own() -> None:
    """The one intent among context sentences is searched alone only when it names its object;
    one that points back ("fetch the list") is completed by the context."""
    query = "I'm curious about the public holidays in Australia in 2023. Can you fetch the list for me?"
    assert single_intent(query) == "Can you fetch the list for me?"
    assert single_intent(query, min_own_words=3) is None
    named = "Tom is on leave from 10 July. Please book annual leave for employee E-204 in payroll."
    assert single_intent(named, min_own_words=3) == "Please book annual leave for employee E-204 in payroll."
    assert own_words("Could you find me a random one?") == 2
    # two intents: none is the one
    assert single_intent("Create a playlist. Then add three songs to the new playlist.") is None


def test_min_words() -> None:
    assert split_clauses("get alerts, list sites", min_words=2) == ["get alerts", "list sites"]


def test_and_cuts_only_between_two_clauses() -> None:
    assert split_clauses("Make me a playlist of three songs and name it Love Songs") == [
        "Make me a playlist of three songs",
        "name it Love Songs",
    ]
    # one side too short: kept together
    assert split_clauses("Get the cast and crew, then list the reviews of the film") == [
        "Get the cast and crew",
        "list the reviews of the film",
    ]


def test_numbers_with_thousands_separators_are_not_cut() -> None:
    assert split_clauses("Can a user earning 120,000 a year afford it, and check the mortgage rates") == [
        "Can a user earning 120,000 a year afford it",
        "check the mortgage rates",
    ]


def test_and_cuts_can_be_switched_off() -> None:
    assert split_clauses("Make me a playlist of three songs and name it Love Songs", split_and=False) == []


def test_connectives_join_two_intents() -> None:
    query = "Show all existing orders along with the operational status of monitored machinery"
    assert split_clauses(query) == [
        "Show all existing orders",
        "the operational status of monitored machinery",
    ]
    assert split_clauses("Mark the assessment as complete while reviewing the machinery status") == [
        "Mark the assessment as complete",
        "reviewing the machinery status",
    ]
    assert split_clauses("List the albums As Well As the playlists of the user") == [
        "List the albums",
        "the playlists of the user",
    ]
    assert split_clauses("movies as well as shows") == []  # pieces too short: one intent


def test_connective_cuts_can_be_switched_off() -> None:
    query = "Show all existing orders along with the operational status of machinery"
    assert split_clauses(query, connectives=False) == []


def test_sentences_giving_context_are_not_intents() -> None:
    """The banking request of issue 18: one action, then an identifier and a preference."""
    query = (
        "I want to cancel my bank account contract with the ID 1234 right away. "
        "My account ID is 0123. Please make sure the refund goes to my card."
    )
    assert split_clauses(query) == []
    assert len(split_clauses(query, intents_only=False)) == 3
    # two actions and a context sentence: the two actions stay
    assert split_clauses("List my open invoices. The customer is ACME. Then email the overdue ones") == [
        "List my open invoices.",
        "Then email the overdue ones",
    ]


@pytest.mark.parametrize(
    ("piece", "context"),
    [
        ("My account ID is 0123.", True),
        ("The order was placed yesterday", True),
        ("Please make sure it happens today", True),
        ("Thanks a lot", True),
        ("then remove the outdated materials", False),
        ("what is my most played track?", False),
        ("I'd like to have the list of my playlists", False),
        ("the operational status of monitored machinery", False),
    ],
)
def test_is_context(piece: str, context: bool) -> None:
    assert is_context(piece) is context
