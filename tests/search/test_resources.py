"""The first result of a one-action request: its verb's method and its resource (`resources.py`)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from openapi_rag.search.resources import names_resource, resource_words, settle_first
from openapi_rag.search.results import OperationHit

CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"


def op(service: str, op_id: str, score: float) -> OperationHit:
    method, _, path = op_id.partition(" ")
    return OperationHit(service, method, path, op_id, score)


def test_a_resource_is_the_last_segment_that_is_not_a_parameter() -> None:
    assert resource_words("/BankTransfers/{BankTransferID}") == {"bank", "transfer"}
    assert resource_words("/v2/monitoring/alerts") == {"alert"}
    assert resource_words("/policies") == {"policy"} and resource_words("/addresses") == {"address"}
    assert resource_words("/{id}") == frozenset() and resource_words("/") == frozenset()
    assert names_resource("Please record a bank transfer", "/BankTransfers")
    assert not names_resource("Please record a transfer", "/BankTransfers")  # every word must be named


def test_the_verb_and_the_resource_settle_the_first_result() -> None:
    ops = [
        op("payroll", "PUT /Employees/{EmployeeID}/Leave/{LeaveID}", 1.0),
        op("payroll", "GET /Employees", 0.9),
        op("payroll", "PUT /Employees/{EmployeeID}", 0.85),
        op("hris", "PATCH /employees/{id}", 0.95),
    ]
    intent = "Please update employee emp_882's record with that termination date."
    # GET /Employees names the resource but "update" rules GET out; another API's is not a sibling
    settled = settle_first(ops, intent, share=0.8)
    assert [o.id for o in settled][:2] == ["PUT /Employees/{EmployeeID}", "PUT /Employees/{EmployeeID}/Leave/{LeaveID}"]
    assert settled[0].score == 1.0 and len(settled) == len(ops)
    # too far below the best, or a first result that already fits: the order stands
    assert settle_first(ops, intent, share=0.9) == ops
    assert settle_first(ops, "update the leave of an employee", share=0.8) == ops
    # the resource's words may come from the whole request
    words = "Maria is an employee here. Please update her record."
    assert settle_first(ops, "Please update her record.", share=0.8) == ops
    assert settle_first(ops, "Please update her record.", share=0.8, words_of=words)[0].id == "PUT /Employees/{EmployeeID}"
    assert settle_first([], intent, share=0.8) == []


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    specs = tmp_path_factory.mktemp("catalog") / "specs"
    shutil.copytree(CATALOG, specs)
    return Index.build(load_services([specs]).services)


@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("create a playlist", "POST /users/{user_id}/playlists"),
        ("look up the carrier of a phone number", "GET /v2/PhoneNumbers/{PhoneNumber}"),
    ],
)
def test_the_demo_catalog_answers_first(catalog, query: str, first: str) -> None:  # type: ignore[no-untyped-def]
    """The issue's two demo misses (third and fifth before): the real catalog, the real embedder."""
    catalog.searcher.configure(settle_first=True)
    assert catalog.search(query, k=5, expand=False)[0].id == first
    catalog.searcher.configure(settle_first=False)
    assert catalog.search(query, k=5, expand=False)[0].id != first
    catalog.searcher.configure(settle_first=True)
