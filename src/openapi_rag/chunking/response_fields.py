"""The field names an operation's success response returns: what it *produces*.

A task often names what it wants to read ("the birthday of ...", "how many seasons ...") and not
the operation that returns it: `GET /person/{person_id}` says "Get the primary person details by
id" while its response holds `birthday`; `GET /tv/{tv_id}` holds `number_of_seasons`. The names
of the response's properties, walked through `$ref`s, arrays and `allOf`/`oneOf`/`anyOf` to a small
depth, let search match such tasks. Cycles end at the first repeat of a schema.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.model import SCHEMA_REF_PREFIX, Operation, Service

__all__ = ["request_fields", "response_fields"]

MAX_DEPTH = 1
"""Object levels walked: 1 = the top-level properties (nested ones, depth 2, made RestBench and
SOCBench-D recall worse: `id`, `name` and `type` of every nested object match everything)."""
MAX_FIELDS = 25
"""At most this many names per operation: long payloads would drown the operation's own words."""

_COMBINERS = ("allOf", "oneOf", "anyOf")
ENVELOPE = "data"
"""The property an envelope response carries its payload in (`{"status": ..., "data": {...}}`,
JSON:API and many unified APIs): with `unwrap`, its fields are named instead of the envelope's,
which are the same for every operation of such an API and say nothing about any one of them."""


def success_responses(op: Operation) -> list[Any]:
    """The 2xx responses, else the `default` one."""
    ok = [response for code, response in op.responses.items() if str(code).startswith("2")]
    if not ok and "default" in op.responses:
        ok = [op.responses["default"]]
    return ok


def response_fields(
    service: Service,
    op: Operation,
    *,
    max_depth: int = MAX_DEPTH,
    limit: int = MAX_FIELDS,
    unwrap: bool = False,
) -> list[str]:
    """Distinct property names of `op`'s success response bodies, breadth first.

    Example:
        For TMDB's `GET /tv/{tv_id}`: ["backdrop_path", "created_by", "episode_run_time",
        "first_air_date", "genres", ..., "number_of_seasons", ...].
    """
    level = [schema for response in success_responses(op) for schema in _media_schemas(response)]
    if unwrap:
        level = [_payload(service, node) for node in level]
    return _property_names(service, level, max_depth, limit)


def request_fields(service: Service, op: Operation, *, limit: int = MAX_FIELDS) -> list[str]:
    """Distinct top-level property names of `op`'s request body: what it *takes*.

    A create or update names what it makes by the fields it is sent (Trello's `POST /cards`,
    summarised "addCards()", takes `name, desc, due, idList`).
    """
    return _property_names(service, _media_schemas(op.request_body), MAX_DEPTH, limit, sent=True)


def _media_schemas(holder: Any) -> list[Any]:
    """The schemas of a response or request body object's media types."""
    content = holder.get("content") if isinstance(holder, dict) else None
    return (
        [m.get("schema") for m in content.values() if isinstance(m, dict)]
        if isinstance(content, dict)
        else []
    )


def _property_names(
    service: Service, level: list[Any], max_depth: int, limit: int, *, sent: bool = False
) -> list[str]:
    """Property names of the object schemas in `level` and below, breadth first; cycles end at a
    schema's first repeat. `sent`: a request's, so `readOnly` properties (never sent) are left out."""
    names: dict[str, None] = {}
    seen: set[str] = set()
    for _ in range(max_depth):
        following: list[Any] = []
        for node in level:
            for schema in _objects(service, node, seen):
                properties = schema.get("properties")
                for name, child in properties.items() if isinstance(properties, dict) else ():
                    if sent and isinstance(child, dict) and child.get("readOnly") is True:
                        continue
                    names.setdefault(str(name), None)
                    following.append(child)
                    if len(names) >= limit:
                        return list(names)
        level = following
    return list(names)


def _payload(service: Service, node: Any) -> Any:
    """The schema of `node`'s envelope property when `node` is an envelope, else `node`."""
    for schema in _objects(service, node, set()):
        properties = schema.get("properties")
        payload = properties.get(ENVELOPE) if isinstance(properties, dict) else None
        if payload is not None and any(o.get("properties") for o in _objects(service, payload, set())):
            return payload
    return node


def _objects(service: Service, node: Any, seen: set[str]) -> list[dict[str, Any]]:
    """The object schemas `node` stands for: refs followed, array items and combiners opened."""
    out: list[dict[str, Any]] = []
    stack = [node]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.removeprefix(SCHEMA_REF_PREFIX)
            if ref.startswith(SCHEMA_REF_PREFIX) and name not in seen and name in service.schemas:
                seen.add(name)
                stack.append(service.schemas[name].schema)
            continue
        if isinstance(node.get("properties"), dict):
            out.append(node)
        if isinstance(node.get("items"), dict):
            stack.append(node["items"])
        for key in _COMBINERS:
            if isinstance(node.get(key), list):
                stack.extend(reversed(node[key]))
    return out
