"""LLM skeleton repair with a scripted LLM: kept only when valid and inventing no operation."""

from __future__ import annotations

import json

from openapi_rag.crawl.repair import repair_document
from openapi_rag.crawl.validate import validation_findings
from tests.llm.doubles import ScriptedLLM

BROKEN = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "crawled"},
    "paths": {"/pets": {"get": {"parameters": [{"name": "limit", "in": "somewhere"}], "responses": {}}}},
}
FIXED = {
    "openapi": "3.0.3",
    "info": {"title": "Pets", "version": "crawled"},
    "paths": {
        "/pets": {
            "get": {
                "parameters": [{"name": "limit", "in": "query", "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "The pets"}},
            }
        }
    },
}
INVENTED = {
    **FIXED,
    "paths": {**FIXED["paths"], "/admin": {"delete": {"responses": {"200": {"description": "x"}}}}},
}


def test_repair_keeps_a_valid_reply_that_invents_nothing() -> None:
    findings = validation_findings(BROKEN)
    assert findings
    llm = ScriptedLLM(
        ["```json\n" + json.dumps(INVENTED) + "\n```", "```json\n" + json.dumps(FIXED) + "\n```"]
    )
    document, left, calls = repair_document(BROKEN, findings, llm)
    assert (document, left, calls) == (FIXED, [], 2)
    assert "added operations" in llm.calls[1]["messages"][-1]["content"]


def test_repair_gives_the_input_back_when_no_try_validates() -> None:
    findings = validation_findings(BROKEN)
    document, left, calls = repair_document(BROKEN, findings, ScriptedLLM(["not json", "still not"]))
    assert document is BROKEN and left == findings and calls == 2


def test_no_findings_no_calls() -> None:
    llm = ScriptedLLM([])
    assert repair_document(FIXED, [], llm) == (FIXED, [], 0)


def test_validation_never_follows_a_ref_out_of_the_document(tmp_path) -> None:
    secret = tmp_path / "secret.json"
    secret.write_text('{"type": "string"}')
    document = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": secret.as_uri()}}},
                        }
                    }
                }
            }
        },
    }
    findings = validation_findings(document)
    assert findings and "never fetched" in findings[0]
