"""The prompts of the SOCBench-D creation algorithms, and the JSON schemas their replies must follow.

Pesl et al. name six templates: t_s (services of a domain), t_e (endpoints of a service), t_o (the
OpenAPI document of a service), t_q (a query for a set of endpoints), t_f (further endpoints a query
needs) and t_n (is one endpoint necessary for a query?). They live here, with the judge that checks a
document semantically and the follow-up turns used for retries and repairs, so that every word the
generator sends is in one readable place.
"""

from __future__ import annotations

import json
from typing import Any

from openapi_rag.llm import Message

HTTP_VERBS = ("GET", "POST", "PUT", "PATCH", "DELETE")

SERVICES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "services": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
                "required": ["name", "description"],
            },
        }
    },
    "required": ["services"],
}

ENDPOINTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "endpoints": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "verb": {"type": "string", "enum": list(HTTP_VERBS)},
                    "path": {"type": "string"},
                    "description": {"type": "string"},
                },
                "required": ["verb", "path", "description"],
            },
        }
    },
    "required": ["endpoints"],
}

OPENAPI_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"openapi": {"type": "string"}, "info": {"type": "object"}, "paths": {"type": "object"}},
    "required": ["openapi", "info", "paths"],
}

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}, "problems": {"type": "string"}},
    "required": ["ok", "problems"],
}

QUERY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}},
    "required": ["query"],
}

FURTHER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"endpoints": {"type": "array", "items": {"type": "string"}}},
    "required": ["endpoints"],
}

NECESSARY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["Yes", "No"]}},
    "required": ["answer"],
}

_SYSTEM = (
    "You design realistic REST APIs for a benchmark of service discovery. "
    "Answer with one JSON object and nothing else."
)


def _ask(text: str) -> list[Message]:
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": text}]


def t_s(domain: str, n_services: int) -> list[Message]:
    """t_s: the services a company of the domain would offer."""
    return _ask(
        f"List exactly {n_services} distinct web services that companies in the {domain} domain "
        "would offer through a REST API. Each service has a short name and a one-sentence description "
        f'of what it does. Reply as {{"services": [{{"name": "...", "description": "..."}}]}} '
        f"with exactly {n_services} items."
    )


def t_e(domain: str, service: dict[str, str], n_endpoints: int) -> list[Message]:
    """t_e: the endpoints of one service."""
    return _ask(
        f'The {domain} service "{service["name"]}" does this: {service["description"]}\n'
        f"List exactly {n_endpoints} REST endpoints it offers. Each has an HTTP verb "
        f"({', '.join(HTTP_VERBS)}), a path starting with / (path parameters in braces), and a "
        "one-sentence description. No two endpoints share verb and path. Reply as "
        '{"endpoints": [{"verb": "GET", "path": "/...", "description": "..."}]} '
        f"with exactly {n_endpoints} items."
    )


def t_o(domain: str, service: dict[str, str], endpoints: list[dict[str, str]]) -> list[Message]:
    """t_o: the OpenAPI document of one service, with exactly the listed endpoints."""
    listing = "\n".join(f"- {e['verb']} {e['path']}: {e['description']}" for e in endpoints)
    return _ask(
        f'Write the OpenAPI 3.0.3 document, as JSON, of the {domain} service "{service["name"]}" '
        f"({service['description']}). It has exactly these endpoints and no others:\n{listing}\n"
        "Give the document info (title, version, description), and every operation a summary, a "
        "description, its parameters (path parameters required) or request body, and a 200 or 201 "
        "response with a JSON schema."
    )


def t_judge(domain: str, service: dict[str, str], document: dict[str, Any]) -> list[Message]:
    """The semantic check of a document: does it describe the service it was asked for?"""
    return _ask(
        f'Here is an OpenAPI document meant to describe the {domain} service "{service["name"]}" '
        f"({service['description']}):\n{json.dumps(document, ensure_ascii=False)[:12000]}\n"
        "Does it describe that service sensibly: operations that fit the service, parameters and "
        "schemas that fit the operations? Reply as "
        '{"ok": true|false, "problems": "what is wrong, or an empty string"}.'
    )


def t_q(domain: str, endpoints: list[dict[str, str]]) -> list[Message]:
    """t_q: a task, as a user of the domain would write it, that needs exactly these endpoints."""
    listing = "\n".join(f"- {e['id']}: {e['description']}" for e in endpoints)
    return _ask(
        f"Write one task that a user in the {domain} domain could ask an assistant to do, which needs "
        f"exactly these API endpoints, each of them once:\n{listing}\n"
        "Write it in plain words as the user would, without naming paths, verbs or service names. "
        'Reply as {"query": "..."}.'
    )


def t_f(query: str, catalog: list[dict[str, str]]) -> list[Message]:
    """t_f: further endpoints of the catalog that the query needs."""
    listing = "\n".join(f"- {e['id']}: {e['description']}" for e in catalog)
    return _ask(
        f'Task: "{query}"\nEndpoints available:\n{listing}\n'
        "Which endpoints of this list does the task need? Reply as "
        '{"endpoints": ["VERB /path", ...]}, copying the ids exactly.'
    )


def t_n(query: str, endpoint: dict[str, str]) -> list[Message]:
    """t_n: is one endpoint necessary for the query? Yes/No."""
    return _ask(
        f'Task: "{query}"\nEndpoint: {endpoint["id"]}: {endpoint["description"]}\n'
        'Is this endpoint necessary to carry out the task? Reply as {"answer": "Yes"} or {"answer": "No"}.'
    )


def count_retry(kind: str, got: int, wanted: int) -> Message:
    """The follow-up turn when a list has the wrong length."""
    return {
        "role": "user",
        "content": f"You gave {got} {kind}; exactly {wanted} are needed. Reply again with exactly {wanted}.",
    }


def shortened(reply: Message, limit: int = 6000) -> Message:
    """A failed reply as it is sent back for repair: cut, so that a runaway reply (a small model
    writing until `max_tokens`) does not push the repair turn past the model's context window."""
    text = str(reply.get("content") or "")
    if len(text) <= limit:
        return reply
    return {**reply, "content": text[:limit] + " … (cut)"}


def repair(error: str) -> Message:
    """The follow-up turn that sends a validation or judge failure back for repair."""
    return {
        "role": "user",
        "content": f"The document has this problem:\n{error[:2000]}\nReply with the corrected document.",
    }


def rewrite_query(extra: list[str], missing: list[str]) -> Message:
    """The follow-up turn when the query's necessary endpoints differ from the expected ones."""
    parts = []
    if extra:
        parts.append("it also needs endpoints it should not: " + ", ".join(extra))
    if missing:
        parts.append("it does not need endpoints it should: " + ", ".join(missing))
    return {
        "role": "user",
        "content": "Your task does not match the endpoints: "
        + "; ".join(parts)
        + '. Rewrite the task so that it needs exactly the listed endpoints. Reply as {"query": "..."}.',
    }
