"""A response body for a mock answer: the description's own example first, else one built from the schema.

Built values are bounded (depth, list length, property count) so a cyclic or huge response schema
never makes a big answer; the schema is read after `$ref`s were inlined to a fixed depth.
"""

from __future__ import annotations

from typing import Any

__all__ = ["example_body", "sample_value"]

MAX_DEPTH = 5
MAX_PROPERTIES = 30
FORMAT_SAMPLES = {
    "date": "2024-01-01",
    "date-time": "2024-01-01T00:00:00Z",
    "email": "user@example.com",
    "uri": "https://example.com/resource",
    "url": "https://example.com/resource",
    "uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6",
    "ipv4": "192.0.2.1",
    "hostname": "example.com",
}


def example_body(media: dict[str, Any]) -> Any:
    """The example a media type object shows (`example`, first of `examples`, the schema's), or a sample."""
    if not isinstance(media, dict):
        return None
    if "example" in media:
        return media["example"]
    examples = media.get("examples")
    if isinstance(examples, dict):
        for example in examples.values():
            if isinstance(example, dict) and "value" in example:
                return example["value"]
    schema = media.get("schema")
    return sample_value(schema) if isinstance(schema, dict) else None


def sample_value(schema: Any, depth: int = 0) -> Any:
    """A value valid for `schema` as far as a bounded walk can tell."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return None
    for key in ("example", "default", "const"):
        if key in schema:
            return schema[key]
    if isinstance(schema.get("examples"), list) and schema["examples"]:
        return schema["examples"][0]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {}
        for part in schema["allOf"]:
            value = sample_value(part, depth + 1)
            if isinstance(value, dict):
                merged.update(value)
        return merged
    for key in ("oneOf", "anyOf"):
        if isinstance(schema.get(key), list) and schema[key]:
            return sample_value(schema[key][0], depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    if kind is None:
        kind = "object" if "properties" in schema else "array" if "items" in schema else "string"
    if kind == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        return {
            name: sample_value(sub, depth + 1)
            for name, sub in list(props.items())[:MAX_PROPERTIES]
            if not (isinstance(sub, dict) and sub.get("writeOnly") is True)
        }
    if kind == "array":
        item = sample_value(schema.get("items"), depth + 1)
        return [] if item is None else [item]
    if kind == "integer":
        return int(schema.get("minimum", 1) or 1)
    if kind == "number":
        return float(schema.get("minimum", 1.0) or 1.0)
    if kind == "boolean":
        return True
    return FORMAT_SAMPLES.get(str(schema.get("format") or ""), "string")
