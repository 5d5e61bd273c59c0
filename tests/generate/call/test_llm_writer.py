"""The llm generator with a scripted LLM double: schema-constrained JSON, validation, repair, fallback."""

from __future__ import annotations

import json

from openapi_rag.generate.call import generate_call
from openapi_rag.generate.call.fields import operation_fields
from openapi_rag.generate.call.llm_writer import call_schema
from tests.llm.doubles import ScriptedLLM

TRANSFER = "Transfer $250 from account 1234 to account 5678"


def test_the_schema_is_built_from_the_operation(call_services: list) -> None:
    service = next(s for s in call_services if s.id == "spotify-web-api")
    fields, _ = operation_fields(service.operation("POST /playlists/{playlist_id}/tracks"), service)
    schema = call_schema(fields)
    assert schema["required"] == ["path"]
    assert schema["properties"]["path"]["properties"]["playlist_id"] == {"type": "string"}
    assert schema["properties"]["body"]["properties"]["uris"]["type"] == "array"


def test_the_reply_becomes_the_call_and_the_schema_is_sent(call_index: object) -> None:
    reply = {"body": {"from_account": "1234", "to_account": "5678", "amount": 250, "currency": "USD"}}
    llm = ScriptedLLM([json.dumps(reply)])
    llm.supports_json_schema = True
    call = generate_call(TRANSFER, call_index, generator="llm", llm=llm).to_dict()
    assert call["body"] == reply["body"] and call["problems"] == []
    assert call["llm_tokens"]["prompt"] > 0 and call["llm_tokens"]["completion"] > 0
    sent = llm.calls[0]["response_format"]["json_schema"]["schema"]
    assert sent["properties"]["body"]["required"] == ["from_account", "to_account", "amount", "currency"]


def test_an_invalid_reply_is_repaired_once_then_completed_by_rules(call_index: object) -> None:
    llm = ScriptedLLM(["I think you want a transfer!", '{"body": {"amount": "lots"}}'])
    call = generate_call(TRANSFER, call_index, generator="llm", llm=llm).to_dict()
    assert len(llm.calls) == 2 and "does not fit" in llm.calls[1]["messages"][-1]["content"]
    assert call["body"]["from_account"] == "1234"  # left out by the model, filled by the offline rules
    assert any("LLM reply" in p for p in call["problems"])
    assert any("filled from the request by rules" in p for p in call["problems"])


def test_bounds_written_as_strings_become_numbers_in_the_schema(call_services: list) -> None:
    service = next(s for s in call_services if s.id == "spotify-web-api")
    fields, _ = operation_fields(service.operation("GET /me/playlists"), service)
    limit = call_schema(fields)["properties"]["query"]["properties"]["limit"]
    assert all(isinstance(limit[k], int | float) for k in ("minimum", "maximum") if k in limit)
    assert "minimum" in limit  # the description's "0" kept as a number: llama.cpp grammars refuse strings
