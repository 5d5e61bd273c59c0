"""Which pieces of a request give context (`search/context.py`), and cutting a request of several
sentences (`clauses.intents(sentence_units=True)`)."""

from __future__ import annotations

import json

import pytest

from openapi_rag.index import Index
from openapi_rag.search.clauses import intents, split_clauses
from openapi_rag.search.context import is_context, opens_with_action
from openapi_rag.spec import load_services
from tests.conftest import shared_data


@pytest.mark.parametrize(
    "piece",
    [
        "My account ID is 0123.",
        "Tom is going on two weeks of annual leave from 10 July.",  # a name, then a copula
        "A customer moved last week",  # a noun, then a past verb
        "We report in NZD.",  # a person, then a verb that asks for nothing
        "We don't want any more invoices from it.",  # a wish, denied
        "Before we send them anything",  # a subordinate clause
        "Payroll has been told separately.",
        "Could you set that up?",  # points back at an action named before
        "Please make sure no statement comes through for it.",
        "Hi there team",
    ],
)
def test_statements_conditions_and_courtesies_give_context(piece: str) -> None:
    assert is_context(piece)


@pytest.mark.parametrize(
    "piece",
    [
        "Please cancel the scheduled message SM8812 so it never goes out.",
        "Mark order ord_3321 as paid in the point-of-sale system.",  # "paid" is no statement here
        "Buy a UK phone number with a 0161 area code",  # an imperative not listed as a verb
        "I'd like to record that payment against the invoice",
        "What is the current balance of our account?",
        "dismiss resolved alerts",  # "resolved" qualifies the alerts
        "Give me a show that is currently on the air",  # "is" belongs to the relative clause
        "a detailed review of my current insurance coverage",  # a noun phrase: part of an intent
        "the operational status of monitored machinery",
    ],
)
def test_requests_questions_and_noun_phrases_are_intents(piece: str) -> None:
    assert not is_context(piece)


def test_the_earlier_rule_only_reads_a_subject_and_a_copula() -> None:
    assert is_context("My account ID is 0123", "subject")
    assert not is_context("Tom is going on leave from Monday", "subject")
    assert is_context("Tom is going on leave from Monday", "statement")


def test_a_conversational_request_names_one_intent() -> None:
    query = (
        "We scheduled an SMS reminder for tomorrow morning but the appointment was called off. "
        "Please cancel the scheduled message SM8812 so it never goes out. "
        "The customer has already been told by phone."
    )
    assert intents(query) == ["Please cancel the scheduled message SM8812 so it never goes out."]
    assert split_clauses(query) == []  # one intent: nothing to search apart


def test_sentences_as_units_cut_inside_a_sentence_only_before_an_action() -> None:
    query = (
        "I'm planning a vacation to Thailand. Can you fetch the exchange rates for THB from "
        "January 1, 2023, to December 31, 2023, and also convert 500 USD to THB? Thanks!"
    )
    assert intents(query, sentence_units=True) == [
        "Can you fetch the exchange rates for THB from January 1, 2023, to December 31, 2023",
        "also convert 500 USD to THB?",
    ]
    # without: the dates cut the first request short
    assert intents(query)[0] == "Can you fetch the exchange rates for THB from January 1"
    # one sentence listing its steps is cut as before
    steps = "Retrieve the status of all equipment, access active alerts, and submit the integration status"
    assert intents(steps, sentence_units=True) == intents(steps)
    assert len(intents(steps)) == 3


def test_opens_with_action() -> None:
    assert opens_with_action("then list its tracks") and opens_with_action("I'd like the rates")
    assert not opens_with_action("useless facts to include") and not opens_with_action("2023")


@pytest.mark.shared
def test_a_long_request_over_a_real_api_finds_its_one_operation() -> None:
    """Xero's bank feeds model "cancel a feed" as creating a delete request: with context
    sentences around the one action, searching that action on its own (`focus_intent`) returns
    the POST first."""
    services = load_services([shared_data("realworld") / "xero" / "xero_bankfeeds.yaml"]).services
    index = Index.build(services)
    query = (
        "Our old savings account was closed at the end of March. Could you cancel its bank feed "
        "connection fc-7781 straight away? No statement should come through for it any more."
    )
    assert intents(query) == ["Could you cancel its bank feed connection fc-7781 straight away?"]
    focused = [op.id for op in index.search(query, k=3, expand=False)]  # the default: on
    index.searcher.configure(focus_intent=False)
    whole = [op.id for op in index.search(query, k=3, expand=False)]
    # the whole request reads as much about statements as about the feed; its one intent does not
    assert whole[0] == "GET /Statements/{statementId}"
    assert focused[0] == "POST /FeedConnections/DeleteRequests"


def test_long_task_set_shape() -> None:
    from openapi_rag.bench.loaders import REALWORLD_TASKS

    path = REALWORLD_TASKS.with_name("long_tasks.jsonl")
    tasks = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert len(tasks) >= 60 and len({t["id"] for t in tasks}) == len(tasks)
    assert all(t["id"].startswith("long-") and len(t["expected"]) == 1 for t in tasks)
    assert len({t["provider"] for t in tasks}) >= 5
    # long and conversational: two to four sentences each
    for t in tasks:
        sentences = [s for s in t["query"].replace("!", ".").replace("?", ".").split(". ") if s.strip()]
        assert 2 <= len(sentences) <= 4, t["id"]


def test_main_clause_rule_reads_what_the_statement_rule_misses() -> None:
    """A main clause after a subordinate one, an indefinite subject, a verb after an adverb and
    "so please ..." (`context_rule="main_clause"`, the default)."""
    asks = "Before I approve her holiday request I need to know how many days off Maria has left."
    assert is_context(asks) and not is_context(asks, "main_clause")
    assert is_context("Before we send them anything, we don't want it checked", "main_clause")
    told = "One of our clients overpaid and we've agreed to send the difference back."
    assert not is_context(told) and is_context(told, "main_clause")
    paid = "A table at our restaurant just paid in cash."
    assert not is_context(paid) and is_context(paid, "main_clause")
    assert not is_context("the operational status of monitored machinery", "main_clause")  # a noun phrase
    query = "We agreed to give them 200 back, so please issue a credit note for that amount. It is urgent."
    assert intents(query, sentence_units=True) == []
    assert intents(query, sentence_units=True, context_rule="main_clause") == [
        "so please issue a credit note for that amount."
    ]



@pytest.mark.parametrize(
    ("request_", "searched"),
    [
        (
            "Take site promo-2024 offline so it stops serving pages, but don't delete it. We'll bring it back.",
            "Take site promo-2024 offline so it stops serving pages. We'll bring it back.",
        ),
        ("Archive card 5f2b9c. Don't delete it, we might need it for the retro.", "Archive card 5f2b9c."),
        ("Put user 42 in a timeout. Do not kick or ban them yet.", "Put user 42 in a timeout."),
        ("Pause the nightly job for a week without deleting its schedule.", "Pause the nightly job for a week."),
        # a subject's own negation says what the writer wants: it stays
        ("We don't want any more invoices from it, stop the template.", None),
        ("Cancel the scheduled message SM8812 so it never goes out.", None),
        ("Make sure jane@example.com never receives anything from us again.", None),
        ("Don't forget to send the invoice.", None),  # asks for it
        ("Don't.", None),  # nothing would be left
    ],
)
def test_the_actions_a_request_forbids_are_not_searched(request_: str, searched: str | None) -> None:
    from openapi_rag.search.context import without_negations

    assert without_negations(request_) == (searched or request_)


def test_a_forbidden_action_is_not_searched_for() -> None:
    from openapi_rag.search.settings import DEFAULT_SETTINGS

    netlify = Index.build(load_services([shared_data("realworld", "netlify")]).services)
    request = (
        "We're pausing the promo microsite while legal reviews it. Take site promo-2024 offline so it "
        "stops serving pages, but don't delete it. We'll bring it back next week."
    )
    netlify.searcher.configure(DEFAULT_SETTINGS, drop_negations=False)
    read_whole = [hit.id for hit in netlify.search(request, k=3, expand=False)]
    netlify.searcher.configure(DEFAULT_SETTINGS)  # drop_negations
    searched = [hit.id for hit in netlify.search(request, k=3, expand=False)]
    assert read_whole[0] == searched[0] == "PUT /sites/{site_id}/disable"
    assert "DELETE /sites/{site_id}" in read_whole and "DELETE /sites/{site_id}" not in searched
