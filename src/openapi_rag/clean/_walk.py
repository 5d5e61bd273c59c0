"""What the cleaning steps need to know about the shape of an OpenAPI 3 document.

A dict in a description is one of three things, and the steps must tell them apart:

* an *object* whose keys are keywords (`description`, `type`, `example`, ...);
* a *name map* whose keys are names chosen by the author (`properties`, `paths`, `responses`,
  `content`, `components.schemas`, ...): a property called `example` or `format` is not a keyword;
* *data* (`example`, `examples`, `default`, `enum`, `x-*` extensions) whose keys mean nothing to OpenAPI.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from openapi_rag.model import HTTP_METHODS

# Keywords whose value maps author-chosen names to objects (or strings).
NAME_MAP_KEYS = frozenset(
    {
        "paths",
        "webhooks",
        "properties",
        "patternProperties",
        "dependentSchemas",
        "definitions",
        "$defs",
        "schemas",
        "responses",
        "parameters",  # components.parameters (an operation's parameters are a list)
        "requestBodies",
        "headers",
        "securitySchemes",
        "links",
        "callbacks",
        "pathItems",
        "content",
        "encoding",
        "variables",
        "scopes",
        "additionalOperations",
    }
)

# Values that are machine-read identifiers or data, never prose: text steps leave them whole.
KEEP_KEYS = frozenset(
    {
        "$ref",
        "$id",
        "$schema",
        "$anchor",
        "$dynamicRef",
        "$dynamicAnchor",
        "openapi",
        "swagger",
        # Swagger 2 leftovers, in case a converter keeps them: media types and hosts, not prose.
        "consumes",
        "produces",
        "schemes",
        "host",
        "basePath",
        "jsonSchemaDialect",
        "operationId",
        "operationRef",
        "name",
        "in",
        "type",
        "format",
        "pattern",
        "enum",
        "const",
        "default",
        "required",
        "style",
        "mapping",
        "propertyName",
        "security",
        "scheme",
        "bearerFormat",
        "contentType",
        "contentEncoding",
        "contentMediaType",
        # Structural URLs: removing them would break the document, not shorten prose.
        "url",
        "termsOfService",
        "authorizationUrl",
        "tokenUrl",
        "refreshUrl",
        "openIdConnectUrl",
    }
)

# Keywords whose value is example data: every string in it is text, no key in it is a keyword.
EXAMPLE_KEYS = frozenset({"example", "examples"})


def is_extension(key: object) -> bool:
    return isinstance(key, str) and key.startswith("x-")


def copy_tree(node: Any) -> Any:
    """A structural copy of dicts and lists (scalars are immutable and shared).

    Several times faster than `copy.deepcopy`; YAML aliases stay shared, as deepcopy would keep them.
    """
    memo: dict[int, Any] = {}

    def copy(value: Any) -> Any:
        if isinstance(value, dict):
            done = memo.get(id(value))
            if done is None:
                done = memo[id(value)] = {}
                for k, v in value.items():
                    done[k] = copy(v) if isinstance(v, (dict, list)) else v
            return done
        if isinstance(value, list):
            done = memo.get(id(value))
            if done is None:
                done = memo[id(value)] = [copy(v) if isinstance(v, (dict, list)) else v for v in value]
            return done
        return value

    return copy(node)


def dump(value: Any) -> str:
    """Compact JSON, as the token report measures it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def dump_member(key: Any, value: Any) -> str:
    """`"key":value` as it appears in the compact JSON of the enclosing object."""
    return dump({key: value})[1:-1]


def map_strings(doc: Any, fn: Callable[[str], str]) -> None:
    """Replace, in place, every prose or example string of `doc` by `fn(string)`.

    Keys are never touched, nor the values of `KEEP_KEYS` keywords (identifiers, `$ref`s, enum
    values, patterns, structural URLs). `fn` should return its argument unchanged (the same object)
    when it has nothing to do, which keeps the walk cheap.
    """
    seen: set[int] = set()  # YAML aliases: clean a shared node once

    def in_list(items: list[Any], mode: str) -> None:
        for i, v in enumerate(items):
            if isinstance(v, str):
                new = fn(v)
                if new is not v:
                    items[i] = new
            elif isinstance(v, dict):
                visit(v, mode)
            elif isinstance(v, list):
                in_list(v, mode)

    def visit(node: dict[Any, Any], mode: str) -> None:
        if id(node) in seen:
            return
        seen.add(id(node))
        for k, v in node.items():
            if mode == "object":
                if k in KEEP_KEYS:
                    continue
                if k in EXAMPLE_KEYS or is_extension(k):
                    child = "data"
                elif k in NAME_MAP_KEYS and isinstance(v, dict):
                    child = "names"
                elif k == "tags" and isinstance(v, list):
                    # An operation's tags are names; the root's are objects with descriptions.
                    for tag in v:
                        if isinstance(tag, dict):
                            visit(tag, "object")
                    continue
                else:
                    child = "object"
            elif mode == "names":
                child = "object"
            else:
                child = "data"
            if isinstance(v, str):
                new = fn(v)
                if new is not v:
                    node[k] = new  # replacing a value while iterating is safe: keys do not change
            elif isinstance(v, dict):
                visit(v, child)
            elif isinstance(v, list):
                in_list(v, child)

    if isinstance(doc, dict):
        visit(doc, "object")


def iter_path_items(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every path item: `paths`, `webhooks`, `components.pathItems`, and callbacks, at any depth."""
    stack: list[Any] = []
    for key in ("paths", "webhooks"):
        if isinstance(doc.get(key), dict):
            stack.extend(doc[key].values())
    components = doc.get("components")
    if isinstance(components, dict):
        if isinstance(components.get("pathItems"), dict):
            stack.extend(components["pathItems"].values())
        if isinstance(components.get("callbacks"), dict):
            for callback in components["callbacks"].values():
                if isinstance(callback, dict):
                    stack.extend(callback.values())
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if not isinstance(item, dict) or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        for op in _item_operations(item):
            callbacks = op.get("callbacks")
            if isinstance(callbacks, dict):
                for callback in callbacks.values():
                    if isinstance(callback, dict):
                        stack.extend(callback.values())


def _item_operations(item: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for method in HTTP_METHODS:
        op = item.get(method)
        if isinstance(op, dict):
            yield op
    extra = item.get("additionalOperations")  # OpenAPI 3.2: custom methods
    if isinstance(extra, dict):
        yield from (op for op in extra.values() if isinstance(op, dict))


def iter_operations(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every operation object of the document, callbacks and webhooks included."""
    seen: set[int] = set()
    for item in iter_path_items(doc):
        for op in _item_operations(item):
            if id(op) not in seen:
                seen.add(id(op))
                yield op
