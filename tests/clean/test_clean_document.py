"""The document steps, the walk that decides which strings text steps see, and the token report."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from openapi_rag.clean import (
    CLEAN_STEPS,
    clean_document,
    count_tokens_simple,
    drop_error_responses,
    drop_examples,
    drop_success_headers,
)


def _spec() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "Pets", "version": "1.0", "description": "The **pet** store."},
        "servers": [{"url": "https://bit.ly/pets", "description": "see https://bit.ly/x"}],
        "paths": {
            "/pets/{petId}": {
                "get": {
                    "operationId": "get_pet_by__id__",
                    "summary": "Get a <b>pet</b>",
                    "parameters": [
                        {
                            "name": "petId",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "string", "pattern": "^[a-z_]+_*$", "format": "**id**"},
                            "example": "rex",
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "The pet",
                            "headers": {"X-Rate-Limit": {"schema": {"type": "integer"}}},
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Pet_*x*"},
                                    "examples": {"rex": {"summary": "Rex", "value": {"name": "Rex"}}},
                                }
                            },
                        },
                        404: {"description": "Not found"},
                        "5XX": {"description": "Server error"},
                        "default": {"description": "Unexpected error"},
                    },
                },
                "delete": {
                    "responses": {"default": {"description": "Deleted"}, "400": {"description": "Bad"}}
                },
            }
        },
        "components": {
            "schemas": {
                "Pet_*x*": {
                    "type": "object",
                    "required": ["*name*"],
                    "properties": {
                        "example": {"type": "string", "description": "a property *named* example"},
                        "format": {"type": "string", "enum": ["**a**", "<b>b</b>"], "default": "_c_"},
                        "name": {"type": "string", "example": "Rex", "examples": ["Rex", "Fido"]},
                    },
                    "example": {"example": "x", "name": "Rex"},
                }
            },
            "examples": {"pet": {"value": {"name": "Rex"}}},
        },
        "x-note": "**extension** text",
    }


def test_errors_drops_4xx_5xx_and_default_when_a_success_exists() -> None:
    doc = _spec()
    removed = drop_error_responses(doc)
    assert list(doc["paths"]["/pets/{petId}"]["get"]["responses"]) == ["200"]
    # No success declared: `default` is the success response and stays.
    assert list(doc["paths"]["/pets/{petId}"]["delete"]["responses"]) == ["default"]
    assert removed == [
        '"404":{"description":"Not found"}',
        '"5XX":{"description":"Server error"}',
        '"default":{"description":"Unexpected error"}',
        '"400":{"description":"Bad"}',
    ]


def test_headers_drops_only_2xx_headers() -> None:
    doc = _spec()
    doc["paths"]["/pets/{petId}"]["get"]["responses"][404]["headers"] = {"X-Trace": {"description": "t"}}
    removed = drop_success_headers(doc)
    responses = doc["paths"]["/pets/{petId}"]["get"]["responses"]
    assert "headers" not in responses["200"]
    assert responses[404]["headers"] == {"X-Trace": {"description": "t"}}
    assert removed == ['"headers":{"X-Rate-Limit":{"schema":{"type":"integer"}}}']


def test_examples_drops_values_but_not_properties_named_example() -> None:
    doc = _spec()
    drop_examples(doc)
    op = doc["paths"]["/pets/{petId}"]["get"]
    assert "example" not in op["parameters"][0]
    assert "examples" not in op["responses"]["200"]["content"]["application/json"]
    pet = doc["components"]["schemas"]["Pet_*x*"]
    assert "example" not in pet
    assert pet["properties"]["name"] == {"type": "string"}
    assert pet["properties"]["example"] == {"type": "string", "description": "a property *named* example"}
    assert "examples" not in doc["components"]


def test_examples_in_callbacks_and_webhooks() -> None:
    op = {"requestBody": {"content": {"application/json": {"example": {"a": 1}}}}, "responses": {}}
    doc = {
        "webhooks": {"newPet": {"post": copy.deepcopy(op)}},
        "paths": {
            "/s": {"post": {"callbacks": {"cb": {"{$request.body#/url}": {"post": copy.deepcopy(op)}}}}}
        },
    }
    assert len(drop_examples(doc)) == 2
    assert "example" not in json.dumps(doc)


def test_text_steps_skip_keys_refs_names_enums_patterns_and_structural_urls() -> None:
    cleaned, _ = clean_document(_spec(), ["html", "markdown", "urls"])
    op = cleaned["paths"]["/pets/{petId}"]["get"]
    pet = cleaned["components"]["schemas"]["Pet_*x*"]
    # cleaned prose
    assert cleaned["info"]["description"] == "The pet store."
    assert op["summary"] == "Get a pet"
    assert cleaned["servers"][0]["description"] == "see"
    assert pet["properties"]["example"]["description"] == "a property named example"
    assert cleaned["x-note"] == "extension text"
    # untouched identifiers and data
    assert cleaned["servers"][0]["url"] == "https://bit.ly/pets"
    assert op["operationId"] == "get_pet_by__id__"
    assert op["parameters"][0]["schema"] == {"type": "string", "pattern": "^[a-z_]+_*$", "format": "**id**"}
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Pet_*x*"
    }
    assert pet["required"] == ["*name*"]
    assert pet["properties"]["format"] == {"type": "string", "enum": ["**a**", "<b>b</b>"], "default": "_c_"}


def test_clean_document_does_not_mutate_its_input() -> None:
    doc = _spec()
    before = copy.deepcopy(doc)
    cleaned, _ = clean_document(doc, list(CLEAN_STEPS))
    assert doc == before
    assert cleaned != doc
    cleaned["components"]["schemas"]["Pet_*x*"]["type"] = "changed"
    assert doc == before  # nothing shared with the input


def test_report_is_the_difference_of_whole_dumps_per_step() -> None:
    doc = _spec()
    cleaned, removed = clean_document(doc, list(CLEAN_STEPS))
    assert list(removed) == ["errors", "headers", "examples", "base64", "html", "markdown", "urls"]
    assert removed["base64"] == 0
    # Re-run step by step and count whole compact dumps: the report must match exactly for the
    # default counter, since every piece is bounded by punctuation.
    dump = lambda d: json.dumps(d, ensure_ascii=False, separators=(",", ":"))  # noqa: E731
    previous = count_tokens_simple(dump(doc))
    for i, name in enumerate(CLEAN_STEPS):
        partial, _ = clean_document(doc, list(CLEAN_STEPS)[: i + 1])
        now = count_tokens_simple(dump(partial))
        assert removed[name] == previous - now, name
        previous = now
    assert partial == cleaned


def test_custom_counter_and_url_deny() -> None:
    calls: list[str] = []

    def counter(text: str) -> int:
        calls.append(text)
        return len(text)

    cleaned, removed = clean_document(_spec(), ["urls"], counter, url_deny="all")
    assert cleaned["servers"][0]["description"] == "see"
    assert removed == {"urls": len('"see https://bit.ly/x"') - len('"see"')}
    assert calls


def test_steps_run_in_registry_order_whatever_the_given_order() -> None:
    _, removed = clean_document(_spec(), ["urls", "errors", "default"])
    assert list(removed) == ["errors", "examples", "base64", "html", "markdown", "urls"]


@pytest.mark.parametrize("steps", [["nope"], ["html", "-urls"]])
def test_unknown_step_lists_valid_names(steps: list[str]) -> None:
    with pytest.raises(
        ValueError, match="Valid steps: errors, headers, examples, base64, html, markdown, urls"
    ):
        clean_document(_spec(), steps)


def test_no_steps_returns_a_copy() -> None:
    doc = _spec()
    cleaned, removed = clean_document(doc, [])
    assert cleaned == doc and cleaned is not doc
    assert removed == {}


def test_yaml_aliases_are_cleaned_once_and_stay_shared() -> None:
    shared = {"description": "**shared**"}
    doc = {
        "paths": {
            "/a": {"get": {"responses": {"200": shared}}},
            "/b": {"get": {"responses": {"200": shared}}},
        }
    }
    cleaned, removed = clean_document(doc, ["markdown"])
    a = cleaned["paths"]["/a"]["get"]["responses"]["200"]
    assert a is cleaned["paths"]["/b"]["get"]["responses"]["200"]
    assert a["description"] == "shared"
    assert shared["description"] == "**shared**"
    assert removed["markdown"] == 4
