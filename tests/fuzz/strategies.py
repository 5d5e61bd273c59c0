"""Hypothesis strategies for hostile API descriptions: JSON-like values, specs with `$ref`s of every
kind, YAML with anchors and aliases, and Postman-collection-like objects."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

METHODS = ["get", "put", "post", "delete", "patch", "GET", "fetch", "parameters", "x-extra"]
KEYS = ["type", "properties", "items", "allOf", "oneOf", "description", "required", "schema", "content",
        "responses", "parameters", "name", "in", "$ref", "paths", "components", "schemas", "enum"]
REFS = [
    "#/components/schemas/A", "#/components/schemas/B", "#/components/schemas/missing", "#/paths",
    "#", "#/components/responses/R", "other.yaml", "other.yaml#/A", "sub/frag.json#/x", "../outside.yaml",
    "/etc/passwd", "file:///etc/passwd", "http://127.0.0.1:9/x.yaml", "//host/x", "#/components/schemas/A~1b",
    "nope.yaml#/deep/er", "link.yaml", "a\x00b.yaml",
]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12), st.sampled_from(REFS),
)
keys = st.one_of(st.sampled_from(KEYS + METHODS), st.text(max_size=6))


def json_values(max_leaves: int = 30) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(keys, inner, max_size=5),
            st.builds(lambda ref, extra: {"$ref": ref, **extra}, st.sampled_from(REFS),
                      st.dictionaries(st.sampled_from(KEYS), inner, max_size=2)),
        ),
        max_leaves=max_leaves,
    )


@st.composite
def specs(draw: st.DrawFn) -> dict[str, Any]:
    """An OpenAPI-shaped document with arbitrary, often broken, insides."""
    operation = st.one_of(
        json_values(10),
        st.fixed_dictionaries(
            {"responses": st.dictionaries(st.sampled_from(["200", "404", "default"]), json_values(8), max_size=2)},
            optional={"parameters": json_values(6), "requestBody": json_values(8), "summary": st.text(max_size=20)},
        ),
    )
    paths = draw(st.dictionaries(st.text(min_size=1, max_size=8).map(lambda p: "/" + p),
                                 st.dictionaries(st.sampled_from(METHODS), operation, max_size=3), max_size=3))
    doc: dict[str, Any] = {
        "openapi": draw(st.sampled_from(["3.0.3", "3.1.0"])),
        "info": {"title": draw(st.text(max_size=10)), "version": "1"},
        "paths": paths,
    }
    if draw(st.booleans()):
        doc["components"] = {
            "schemas": draw(st.dictionaries(st.sampled_from(["A", "B", "C", "A/b"]), json_values(12), max_size=4)),
            "responses": {"R": draw(json_values(6))},
        }
    return doc


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """YAML with anchors, aliases (nested, repeated, merged) and odd scalars."""
    lines = ["openapi: 3.0.3", "info: {title: t, version: '1'}", "paths: {}"]
    anchors: list[str] = []
    for i in range(draw(st.integers(0, 6))):
        items = draw(st.lists(st.one_of(st.sampled_from(["1", "x", "null", "on", "200", "'a'"]),
                                        st.sampled_from([f"*{a}" for a in anchors] or ["1"])), max_size=6))
        style = draw(st.sampled_from(["list", "map", "merge"]))
        if style == "list":
            lines.append(f"x-{i}: &a{i} [{', '.join(items)}]")
        elif style == "map":
            lines.append(f"x-{i}: &a{i} {{{', '.join(f'k{j}: {v}' for j, v in enumerate(items))}}}")
        elif anchors:
            lines.append(f"x-{i}: &a{i} {{<<: *{draw(st.sampled_from(anchors))}, k0: 1}}")
        else:
            continue
        anchors.append(f"a{i}")
    text = "\n".join(lines) + "\n"
    cut = draw(st.integers(0, len(text)))
    return text if draw(st.booleans()) else text[:cut] + draw(st.text(max_size=5)) + text[cut:]


postman_urls = st.one_of(
    st.text(max_size=20), st.sampled_from(["{{base}}/x/:id", "{{a}}{{a}}/y", "https://h/{{v}}?q={{a}}", ""]),
    st.fixed_dictionaries({"raw": st.text(max_size=10)},
                          optional={"host": json_values(3), "path": json_values(4), "query": json_values(4),
                                    "variable": json_values(4)}),
    json_values(4),
)


def postman_items(depth: int = 3) -> st.SearchStrategy[Any]:
    request = st.one_of(
        st.fixed_dictionaries(
            {"method": st.sampled_from(["GET", "POST", "FOO", ""]), "url": postman_urls},
            optional={"header": json_values(4), "body": json_values(6), "auth": json_values(4),
                      "description": json_values(3)},
        ),
        st.text(max_size=10),
    )
    leaf = st.fixed_dictionaries({"name": st.text(max_size=8), "request": request},
                                 optional={"response": json_values(5)})
    return st.recursive(
        st.one_of(leaf, json_values(3)),
        lambda inner: st.fixed_dictionaries({"name": st.text(max_size=5), "item": st.lists(inner, max_size=3)},
                                            optional={"auth": json_values(3)}),
        max_leaves=8,
    )


@st.composite
def postman_collections(draw: st.DrawFn) -> dict[str, Any]:
    variables = draw(st.lists(st.fixed_dictionaries(
        {"key": st.sampled_from(["a", "base", "v", "id"]),
         "value": st.one_of(st.sampled_from(["{{a}}{{a}}", "{{base}}", "https://api.test", "{{v}}x"]), scalars)}),
        max_size=4))
    return {
        "info": {"name": draw(st.text(max_size=8)),
                 "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
        "variable": variables,
        "item": draw(st.lists(postman_items(), max_size=4)),
        **({"auth": draw(json_values(4))} if draw(st.booleans()) else {}),
    }
