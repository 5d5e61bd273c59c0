"""Every prompt the LLM-based features send, in one place.

Prompts are few-shot: a 135M-parameter model copies the form of two worked examples far more
reliably than it follows an instruction alone. Each builder returns the full message list, so the
cache key (model, messages, params) changes whenever a prompt here changes.
"""

from __future__ import annotations

import json
from typing import Any

from openapi_rag.llm.base import Message
from openapi_rag.model import Operation

__all__ = ["describe_operation", "query_messages", "summary_messages", "user_views_messages"]

_MAX_FIELD = 300  # characters of a description shown to the model; the rest rarely changes the gist


def _short(text: str, limit: int = _MAX_FIELD) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " ..."


def describe_operation(op: Operation) -> str:
    """A compact, model-friendly view of an operation: line, summary, description, parameters."""
    lines = [f"Endpoint: {op.id}"]
    if op.summary.strip():
        lines.append(f"Summary: {_short(op.summary)}")
    if op.description.strip():
        lines.append(f"Description: {_short(op.description)}")
    params = [f"{p.name} ({p.location})" for p in op.parameters][:8]
    if params:
        lines.append(f"Parameters: {', '.join(params)}")
    body = _body_fields(op.request_body)
    if body:
        lines.append(f"Body fields: {', '.join(body)}")
    return "\n".join(lines)


def _body_fields(request_body: dict[str, Any] | None) -> list[str]:
    if not isinstance(request_body, dict):
        return []
    for media in (request_body.get("content") or {}).values():
        schema = media.get("schema") if isinstance(media, dict) else None
        if isinstance(schema, dict) and isinstance(schema.get("properties"), dict):
            return list(schema["properties"])[:8]
    return []


_SUMMARY_SYSTEM = (
    "You summarize REST API endpoints. Reply with one sentence that says what the endpoint does, "
    "naming the resource it acts on. No preamble."
)
_SUMMARY_SHOTS = [
    (
        "Endpoint: GET /users/{id}/playlists\nSummary: Get a User's Playlists\nParameters: id (path), limit (query)",
        "Lists the playlists owned or followed by a given user, page by page.",
    ),
    (
        "Endpoint: POST /pets\nDescription: Adds a new pet to the store\nBody fields: name, tag",
        "Creates a new pet in the store from its name and tag.",
    ),
]

_QUERY_SYSTEM = (
    "You write the question a user of an API would ask that this endpoint answers. Reply with "
    "one short question only."
)
_QUERY_SHOTS = [
    (
        "Endpoint: GET /users/{id}/playlists\nSummary: Get a User's Playlists\nParameters: id (path), limit (query)",
        "Which playlists does this user have?",
    ),
    (
        "Endpoint: POST /pets\nDescription: Adds a new pet to the store\nBody fields: name, tag",
        "How do I add a new pet to the store?",
    ),
]


def _few_shot(system: str, shots: list[tuple[str, str]], question: str) -> list[Message]:
    messages: list[Message] = [{"role": "system", "content": system}]
    for user, assistant in shots:
        messages += [{"role": "user", "content": user}, {"role": "assistant", "content": assistant}]
    messages.append({"role": "user", "content": question})
    return messages


def summary_messages(op: Operation) -> list[Message]:
    """Ask for a one-sentence summary of `op` (the `summary` chunking strategy)."""
    return _few_shot(_SUMMARY_SYSTEM, _SUMMARY_SHOTS, describe_operation(op))


def query_messages(op: Operation) -> list[Message]:
    """Ask for a question a user might ask that `op` answers (the `query` chunking strategy)."""
    return _few_shot(_QUERY_SYSTEM, _QUERY_SHOTS, describe_operation(op))


_VIEWS_SYSTEM = (
    "You write what users type when they need an API endpoint. Reply with three short requests, "
    "one per line, in the everyday words a user would use (not the API's own names for things), "
    "each under twelve words. No numbering, no preamble."
)
_VIEWS_SHOTS = [
    (
        "Endpoint: GET /users/{id}/playlists\nSummary: Get a User's Playlists\nParameters: id (path), limit (query)",
        "show the music collections someone made\nwhich song lists does this person follow\nbrowse a friend's mixes",
    ),
    (
        "Endpoint: POST /pets\nDescription: Adds a new pet to the store\nBody fields: name, tag",
        "put a new animal up for sale\nregister a dog in the shop's catalog\nlist my cat in the pet shop",
    ),
]


def user_views_messages(op: Operation) -> list[Message]:
    """Ask for short requests in users' words that `op` serves (`compact`'s `views_llm`)."""
    return _few_shot(_VIEWS_SYSTEM, _VIEWS_SHOTS, describe_operation(op))


def tool_json(tools: list[dict[str, Any]]) -> str:
    """Tool specs as compact JSON, for prompts of models without native tool calling."""
    return json.dumps([t["function"] for t in tools], ensure_ascii=False)


# ---- Discovery Agent ---------------------------------------------------------------------

AGENT_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search the API endpoints; returns lines `METHOD /path: summary`, best first.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string", "description": "one sub-task, in plain words"}},
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "show",
            "description": "The full definition of one endpoint (parameters, body, responses).",
            "parameters": {
                "type": "object",
                "properties": {"endpoint": {"type": "string", "description": "`METHOD /path`"}},
                "required": ["endpoint"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "finish",
            "description": "Return the endpoints needed for the whole task, in the order they are called.",
            "parameters": {
                "type": "object",
                "properties": {"endpoints": {"type": "array", "items": {"type": "string"}}},
                "required": ["endpoints"],
            },
        },
    },
]

_AGENT_SYSTEM = (
    "You find the API endpoints needed to carry out a user's task. Split the task into sub-tasks, "
    "call `search` once per sub-task, call `show` only for an endpoint whose fit you must check, "
    "then call `finish` with every endpoint the task needs (`METHOD /path`), nothing else."
)

_JSON_PROTOCOL = (
    "\n\nTools: {tools}\n"
    "Reply with exactly one JSON object and nothing else, for example\n"
    '{{"tool": "search", "args": {{"query": "find a pet by its id"}}}}\n'
    '{{"tool": "show", "args": {{"endpoint": "GET /pets/{{petId}}"}}}}\n'
    '{{"tool": "finish", "args": {{"endpoints": ["GET /pets/{{petId}}"]}}}}\n'
    "The result of each tool comes back as `Observation: ...`."
)


def _action(tool: str, arg: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "tool": {"const": tool},
            "args": {"type": "object", "properties": {arg: schema}, "required": [arg]},
        },
        "required": ["tool", "args"],
    }


# One action of the JSON protocol; sent as a response_format where the model honours it.
ACTION_SCHEMA: dict[str, Any] = {
    "anyOf": [
        _action("search", "query", {"type": "string"}),
        _action("show", "endpoint", {"type": "string"}),
        _action("finish", "endpoints", {"type": "array", "items": {"type": "string"}}),
    ]
}

JSON_PROTOCOL_REMINDER = 'Reply with one JSON object: {"tool": "search" | "show" | "finish", "args": {...}}.'


def agent_messages(task: str, *, native_tools: bool) -> list[Message]:
    """The opening of a Discovery Agent conversation about `task`.

    With `native_tools` the tools go to the model as tool specs; otherwise the system prompt
    describes them and asks for one JSON object per reply (the ReAct-style fallback).
    """
    system = (
        _AGENT_SYSTEM if native_tools else _AGENT_SYSTEM + _JSON_PROTOCOL.format(tools=tool_json(AGENT_TOOLS))
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": f"Task: {task}"}]
