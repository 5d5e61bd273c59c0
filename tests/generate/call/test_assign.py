"""Fields of real operations, and values assigned to them by name, description, type and position."""

from __future__ import annotations

from openapi_rag.generate.call.assign import assign_values
from openapi_rag.generate.call.fields import operation_fields
from openapi_rag.generate.call.values import extract_values


def _op(services: list, service_id: str, op_id: str):  # noqa: ANN202
    service = next(s for s in services if s.id == service_id)
    return service.operation(op_id), service


def _assigned(services: list, service_id: str, op_id: str, request: str) -> dict[str, object]:
    op, service = _op(services, service_id, op_id)
    fields, _ = operation_fields(op, service)
    return {
        f"{a.field.location}.{a.field.name}": a.value
        for a in assign_values(fields, extract_values(request), request)
    }


def test_fields_flatten_nested_bodies_and_read_string_booleans(call_services: list) -> None:
    op, service = _op(call_services, "banking-account-management-api", "PUT /account/update")
    fields, media = operation_fields(op, service)
    assert media == "application/json"
    assert [(f.location, f.name, f.required) for f in fields] == [
        ("body", "account_number", True),
        ("body", "contact_info.email", False),
        ("body", "contact_info.phone", False),
    ]
    search, spotify = _op(call_services, "spotify-web-api", "GET /search")
    q = next(f for f in operation_fields(search, spotify)[0] if f.name == "q")
    assert q.required  # written `required: "true"` in the description


def test_from_and_to_accounts_amount_and_currency(call_services: list) -> None:
    assert _assigned(
        call_services,
        "banking-account-management-api",
        "POST /account/transfer",
        "Move 1,200.50 euros from account ACC-001 to account ACC-002",
    ) == {
        "body.from_account": "ACC-001",
        "body.to_account": "ACC-002",
        "body.amount": 1200.5,
        "body.currency": "EUR",
    }


def test_uris_follow_the_example_shape_and_go_in_the_body(call_services: list) -> None:
    assert _assigned(
        call_services, "spotify-web-api", "POST /playlists/{playlist_id}/tracks",
        "Add the track 4iV5W9uYEdYUVa79Axb7Rh to my playlist 3cEYpjA9oz9GiPac4AsH4n",
    ) == {"path.playlist_id": "3cEYpjA9oz9GiPac4AsH4n", "body.uris": ["spotify:track:4iV5W9uYEdYUVa79Axb7Rh"]}  # fmt: skip


def test_enums_named_in_words_booleans_and_plain_word_ids(call_services: list) -> None:
    assert _assigned(
        call_services, "financial-data-api", "POST /alerts/subscribe", "Alert me when TSLA goes above 300"
    ) == {"body.symbol": "TSLA", "body.threshold": 300, "body.direction": "above"}
    assert _assigned(
        call_services, "spotify-web-api", "POST /users/{user_id}/playlists",
        'Create a private playlist called "Late Night Jazz" for user wizzler',
    ) == {"path.user_id": "wizzler", "body.name": "Late Night Jazz", "body.public": False}  # fmt: skip


def test_optional_fields_need_evidence(call_services: list) -> None:
    # "5" is near no word of `offset`, so only `limit` takes it; `market` is never guessed.
    assert _assigned(
        call_services, "spotify-web-api", "GET /me/playlists", "List 5 of my playlists, limit 5"
    ) == {"query.limit": 5}
