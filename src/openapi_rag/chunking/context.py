"""What a description says about an operation outside the operation itself.

Users name what a thing *is* ("remove someone from my server", "a picture from a description");
operations often name only their resource (`DELETE /guilds/{guild_id}/members/{user_id}`:
"delete guild member"). The words that bridge the two are frequently elsewhere in the same
description, written by the API's authors for people:

- the operation's tag description, which says in plain words what a whole group of operations
  is about,
- the description of the resource the operation consumes or produces: its request body's schema
  or, failing that, its success response's schema ("Represents a guild member"; "The image
  generated from a text prompt"), and that schema's name in words.

`operation_context` gathers those sentences for one operation. `compact` embeds the tag's sentence
by default (`embed_context`); the resource's sentence (`embed_resource`) and both in BM25's text
(`context`) are parameters that did not earn a default (README, issue 18). Nothing here is fitted
to one API: every piece is read from the document being indexed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openapi_rag.chunking.render import collapse, humanise, leading_sentence
from openapi_rag.chunking.response_fields import success_responses
from openapi_rag.model import SCHEMA_REF_PREFIX, Operation, Service

__all__ = ["OperationContext", "operation_context", "tag_sentence"]

MAX_SENTENCE = 200
"""Characters kept of one borrowed sentence: a first sentence that runs on is cut, so one long
tag or schema description cannot outweigh the operation's own words."""
MAX_HOPS = 4
"""`$ref`s, array items and single-member combiners followed to reach a resource schema (cycle-safe)."""


@dataclass(frozen=True, slots=True)
class OperationContext:
    """The borrowed sentences of one operation (each possibly empty)."""

    tag: str = ""
    resource: str = ""
    resource_name: str = ""

    def words(self) -> str:
        """All of it on one line, in the order tag, resource name, resource description."""
        return " ".join(part for part in (self.tag, self.resource_name, self.resource) if part)


def tag_sentence(service: Service, op: Operation) -> str:
    """The first sentence of the description of `op`'s first tag that has one ("" when none)."""
    described = {
        str(tag.get("name")): tag.get("description")
        for tag in service.tags
        if isinstance(tag, dict) and tag.get("description")
    }
    for name in op.tags:
        if name in described:
            return _short(described[name])
    return ""


def operation_context(service: Service, op: Operation) -> OperationContext:
    """Tag sentence and resource schema (name in words, first sentence) of `op`."""
    name, description = _resource(service, op)
    return OperationContext(tag=tag_sentence(service, op), resource=description, resource_name=name)


def _short(text: Any) -> str:
    sentence = leading_sentence(collapse(text))
    return sentence if len(sentence) <= MAX_SENTENCE else sentence[: MAX_SENTENCE - 1].rstrip() + "…"


def _resource(service: Service, op: Operation) -> tuple[str, str]:
    """(schema name in words, first sentence of its description) of the resource `op` acts on:
    the request body's schema when it has one, else the first success response's."""
    for node in (*_bodies([op.request_body]), *_bodies(success_responses(op))):
        name, description = _describe(service, node)
        if name or description:
            return name, description
    return "", ""


def _bodies(containers: list[Any]) -> list[Any]:
    """The schemas of the JSON-like media types of request or response objects."""
    out = []
    for container in containers:
        content = container.get("content") if isinstance(container, dict) else None
        for media_type, media in content.items() if isinstance(content, dict) else ():
            if (
                isinstance(media, dict)
                and isinstance(media.get("schema"), dict)
                and "json" in str(media_type)
            ):
                out.append(media["schema"])
                break  # one media type per body: the others describe the same thing
    return out


def _describe(service: Service, node: Any) -> tuple[str, str]:
    """Follow `node` to the schema it stands for: its component name in words and its description's
    first sentence. Arrays stand for their items; a combiner with one member for that member."""
    name = ""
    seen: set[str] = set()
    for _ in range(MAX_HOPS):
        if not isinstance(node, dict):
            break
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMA_REF_PREFIX):
            ref_name = ref.removeprefix(SCHEMA_REF_PREFIX)
            if ref_name in seen or ref_name not in service.schemas:
                break
            seen.add(ref_name)
            name = name or humanise(ref_name)
            node = service.schemas[ref_name].schema
            continue
        if node.get("description"):
            return name, _short(node["description"])
        if isinstance(node.get("items"), dict):
            node = node["items"]
            continue
        members = [node[key] for key in ("allOf", "oneOf", "anyOf") if isinstance(node.get(key), list)]
        if len(members) == 1 and len(members[0]) == 1:
            node = members[0][0]
            continue
        break
    return name, ""
