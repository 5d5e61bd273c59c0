from __future__ import annotations

import pytest

from openapi_rag.convert.infer import MAX_ARRAY_SAMPLE, infer_schema, merge_schemas
from openapi_rag.convert.postman_body import parse_json_example

STRING = {"type": "string"}


@pytest.mark.parametrize(
    ("value", "schema"),
    [
        (None, {"nullable": True}),
        (True, {"type": "boolean"}),
        (3, {"type": "integer"}),
        (3.5, {"type": "number"}),
        ("x", STRING),
        ("2024-01-02", {"type": "string", "format": "date"}),
        ("2024-01-02T03:04:05.123+02:00", {"type": "string", "format": "date-time"}),
        ("123e4567-e89b-12d3-a456-426614174000", {"type": "string", "format": "uuid"}),
        ("a@b.io", {"type": "string", "format": "email"}),
        ({}, {"type": "object"}),
        ([], {"type": "array", "items": {}}),
        ([1, 2.5], {"type": "array", "items": {"type": "number"}}),
        ([None, "a"], {"type": "array", "items": {"type": "string", "nullable": True}}),
        (
            [1, "a", True],
            {"type": "array", "items": {"oneOf": [{"type": "integer"}, STRING, {"type": "boolean"}]}},
        ),
        (
            [{"a": 1}, {"b": [1]}, {"a": None}],
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "a": {"type": "integer", "nullable": True},
                        "b": {"type": "array", "items": {"type": "integer"}},
                    },
                },
            },
        ),
        ([[], [1]], {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}),
        (["2024-01-02", "x"], {"type": "array", "items": STRING}),
    ],
)
def test_infer_schema(value, schema):
    assert infer_schema(value) == schema


def test_array_sample_is_bounded():
    value = [1] * MAX_ARRAY_SAMPLE + ["late string"]
    assert infer_schema(value) == {"type": "array", "items": {"type": "integer"}}


def test_deep_nesting_stops():
    value: list = []
    for _ in range(100):
        value = [value]
    schema = infer_schema(value)
    depth = 0
    while schema.get("items"):
        schema, depth = schema["items"], depth + 1
    assert depth <= 34


def test_merge_keeps_descriptions_and_flags():
    a = {"type": "string", "description": "first", "x-postman-disabled": True}
    assert merge_schemas(a, {"type": "string", "description": "second", "format": "date"}) == a
    b = {"type": "integer", "description": "second"}
    assert merge_schemas(a, b) == {"oneOf": [a, b]}


def test_merge_nullable_oneof():
    assert merge_schemas({"oneOf": [STRING, {"type": "integer"}]}, {"nullable": True}) == {
        "oneOf": [STRING, {"type": "integer"}],
        "nullable": True,
    }


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": 1}', {"a": 1}),
        ('{"a": {{num}}, "b": [{{x}}, 2]}', {"a": "{{num}}", "b": ["{{x}}", 2]}),
        ('{\n  // note\n  "u": "http://x.io/*not*/a" /* c */\n}', {"u": "http://x.io/*not*/a"}),
        ('{"q": "say \\"hi\\" // not a comment"}', {"q": 'say "hi" // not a comment'}),
    ],
)
def test_parse_json_example(text, value):
    assert parse_json_example(text) == (True, value)


def test_parse_json_example_failure():
    assert parse_json_example('{"a": ') == (False, None)
