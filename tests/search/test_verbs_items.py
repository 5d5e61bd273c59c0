"""Verbs read where the lexicon missed them, and the item a changing request names (issue 18,
items 5-6, third pass): `actions.CONTRACTIONS`, `actions.COMMAND_VERBS`, `resources.settle_first(shape=True)`."""

from __future__ import annotations

import pytest

from openapi_rag.index import Index
from openapi_rag.search.actions import clause_methods, lead_ins, verb_lexicon
from openapi_rag.search.resources import is_item_path, names_identifier, settle_first
from openapi_rag.search.results import OperationHit
from openapi_rag.search.settings import DEFAULT_SETTINGS
from openapi_rag.spec import load_services
from tests.conftest import shared_data

_UPDATE = {"PUT", "PATCH", "POST"}


def test_a_verb_after_a_contraction_is_read() -> None:
    wish = "I'd like to record that payment against the invoice in Xero"
    assert clause_methods(wish) is None  # "d" stopped the reading
    assert clause_methods(wish, skip=lead_ins(contractions=True)) == {"POST", "PUT"}
    assert clause_methods("We'll need to delete the old webhook", skip=lead_ins(contractions=True)) == {"DELETE"}


@pytest.mark.parametrize(
    ("clause", "methods"),
    [
        ("Please mark order ord_3321 as paid", _UPDATE),
        ("move opportunity opp_4410 to the closed-won stage", _UPDATE),
        ("archive the old project", _UPDATE),
        ("run a report of last month's sales", None),  # also opens a read: not listed
        ("pull up the trial balance", None),
        ("cancel the order", {"POST", "PUT", "PATCH", "DELETE"}),  # ACTION_VERBS keeps its own
    ],
)
def test_commands_that_change_something_are_read_as_updates(clause: str, methods: set[str] | None) -> None:
    assert clause_methods(clause, verb_lexicon(commands=True)) == methods
    assert clause_methods("Please mark order ord_3321 as paid") is None  # not without the setting


def test_the_lexicons_are_built_once_and_read_only() -> None:
    # every search asks for them: one shared object per combination, which no caller can change
    verbs = verb_lexicon(catalog=True, commands=True)
    assert verb_lexicon(catalog=True, commands=True) is verbs
    assert verbs["mark"] == _UPDATE and verbs["cancel"] == {"POST", "PUT", "PATCH", "DELETE"}
    with pytest.raises(TypeError):
        verbs["mark"] = frozenset({"GET"})  # type: ignore[index]
    assert lead_ins(contractions=True) is lead_ins(contractions=True)
    assert "d" in lead_ins(contractions=True) and "d" not in lead_ins()


def test_identifiers_and_item_paths() -> None:
    assert names_identifier("Please move opportunity opp_4410 to closed-won")
    assert names_identifier("cancel order #1234") and names_identifier("my account ID is 0123")
    # amounts, dates, ordinals and times name nothing
    assert not names_identifier("pay 1,250 EUR on the 5th of July 2024 at 10am")
    assert is_item_path("/crm/opportunities/{id}") and is_item_path("/Messages/{Sid}.json")
    assert not is_item_path("/crm/opportunities") and not is_item_path("/pos/orders/{id}/pay")


def op(method: str, path: str, score: float, service: str = "crm") -> OperationHit:
    return OperationHit(service, method, path, f"{method} {path}", score)


def test_a_changing_request_naming_an_identifier_settles_on_the_item() -> None:
    ops = [
        op("GET", "/opportunities/{id}", 1.0),
        op("POST", "/opportunities", 0.9),
        op("PATCH", "/opportunities/{id}", 0.85),
    ]
    verbs = verb_lexicon(commands=True)
    intent = "Please move opportunity opp_4410 to closed-won."
    # without the shape, the first fit is the collection's POST; with it, the item's PATCH
    assert settle_first(ops, intent, share=0.8, verbs=verbs)[0].id == "POST /opportunities"
    assert settle_first(ops, intent, share=0.8, verbs=verbs, shape=True)[0].id == "PATCH /opportunities/{id}"
    # no identifier, or a verb that creates: the collection as before
    assert settle_first(ops, "move an opportunity to closed-won", share=0.8, verbs=verbs, shape=True)[0].id == (
        "POST /opportunities"
    )
    add = "Please add opportunity opp_4410 to the pipeline."
    assert settle_first(ops, add, share=0.8, verbs=verbs, shape=True)[0].id == "POST /opportunities"
    # no item in the head: the method and the resource alone settle it
    assert settle_first(ops[:2], intent, share=0.8, verbs=verbs, shape=True)[0].id == "POST /opportunities"


@pytest.mark.shared
def test_a_long_request_to_move_a_record_finds_its_update_first() -> None:
    """The real Apideck CRM description (53 operations), the real embedder: "move" named no method,
    so the read of the opportunity came first; read as an update of the one opportunity the
    request names, the PATCH does."""
    index = Index.build(load_services([shared_data("realworld") / "apideck" / "crm.yml"]).services)
    query = (
        "The lead went cold over the summer. Please move opportunity opp_9921 to the closed-lost "
        "stage. Sales has been told."
    )
    assert DEFAULT_SETTINGS.command_verbs and DEFAULT_SETTINGS.settle_item
    assert index.search(query, k=3, expand=False)[0].id == "PATCH /crm/opportunities/{id}"
    index.searcher.configure(command_verbs=False, settle_item=False)
    assert index.search(query, k=3, expand=False)[0].id == "GET /crm/opportunities/{id}"
