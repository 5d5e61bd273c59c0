"""`response_fields`: the names of what an operation's success response returns."""

from __future__ import annotations

from openapi_rag.chunking.response_fields import response_fields, success_responses
from openapi_rag.model import Operation, Schema, Service


def service(schemas: dict[str, dict]) -> Service:
    return Service(
        id="s",
        title="S",
        version="1",
        file="s.json",
        format="oas30",
        schemas={name: Schema(name=name, schema=body) for name, body in schemas.items()},
    )


def json_response(schema: dict) -> dict:
    return {"description": "ok", "content": {"application/json": {"schema": schema}}}


def test_top_level_fields_through_refs_arrays_and_all_of(campaigns) -> None:  # type: ignore[no-untyped-def]
    assert response_fields(campaigns, campaigns.operation("GET /campaigns/{id}")) == ["id", "name", "owner"]
    svc = service(
        {
            "Base": {"type": "object", "properties": {"id": {"type": "integer"}}},
            "Show": {
                "allOf": [
                    {"$ref": "#/components/schemas/Base"},
                    {"type": "object", "properties": {"number_of_seasons": {"type": "integer"}}},
                ]
            },
        }
    )
    op = Operation(
        service="s",
        method="GET",
        path="/tv/{tv_id}",
        responses={"200": json_response({"type": "array", "items": {"$ref": "#/components/schemas/Show"}})},
    )
    assert response_fields(svc, op) == ["id", "number_of_seasons"]


def test_depth_limit_and_cycles(campaigns) -> None:  # type: ignore[no-untyped-def]
    op = campaigns.operation("GET /campaigns/{id}")  # Campaign.owner -> User -> User/Campaign (cycle)
    two_levels = ["id", "name", "owner", "email", "manager", "campaigns"]
    assert response_fields(campaigns, op, max_depth=2) == two_levels
    assert response_fields(campaigns, op, max_depth=5)[:6] == two_levels
    assert response_fields(campaigns, op, limit=2) == ["id", "name"]


def test_only_success_responses_count_and_default_stands_in() -> None:
    error = json_response({"type": "object", "properties": {"message": {"type": "string"}}})
    ok = json_response({"type": "object", "properties": {"birthday": {"type": "string"}}})
    op = Operation(service="s", method="GET", path="/p", responses={"200": ok, "404": error})
    assert success_responses(op) == [ok]
    assert response_fields(service({}), op) == ["birthday"]
    fallback = Operation(service="s", method="GET", path="/p", responses={"default": ok, "404": error})
    assert response_fields(service({}), fallback) == ["birthday"]
    nothing = Operation(service="s", method="DELETE", path="/p", responses={"204": {"description": "gone"}})
    assert response_fields(service({}), nothing) == []


def test_dangling_and_foreign_refs_are_skipped() -> None:
    op = Operation(
        service="s",
        method="GET",
        path="/p",
        responses={
            "200": json_response({"$ref": "#/components/schemas/Missing"}),
            "201": json_response({"$ref": "other.yaml#/X"}),
        },
    )
    assert response_fields(service({}), op) == []


def test_unwrap_names_an_envelope_s_payload_fields_and_leaves_other_responses_alone() -> None:
    svc = service(
        {
            "Deal": {"type": "object", "properties": {"title": {}, "close_date": {}}},
            "GetDealResponse": {
                "type": "object",
                "properties": {
                    "status_code": {"type": "integer"},
                    "data": {"$ref": "#/components/schemas/Deal"},
                },
            },
            "Counts": {"type": "object", "properties": {"status": {}, "data": {"type": "string"}}},
        }
    )
    wrapped = Operation(
        service="s",
        method="GET",
        path="/deals/{id}",
        responses={"200": json_response({"$ref": "#/components/schemas/GetDealResponse"})},
    )
    plain = Operation(
        service="s",
        method="GET",
        path="/counts",
        responses={"200": json_response({"$ref": "#/components/schemas/Counts"})},
    )
    assert response_fields(svc, wrapped) == ["status_code", "data"]
    assert response_fields(svc, wrapped, unwrap=True) == ["title", "close_date"]
    # `data` holding a string is a field like any other, not a payload
    assert response_fields(svc, plain, unwrap=True) == ["status", "data"]


def test_request_fields_name_what_a_body_sends_without_read_only_ones() -> None:
    from openapi_rag.chunking.response_fields import request_fields

    svc = service(
        {
            "Card": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "readOnly": True},
                    "name": {"type": "string"},
                    "idList": {"type": "string"},
                },
            }
        }
    )
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Card"}}}}
    op = Operation(service="s", method="POST", path="/cards", request_body=body)
    assert request_fields(svc, op) == ["name", "idList"]
    assert request_fields(svc, op, limit=1) == ["name"]
    assert request_fields(svc, Operation(service="s", method="GET", path="/cards")) == []


def test_a_real_swagger_2_body_parameter_gives_the_fields_a_create_takes() -> None:
    from openapi_rag.chunking.compact import compact_text, lexical_text
    from openapi_rag.spec import load_services
    from tests.conftest import shared_data

    trello = shared_data("realworld", "apis-guru-unofficial", "trello.com", "1.0", "swagger.yaml")
    svc = load_services([trello]).services[0]
    add = svc.operation("POST /cards")  # summarised "addCards()", its body `in: body` in Swagger 2
    line = compact_text(svc, add, takes=10)
    assert "Takes: " in line and "idList" in line and "desc" in line
    assert "Takes" not in compact_text(svc, add)  # off by default (session 16: lost under the rule)
    assert "idList" in lexical_text(svc, add, takes=10).split()
