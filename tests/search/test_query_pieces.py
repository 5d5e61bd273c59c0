"""What a request's intents are searched with, and what they leave out (issue 18, items 5-6, third
pass; each off by default, with a row in `scripts/ablation_quality.py`): `context.core`,
`context.is_detail`, requirement wishes, `clauses.conversational`, `coherence.favour_one_api`."""

from __future__ import annotations

import pytest

from openapi_rag.index import Index
from openapi_rag.search.clauses import conversational, intents
from openapi_rag.search.coherence import favour_one_api
from openapi_rag.search.context import core, identifiers, is_context, is_detail
from openapi_rag.spec import load_services
from tests.conftest import shared_data


def test_an_intent_s_core_leaves_out_identifiers_and_afterthoughts() -> None:
    assert core("Take site promo-2024 offline so it stops serving pages, but don't delete it.") == "Take site offline"
    assert core("Please cancel the scheduled message SM8812 so that nobody gets it.") == (
        "Please cancel the scheduled message"
    )
    assert core("convert 500 EUR to USD") == "convert 500 EUR to USD"  # amounts stay
    assert core("E-204") == "E-204"  # nothing would be left: the piece itself
    assert identifiers("INV-0042, 5th, 10am, 2023, v2, opp_4410") == ["INV-0042", "opp_4410"]


@pytest.mark.parametrize(
    "piece",
    [
        "Call it cms-publish",
        "point it at the main branch.",
        "I'd like to know its name, genus and order.",
        "I need their names.",
    ],
)
def test_a_detail_points_back_at_the_intent_before_it(piece: str) -> None:
    assert is_detail(piece)


@pytest.mark.parametrize(
    "piece", ["Can you delete it?", "Create a build hook for site blog-main.", "Also update its name", "it"]
)
def test_an_action_on_what_was_named_is_no_detail(piece: str) -> None:
    assert not is_detail(piece)


def test_details_join_their_intent_and_requirement_wishes_give_context() -> None:
    query = "Create a build hook for site blog-main. Call it cms-publish and point it at the main branch."
    assert len(intents(query)) == 3
    assert intents(query, join_details=True) == [
        "Create a build hook for site blog-main. Call it cms-publish point it at the main branch."  # the cut's "and" goes
    ]
    # a detail after context stays as it was (there is no intent to join)
    assert intents("We moved last week. Call it the new office.", join_details=True) == intents(
        "We moved last week. Call it the new office."
    )
    wish = "I want to make sure it's fully removed."
    assert not is_context(wish, "main_clause")
    assert is_context(wish, "main_clause", wish_requirements=True)
    assert not is_context("I want to remove it for good.", "main_clause", wish_requirements=True)


def test_a_conversation_is_not_a_plan() -> None:
    assert conversational("We closed that account last month. Please cancel its bank feed.")
    assert not conversational("Get all alerts, then create a threshold. Send the report to the team.")
    assert not conversational("Cancel its bank feed.")


def test_one_api_answers_a_request_s_intents() -> None:
    convert = {("forge", "GET /convertCurrency"): 1.0, ("beacon", "GET /convert"): 0.98}
    rates = {("forge", "GET /getExchangeRates"): 0.95, ("beacon", "GET /latest"): 1.0}
    final = {**convert, **rates}
    # forge: 1.0 + .95, beacon: .98 + 1.0 -> beacon answers both best
    favoured = favour_one_api(final, [convert, rates], factor=0.9)
    assert favoured[("forge", "GET /convertCurrency")] == pytest.approx(0.9)
    assert favoured[("beacon", "GET /convert")] == 0.98 and favoured[("beacon", "GET /latest")] == 1.0
    assert favour_one_api(final, [convert, rates], factor=1.0) == final
    assert favour_one_api(final, [], factor=0.9) == final


@pytest.mark.shared
def test_a_real_intent_is_searched_without_its_identifier() -> None:
    """The real Netlify description and the real embedder: with `clause_core` the request's one
    intent is embedded as "Take site offline" and the operation that does it stays first."""
    index = Index.build(load_services([shared_data("realworld") / "netlify" / "swagger.yml"]).services)
    query = (
        "We're pausing the promo microsite while legal reviews it. Take site promo-2024 offline so "
        "it stops serving pages, but don't delete it. We'll bring it back next week."
    )
    assert index.searcher.texts_to_embed(query)[1:] == [
        "Take site promo-2024 offline so it stops serving pages."  # what it forbids is not searched
    ]
    index.searcher.configure(clause_core=True)
    assert index.searcher.texts_to_embed(query)[1:] == ["Take site offline"]
    assert "PUT /sites/{site_id}/disable" in [op.id for op in index.search(query, k=2, expand=False)]
