"""Schemas as readable text: depth, cycles, composition."""

from __future__ import annotations

from openapi_rag.chunking.render import SchemaRenderer, first_sentence, sentences
from openapi_rag.model import Schema


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def schemas(**bodies) -> dict[str, Schema]:
    return {name: Schema(name=name, schema=body) for name, body in bodies.items()}


TREE = schemas(
    Node={
        "type": "object",
        "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": ref("Node")}},
    },
    A={"type": "object", "properties": {"b": ref("B")}},
    B={"type": "object", "properties": {"a": ref("A"), "n": {"type": "integer", "format": "int64"}}},
)


def test_self_reference_stops_at_the_first_repeat_whatever_the_depth() -> None:
    text = SchemaRenderer(TREE, depth=50).top(ref("Node"))
    assert text == "Node (object) — name: string, children: array of Node (recursive)"


def test_mutual_cycle_is_named_where_it_closes() -> None:
    assert SchemaRenderer(TREE, depth=50).top(ref("A")) == (
        "A (object) — b: B (object) {a: A (recursive), n: integer (int64)}"
    )


def test_depth_limits_expansion() -> None:
    assert SchemaRenderer(TREE, depth=1).top(ref("A")) == "A (object) — b: B (see schema)"
    assert SchemaRenderer(TREE, depth=0).top(ref("A")) == "A (see schema)"
    assert (
        SchemaRenderer(TREE, depth=0).top({"type": "array", "items": ref("A")}) == "array of A (see schema)"
    )


def test_unknown_and_dangling_references_are_named() -> None:
    r = SchemaRenderer(TREE)
    assert r.inline(ref("Missing")) == "Missing (unresolved)"
    assert r.inline({"x-dangling-ref": "other.yaml#/X"}) == "other.yaml#/X (unresolved)"


def test_all_of_merges_properties_and_one_of_lists_alternatives() -> None:
    base = schemas(
        Base={"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
        Cat={"type": "object", "properties": {"meows": {"type": "boolean"}}},
        Dog={"type": "object", "properties": {"barks": {"type": "boolean"}}},
    )
    r = SchemaRenderer(base, depth=2)
    merged = {"allOf": [ref("Base"), {"properties": {"name": {"type": "string"}}, "required": ["name"]}]}
    assert r.top(merged) == "object — id: string, name: string, required: id, name"
    assert r.top({"oneOf": [ref("Cat"), ref("Dog")]}) == (
        "one of — Cat (object) {meows: boolean}, Dog (object) {barks: boolean}"
    )
    # `allOf: [X]` beside a description stands for X.
    assert r.inline({"allOf": [ref("Cat")], "description": "the cat"}) == "Cat (object) {meows: boolean}"


def test_scalars_enums_maps_and_31_types() -> None:
    r = SchemaRenderer({})
    assert r.inline({"type": "string", "format": "date"}) == "string (date)"
    assert (
        r.inline({"type": "string", "enum": list("abcdefghij")})
        == "string [a | b | c | d | e | f | g | h | …]"
    )
    assert r.inline({"type": ["string", "null"]}) == "string"
    assert r.inline({"type": "object", "additionalProperties": {"type": "integer"}}) == "map of integer"
    assert r.inline({}) == "any"
    assert r.inline(True) == "any"
    assert r.inline({"enum": [1, 2]}) == "integer [1 | 2]"


def test_deep_inline_objects_are_elided() -> None:
    node: dict = {"type": "string"}
    for i in range(12):
        node = {"type": "object", "properties": {f"p{i}": node}}
    text = SchemaRenderer({}).inline(node)
    assert "…" in text and text.count("{") <= 8


def test_fields_of_an_object_with_descriptions() -> None:
    body = {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string", "description": "The id."},
            "b": {**ref("B"), "description": "A B."},
        },
    }
    label, fields, extras = SchemaRenderer(TREE, depth=0).fields(body)
    assert label == "object" and extras == []
    assert [(f.name, f.type, f.required, f.description) for f in fields] == [
        ("id", "string", True, "The id."),
        ("b", "B (see schema)", False, "A B."),
    ]
    assert SchemaRenderer(TREE).fields({"type": "string"}) is None


def test_sentences() -> None:
    assert sentences("One. Two!  Three?\nfour") == ["One.", "Two!", "Three? four"]
    assert first_sentence("Bad request. Try again.") == "Bad request"
    assert first_sentence("x" * 200, max_chars=10) == "xxxxxxxxx…"


def test_a_result_without_summary_shows_its_description_then_its_operation_id() -> None:
    from openapi_rag.chunking.render import short_description
    from openapi_rag.model import Operation

    base = dict(service="slack", method="POST", path="/chat.postMessage", operation_id="chat_postMessage")
    assert short_description(Operation(**base, summary="Post\n")) == "Post\n"
    assert short_description(Operation(**base, description="Sends a message to a channel. More.")) == (
        "Sends a message to a channel"
    )
    assert short_description(Operation(**base)) == "chat post message"
    html = Operation(**base, description="Searches for issues using JQL. <p> <b>Sorting</b> is done.")
    assert short_description(html) == "Searches for issues using JQL"
