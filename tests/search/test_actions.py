"""Action verbs of clauses (`search/actions.py`) and their use in `Searcher`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from openapi_rag.index import Index
from openapi_rag.model import Chunk
from openapi_rag.search import BM25Index, Searcher
from openapi_rag.search.actions import clause_methods, weigh_verb
from openapi_rag.search.settings import DEFAULT_SETTINGS
from openapi_rag.spec import load_services
from openapi_rag.store import FaissStore
from tests.conftest import shared_data


@pytest.mark.parametrize(
    ("clause", "methods"),
    [
        ("Retrieve the status of all equipment", {"GET"}),
        ("then remove outdated materials from the system", {"DELETE"}),
        ("I need to add a supplier to provide the product", {"POST", "PUT"}),
        ("finally update the details of a specific equipment", {"PUT", "PATCH", "POST"}),
        ("uploading smart meter data for monitoring", {"POST", "PUT"}),
        ("logging the viewing activity", {"POST", "PUT"}),
        ("retrieves the alerts", {"GET"}),
    ],
)
def test_a_clause_s_leading_verb_gives_its_methods(clause: str, methods: set[str]) -> None:
    assert clause_methods(clause) == methods


@pytest.mark.parametrize(
    "clause",
    ["the weather impact between two dates", "configure alert thresholds", "a list of all orders", ""],
)
def test_no_plain_action_verb_gives_none(clause: str) -> None:
    # "configure" maps to POST in one API and PUT in the next: not listed; "list" as a noun
    # only counts when it leads the clause ("a list" does not)
    assert clause_methods(clause) is None


OPS = ["GET /materials", "DELETE /materials/{id}", "GET /inventory/levels"]
QUERY = "Check the inventory levels, and remove outdated materials from the inventory"
CLAUSES = ["Check the inventory levels", "remove outdated materials from the inventory"]


def materials_searcher(**settings) -> Searcher:  # type: ignore[no-untyped-def]
    chunks = [
        Chunk(
            id=f"inv:compact:{op}", kind="endpoint", service="inv", operations=[op], embed_text=op, content=op
        )
        for op in OPS
    ]
    store = FaissStore(3)
    store.add([c.id for c in chunks], np.eye(3, dtype=np.float32), chunks)
    # the second clause's vector leans to GET /materials, as text similarity often does
    vectors = {
        CLAUSES[0]: np.array([0.0, 0.0, 1.0], dtype=np.float32),
        CLAUSES[1]: np.array([1.0, 0.95, 0.0], dtype=np.float32) / np.hypot(1.0, 0.95),
    }
    return Searcher(
        store,
        BM25Index.from_chunks(chunks),
        embed=lambda texts: np.stack([vectors[t] for t in texts]),
        dependencies=False,
        **settings,
    )


def test_a_clause_s_verb_scales_down_the_operations_it_rules_out() -> None:
    whole = np.array([0.0, 0.0, 1.0], dtype=np.float32)
    on = materials_searcher().search(QUERY, whole, mode="dense", k=3)
    off = materials_searcher(action_verbs=False).search(QUERY, whole, mode="dense", k=3)
    assert [op.id for op in off.operations][1:] == ["GET /materials", "DELETE /materials/{id}"]
    assert [op.id for op in on.operations][1:] == ["DELETE /materials/{id}", "GET /materials"]
    scores = {op.id: op.score for op in on.operations}
    assert scores["GET /materials"] == pytest.approx(DEFAULT_SETTINGS.verb_mismatch / np.hypot(1.0, 0.95))
    # a query searched whole is not read for a verb: "remove ..." alone changes nothing
    alone = materials_searcher(clauses=False).search(
        CLAUSES[1], np.eye(3, dtype=np.float32)[0], mode="dense", k=2
    )
    assert [op.id for op in alone.operations][0] == "GET /materials"


@pytest.mark.shared
def test_add_a_supplier_finds_the_post_on_real_socbench_data() -> None:
    domain = shared_data("socbench-d") / "socbenchd_1" / "05-consumer staples"
    query = next(
        q
        for q in json.loads((domain / "queries.json").read_text())["queries"]
        if "add a supplier to provide the product" in q["query"]
    )
    index = Index.build(load_services([domain]).services)
    ranked = [op.id for op in index.search(query["query"], k=10, expand=False)]
    # Without the verb and without the second list (since session 15 its model reads "add" right
    # here too), the first embedder and BM25 prefer GET /suppliers/list for "add a supplier".
    index.searcher.configure(action_verbs=False, static_weight=0.0)
    ranked_off = [op.id for op in index.search(query["query"], k=10, expand=False)]
    # text similarity prefers GET /suppliers/list for "add a supplier"; the verb asks for a POST
    assert ranked_off.index("GET /suppliers/list") < ranked_off.index("POST /supplier/add")
    after_all = len(ranked)  # not in the top 10
    list_place = ranked.index("GET /suppliers/list") if "GET /suppliers/list" in ranked else after_all
    assert ranked.index("POST /supplier/add") < list_place


def test_the_verb_is_weighed_against_what_the_catalog_offers() -> None:
    """An API that models "remove my contract" as creating a cancellation request offers no close
    DELETE: its POST keeps its score; where a close DELETE exists, the other methods give way."""
    bank = {
        ("bank", "POST /contracts/{id}/cancelRequests"): 1.0,
        ("bank", "GET /contracts/{id}"): 0.9,
        ("bank", "DELETE /contracts/{id}/cancelRequests/{uuid}"): 0.5,
    }
    assert weigh_verb(bank, "remove my contract right away", factor=0.5, offer_share=0.8) == bank
    demoted = weigh_verb(bank, "remove my contract right away", factor=0.5, offer_share=0.0)
    assert demoted[("bank", "POST /contracts/{id}/cancelRequests")] == 0.5  # the verb as a rule
    shop = {("shop", "GET /materials"): 1.0, ("shop", "DELETE /materials/{id}"): 0.9}
    weighed = weigh_verb(shop, "remove outdated materials", factor=0.5, offer_share=0.8)
    assert weighed == {("shop", "GET /materials"): 0.5, ("shop", "DELETE /materials/{id}"): 0.9}


def test_the_verb_of_a_request_s_one_intent_is_weighed_when_asked() -> None:
    """A request with one intent among context sentences is searched whole; `verb_single_intent`
    weighs that intent's verb against the whole request's list as a clause's would be."""
    query = "Our stock counts are done. Remove outdated materials from the inventory."
    vector = np.array([1.0, 0.95, 0.0], dtype=np.float32) / np.hypot(1.0, 0.95)
    off = materials_searcher(focus_intent=False).search(query, vector, mode="dense", k=2)
    on = materials_searcher(focus_intent=False, verb_single_intent=True).search(
        query, vector, mode="dense", k=2
    )
    assert [op.id for op in off.operations][0] == "GET /materials"
    assert [op.id for op in on.operations][0] == "DELETE /materials/{id}"


@pytest.mark.parametrize(
    ("clause", "methods"),
    [
        ("please cancel the scheduled message", {"POST", "PUT", "PATCH", "DELETE"}),
        ("approve timesheet TS-5521", {"POST", "PUT", "PATCH", "DELETE"}),
        ("book two weeks of leave for the employee", {"POST", "PUT"}),
    ],
)
def test_a_change_of_state_only_rules_out_a_read(clause: str, methods: set[str]) -> None:
    # one API cancels with DELETE, the next with a POST creating a cancellation request
    assert clause_methods(clause) == methods
