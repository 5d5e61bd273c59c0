"""`generate_call` over a real index: the public interface, its JSON shape, execution and repair."""

from __future__ import annotations

import json

import httpx

from openapi_rag.generate.call import GeneratedCall, generate_call
from openapi_rag.generate.call.execute import Target, call_request
from openapi_rag.generate.call.generator import plan_call
from openapi_rag.generate.call.mock import MockAPI, MockServer
from tests.llm.doubles import ScriptedLLM

KEYS = ["operation", "method", "endpoint", "query", "headers", "body", "problems", "candidates", "llm_tokens"]


def test_the_issue_example_and_its_json_shape(call_index: object) -> None:
    call = generate_call(
        "add the track 4iV5W9uYEdYUVa79Axb7Rh to my playlist 3cEYpjA9oz9GiPac4AsH4n", call_index
    )
    assert isinstance(call, GeneratedCall)
    data = call.to_dict()
    assert list(data) == KEYS
    assert data["operation"] == {
        "service": "spotify-web-api",
        "method": "POST",
        "path": "/playlists/{playlist_id}/tracks",
    }
    assert (data["method"], data["endpoint"]) == ("POST", "/playlists/3cEYpjA9oz9GiPac4AsH4n/tracks")
    assert data["body"] == {"uris": ["spotify:track:4iV5W9uYEdYUVa79Axb7Rh"]}
    assert (
        data["problems"] == [] and data["candidates"] and data["llm_tokens"] == {"prompt": 0, "completion": 0}
    )
    json.dumps(data)


def test_query_strings_amounts_and_dates(call_index: object) -> None:
    statements = generate_call(
        "Download my account statements between February 1, 2024 and April 30, 2024", call_index
    )
    assert statements.endpoint == "/account/statements?start_date=2024-02-01&end_date=2024-04-30"
    transfer = generate_call("Transfer $250 from account 1234 to account 5678", call_index)
    assert transfer.body == {"from_account": "1234", "to_account": "5678", "amount": 250, "currency": "USD"}


def test_nothing_similar_enough_gives_no_operation(call_index: object) -> None:
    call = generate_call("bake a chocolate cake with my grandmother", call_index).to_dict()
    assert call["operation"] is None and call["endpoint"] is None
    assert "similar enough" in call["reason"]


def test_a_required_value_the_request_lacks_is_a_problem(call_index: object) -> None:
    call = generate_call("Transfer money to account 5678", call_index)
    assert call.operation is not None and call.operation["path"] == "/account/transfer"
    assert any("'amount' is required" in p for p in call.problems)


def test_execution_against_the_mock_and_repair(call_index: object) -> None:
    with MockServer(MockAPI.from_index(call_index)) as server:
        target = Target(server.url, mock=True)
        done = call_request("Delete the insurance policy 54321", call_index, target=target).to_dict()
        assert done["execution"]["status"] == 204 and len(done["execution"]["attempts"]) == 1
        # Forced to start from a refused call: repair walks to the next candidate until one is accepted.
        plan = plan_call("Renew insurance policy 54321", call_index)
        plan.candidates.insert(0, next(c for c in plan.candidates if c.operation.method == "GET"))
        plan.candidates[0] = _broken(plan.candidates[0])
        from openapi_rag.generate.call.execute import execute_plan

        repaired = execute_plan(plan, target, repair=2)
        statuses = [a["status"] for a in repaired.execution["attempts"]]
        assert statuses[0] >= 400 and 200 <= statuses[-1] < 300


def _broken(candidate: object) -> object:
    import copy

    broken = copy.copy(candidate)
    broken.assignments = []  # type: ignore[attr-defined]
    broken.operation = copy.copy(broken.operation)  # type: ignore[attr-defined]
    broken.operation.path = "/no/such/path"  # type: ignore[attr-defined]
    return broken


def test_a_real_base_url_only_gets_reads_unless_writes_are_allowed(call_index: object) -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        return httpx.Response(200, json={"ok": True})

    client = httpx.Client(transport=httpx.MockTransport(handler))
    target = Target("https://api.example.com/v1", mock=False, client=client)
    write = call_request("Delete the insurance policy 54321", call_index, target=target).to_dict()
    assert write["execution"]["status"] is None and "--allow-write" in write["execution"]["reason"]
    read = call_request("Retrieve claim CL-88", call_index, target=target).to_dict()
    assert read["execution"]["status"] == 200 and seen == ["GET /v1/claims/CL-88"]
    allowed = Target("https://api.example.com/v1", mock=False, client=client, allow_write=True)
    call_request("Delete the insurance policy 54321", call_index, target=allowed)
    assert seen[-1] == "DELETE /v1/policies/54321"


def test_self_rag_policy_filters_with_the_llm_and_counts_tokens(call_index: object) -> None:
    llm = ScriptedLLM(
        reply_fn=lambda messages: (
            '{"score": 0.9}' if "DELETE" in messages[-1]["content"] else '{"score": 0.0}'
        )
    )
    call = generate_call(
        "Delete the insurance policy 54321", call_index, policy="self-rag", llm=llm
    ).to_dict()
    assert call["operation"]["method"] == "DELETE" and call["llm_tokens"]["prompt"] > 0
    assert all(c["method"] == "DELETE" for c in call["candidates"])
