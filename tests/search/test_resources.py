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


def test_a_lifted_producer_is_not_settled_first() -> None:
    """`exclude`: a producer lifted as another operation's input names the resource ("app") but
    is not the action asked for; the order the scores gave stands."""
    ops = [
        op("do", "POST /v2/apps/{app_id}/rollback", 1.0),
        op("do", "GET /v2/apps", 0.9),  # lifted: 0.9 of the rollback's score
    ]
    intent = "go back to the previous version of my app"
    assert [o.id for o in settle_first(ops, intent, share=0.8)][0] == "GET /v2/apps"
    assert settle_first(ops, intent, share=0.8, exclude=frozenset({("do", "GET /v2/apps")})) == ops


def _path_op(summary: str, *, param: bool) -> dict:
    params = [{"name": "app_id", "in": "path", "required": True, "schema": {"type": "string"}}]
    return {"summary": summary, "responses": {"200": {"description": "ok"}}, **({"parameters": params} if param else {})}


def test_a_search_settles_no_lifted_producer_first_with_the_setting(tmp_path: Path) -> None:
    """The real embedder and search: `GET /apps` is lifted as the rollback's producer (.9 of its
    score) and names the request's resource ("app"); `settle_lifted=False` leaves it second."""
    import json

    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    spec = {
        "openapi": "3.0.0",
        "info": {"title": "Apps", "version": "1"},
        "paths": {
            "/apps": {"get": _path_op("List all apps", param=False)},
            "/apps/{app_id}": {"get": _path_op("Retrieve an existing app", param=True)},
            "/apps/{app_id}/rollback": {"post": _path_op("Rollback app to a previous deployment", param=True)},
            "/apps/{app_id}/logs": {"get": _path_op("Retrieve active deployment logs", param=True)},
        },
    }
    (tmp_path / "apps.json").write_text(json.dumps(spec))
    index = Index.build(load_services([tmp_path]).services)
    query = "go back to the previous version of my app, the new release is broken"

    def first_two(**settings: object) -> list[str]:
        index.searcher.configure(index.searcher.settings.replace(**settings))
        return [hit.id for hit in index.search(query, k=2, expand=False)]

    assert first_two(settle_lifted=True) == ["GET /apps", "POST /apps/{app_id}/rollback"]
    assert first_two(settle_lifted=False) == ["POST /apps/{app_id}/rollback", "GET /apps"]


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
