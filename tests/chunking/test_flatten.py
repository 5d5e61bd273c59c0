"""JSON flattened to `path.to.key: value` lines."""

from __future__ import annotations

from openapi_rag.chunking.flatten import flatten


def test_flatten_depth_first_one_line_per_leaf() -> None:
    doc = {
        "info": {"title": "T", "description": "Two\nlines  here"},
        "tags": [],
        "paths": {"/a": {"get": {"parameters": [{"name": "id", "required": True}], "x": None, "n": 3}}},
        "e": {},
        "s": "",
    }
    assert flatten(doc) == [
        "info.title: T",
        "info.description: Two lines here",
        "tags: []",
        "paths./a.get.parameters.0.name: id",
        "paths./a.get.parameters.0.required: true",
        "paths./a.get.x: null",
        "paths./a.get.n: 3",
        "e: {}",
        "s:",
    ]
    assert flatten({"a": 1}, "op") == ["op.a: 1"]


def test_flatten_survives_deep_nesting() -> None:
    node: dict = {"leaf": 1}
    for _ in range(3000):
        node = {"k": node}
    (line,) = flatten(node)
    assert line.endswith("k.leaf: 1") and line.count("k.") == 3000
