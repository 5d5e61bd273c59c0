"""Schemas as readable text, for the reference-aware strategies.

A schema becomes a *label* and *items*: `CreateCampaignRequest (object)` and
`["campaign: Campaign (see schema)", "startDate: string (date)", "required: campaign, startDate"]`.
At the top of a block they read `label — item, item`; nested inside another schema they read
`label {item, item}`. Component schemas (`$ref`) are expanded up to `depth` references along any
path; beyond that they are named (`Campaign (see schema)`), and a schema already being expanded
higher up the same path is named as `Campaign (recursive)`, so cycles stay finite.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openapi_rag.model import Operation, Schema
from openapi_rag.refs.inline import ref_name

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(`*\[])")
_IDENTIFIER = re.compile(r"[A-Za-z]\w*(?:[a-z0-9][A-Z]|_)\w*(?:\(\))?|[A-Za-z]\w*\(\)")
"""One token written as code: camelCase or snake_case, or ending in "()"."""
_ANY_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")  # also before markup: "Searches for issues. <p> ..."
MAX_ENUM = 8  # enum values named before "…"
MAX_NESTING = 6  # inline (non-$ref) objects nested deeper than this are elided
# Properties (and oneOf/anyOf alternatives) written per object: the realworld corpus's largest
# object has 203; a hostile one with 100,000 would otherwise cost seconds to render.
MAX_PROPERTIES = 1_000
OPERATION_ID_FOR_SUMMARY = True
"""An operation without a summary is named by its operationId in words. A third of the realworld
corpus's operations have no summary, and nine in ten of those have an operationId, often the only
name they have (Jira's `canMoveSubTask`). RestBench with its summaries and descriptions removed:
R@5 .656 → .707, P@5 .299 → .324 (ablation in the README)."""


def collapse(text: Any) -> str:
    """One line: whitespace runs (newlines included) become single spaces."""
    return " ".join(str(text).split()) if text is not None else ""


def humanise(text: str) -> str:
    """An identifier or path in lower-case words: `getAlbumTracks` -> `get album tracks`,
    `/users/{user_id}/HTTPStatus` -> `users user id http status`."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)  # an acronym before a word
    return " ".join(re.findall(r"[a-z0-9]+", spaced.lower()))


def operation_summary(op: Operation) -> str:
    """`op`'s summary on one line; its operationId in words when it has none
    (`OPERATION_ID_FOR_SUMMARY`). A summary of one word says little: an identifier there (Trello's
    `updateBoardsClosedByIdBoard()`, its operationId copied) is put in words, and a bare word
    (Lob's "Create", "List", "Cancel") is followed by the operationId's words where they say more
    ("Create: postcard create")."""
    summary = collapse(op.summary)
    if not OPERATION_ID_FOR_SUMMARY:
        return summary
    if not summary:
        return humanise(op.operation_id or "")
    if " " in summary:
        return summary
    if _IDENTIFIER.fullmatch(summary):
        return humanise(summary)
    named = humanise(op.operation_id or "")
    more = [w for w in named.split() if w != summary.lower()]
    return f"{summary}: {named}" if more else summary


def short_description(op: Operation) -> str:
    """What a search result shows of `op`: its summary, else its description's first sentence, else
    its operationId in words (Slack's and Jira's operations have no summary)."""
    if collapse(op.summary):
        return op.summary or ""  # as written: the Discovery Agent's prompts show it so
    # descriptions are shown uncleaned, so any end mark ends the sentence
    return first_sentence(leading_sentence(op.description)) or humanise(op.operation_id or "")


def leading_sentence(text: Any) -> str:
    """The first sentence of `text` with whitespace collapsed, ended by any end mark ("" for no text)."""
    return _ANY_SENTENCE_END.split(collapse(text), maxsplit=1)[0]


def sentences(text: str) -> list[str]:
    """`text` as a list of sentences (the split points of a long description)."""
    return [s for s in _SENTENCE_END.split(collapse(text)) if s]


def first_sentence(text: Any, max_chars: int = 100) -> str:
    """The first sentence without its full stop, cut at `max_chars` (for text inside a line)."""
    found = sentences(collapse(text))
    first = found[0].removesuffix(".") if found else ""
    return first if len(first) <= max_chars else first[: max_chars - 1].rstrip() + "…"


@dataclass
class Field:
    """One property of an object schema."""

    name: str
    type: str  # inline rendering of its schema
    required: bool
    description: str


class SchemaRenderer:
    """Renders schema nodes of one service, expanding `$ref`s up to `depth` levels.

    Args:
        schemas: the service's component schemas by name.
        depth: how many schema references to expand along any path (0: name them all).
    """

    def __init__(self, schemas: Mapping[str, Schema], depth: int = 2) -> None:
        self.schemas = schemas
        self.depth = depth

    # ---- public ------------------------------------------------------------------------
    def parts(self, node: Any) -> tuple[str, list[str]]:
        """`(label, items)` of a schema node at the top of a block."""
        return self._parts(node, self.depth, (), 0)

    def inline(self, node: Any) -> str:
        """A schema node on one line, nested objects in braces."""
        return self._inline(node, self.depth, (), 0)

    def top(self, node: Any) -> str:
        """`label — item, item`: a schema node as the rest of a line."""
        label, items = self.parts(node)
        return f"{label} — {', '.join(items)}" if items else label

    def fields(self, node: Any) -> tuple[str, list[Field], list[str]] | None:
        """For an object schema: its label, properties and the items that are not properties.

        None when the node is not an object with properties (an enum, an array, a bare `$ref`).
        """
        name, body, depth, stack, marker = self._deref(node, self.depth, ())
        if marker or not isinstance(body, dict):
            return None
        props, required, extras = self._collect(body, depth, stack, 0)
        if not props:
            return None
        fields = [
            Field(
                name=prop,
                type=self._inline(sub, depth, stack, 1),
                required=prop in required,
                description=_description_of(sub),
            )
            for prop, sub in _capped(props)
        ]
        return self._named(name, "object"), fields, extras

    # ---- internals ---------------------------------------------------------------------
    def _deref(
        self, node: Any, depth: int, stack: tuple[str, ...]
    ) -> tuple[str | None, Any, int, tuple[str, ...], str | None]:
        """Follow a `$ref`: (name, body, depth left, stack, marker); marker names why not expanded."""
        if not isinstance(node, dict):
            return None, node, depth, stack, None
        name = ref_name(node)
        if name is None:
            other = node.get("$ref") or node.get("x-dangling-ref")
            if isinstance(other, str):  # remote or dangling: nothing to expand
                return other, None, depth, stack, "unresolved"
            return None, node, depth, stack, None
        if name not in self.schemas:
            return name, None, depth, stack, "unresolved"
        if name in stack:
            return name, None, depth, stack, "recursive"
        if depth <= 0:
            return name, None, depth, stack, "see schema"
        return name, self.schemas[name].schema, depth - 1, (*stack, name), None

    def _inline(self, node: Any, depth: int, stack: tuple[str, ...], nesting: int) -> str:
        label, items = self._parts(node, depth, stack, nesting)
        return f"{label} {{{', '.join(items)}}}" if items else label

    def _parts(self, node: Any, depth: int, stack: tuple[str, ...], nesting: int) -> tuple[str, list[str]]:
        name, body, depth, stack, marker = self._deref(node, depth, stack)
        if marker:
            return f"{name} ({marker})", []
        if isinstance(body, bool) or body is None:
            return ("any" if body is not False else "nothing"), []
        if not isinstance(body, dict):
            return "any", []
        if nesting > MAX_NESTING:
            return self._named(name, _type_name(body)), ["…"]

        every = body.get("allOf")
        if isinstance(every, list) and len(every) == 1 and not body.get("properties"):
            # `allOf: [X]` is how 3.0 puts a description beside a $ref: it stands for X.
            inner_label, inner_items = self._parts(every[0], depth, stack, nesting)
            return self._named(name, inner_label), inner_items
        for key, word in (("oneOf", "one of"), ("anyOf", "any of")):
            alternatives = body.get(key)
            if isinstance(alternatives, list) and alternatives and not body.get("properties"):
                return self._named(name, word), [
                    self._inline(a, depth, stack, nesting + 1) for a in alternatives[:MAX_PROPERTIES]
                ]

        kind = _type_name(body)
        if kind.startswith("array"):
            inner_label, inner_items = self._parts(body.get("items"), depth, stack, nesting)
            return self._named(name, f"array of {inner_label}"), inner_items
        if kind == "object":
            props, required, extras = self._collect(body, depth, stack, nesting)
            if props or extras:
                items = [f"{p}: {self._inline(s, depth, stack, nesting + 1)}" for p, s in _capped(props)]
                if len(props) > MAX_PROPERTIES:
                    items.append(f"… {len(props) - MAX_PROPERTIES} more properties")
                if required:
                    items.append(f"required: {', '.join(required)}")
                return self._named(name, "object"), items + extras
            extra = body.get("additionalProperties")
            if isinstance(extra, dict) and extra:
                inner_label, inner_items = self._parts(extra, depth, stack, nesting)
                return self._named(name, f"map of {inner_label}"), inner_items
            return self._named(name, "object"), []
        return self._named(name, _scalar_label(body, kind)), []

    def _collect(
        self, body: dict[str, Any], depth: int, stack: tuple[str, ...], nesting: int
    ) -> tuple[dict[str, Any], list[str], list[str]]:
        """Properties, required names and extra items of an object, `allOf` parts merged in."""
        props: dict[str, Any] = {}
        required: list[str] = []
        extras: list[str] = []
        todo: list[tuple[Any, int, tuple[str, ...]]] = [(body, depth, stack)]
        while todo:
            node, d, s = todo.pop(0)
            name, part, d, s, marker = self._deref(node, d, s)
            if marker:
                extras.append(f"includes {name} ({marker})")
                continue
            if not isinstance(part, dict):
                continue
            if part is not body and _type_name(part) not in ("object", "any"):
                extras.append(self._inline(node, d, s, nesting + 1))  # allOf with a scalar: say what it is
                continue
            if isinstance(part.get("properties"), dict):
                for prop, sub in part["properties"].items():
                    props.setdefault(str(prop), sub)
            if isinstance(part.get("required"), list):
                required.extend(str(r) for r in part["required"] if str(r) not in required)
            for key, word in (("oneOf", "one of"), ("anyOf", "any of")):
                alternatives = part.get(key)
                if isinstance(alternatives, list) and alternatives:
                    alts = " | ".join(self._inline(a, d, s, nesting + 1) for a in alternatives)
                    extras.append(f"{word}: {alts}")
            if isinstance(part.get("allOf"), list):
                todo.extend((sub, d, s) for sub in part["allOf"])
        return props, required, extras

    @staticmethod
    def _named(name: str | None, label: str) -> str:
        return f"{name} ({label})" if name else label


def _capped(props: dict[str, Any]) -> list[tuple[str, Any]]:
    return list(itertools.islice(props.items(), MAX_PROPERTIES))


def _type_name(body: dict[str, Any]) -> str:
    kind = body.get("type")
    if isinstance(kind, list):  # OpenAPI 3.1: ["string", "null"]
        kinds = [str(k) for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else " or ".join(kinds) if kinds else "null"
    if isinstance(kind, str) and kind:
        return kind
    if "properties" in body or "allOf" in body or "additionalProperties" in body:
        return "object"
    if "items" in body:
        return "array"
    if isinstance(body.get("enum"), list) and body["enum"]:
        return type(body["enum"][0]).__name__.replace("str", "string").replace("int", "integer")
    return "any"


def _scalar_label(body: dict[str, Any], kind: str) -> str:
    """`string (date)`, `string [draft | active]`: type, format and allowed values."""
    label = kind
    if isinstance(body.get("format"), str):
        label += f" ({body['format']})"
    enum = body.get("enum")
    if isinstance(enum, list) and enum:
        values = [collapse(v) for v in enum[:MAX_ENUM]] + (["…"] if len(enum) > MAX_ENUM else [])
        label += f" [{' | '.join(values)}]"
    elif "const" in body:
        label += f" [{collapse(body['const'])}]"
    return label


def _description_of(node: Any) -> str:
    """The description written at a property (beside its `$ref`, or in its inline schema)."""
    return collapse(node.get("description")) if isinstance(node, dict) else ""
