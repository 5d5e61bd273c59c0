"""The `llm` generator: the LLM writes the call as JSON constrained by a schema built from the operation.

The schema has one object per place a value can go (`path`, `query`, `headers`, `body`), each
property typed from the operation's own field schemas (type, format, enum, items), required fields
required. Where the model takes a JSON schema (llama.cpp grammars; OpenAI-compatible servers with
structured output) it is passed as `response_format`; the reply is validated against it in any
case, and one repair round sends the validation errors (or a server's refusal, in execution) back.
Required fields the model still leaves out are filled as the offline generator would, and named in
`problems`, so a weak model never makes a call that cannot be sent.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.agents.policies import parse_json_object
from openapi_rag.generate.call.assign import Assignment, placeholder
from openapi_rag.generate.call.fields import Field
from openapi_rag.generate.call.generator import Candidate, call_from
from openapi_rag.generate.call.result import GeneratedCall
from openapi_rag.llm.base import structured_output

__all__ = ["call_schema", "llm_call"]

PLACES = {"path": "path", "query": "query", "header": "headers", "body": "body"}
KEPT_KEYWORDS = ("type", "format", "enum", "minimum", "maximum")
MAX_TOKENS = 384
SYSTEM = "You turn a user's request into one API call. Answer with JSON only."


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    try:
        return float(value)  # descriptions write bounds as strings ("0"); grammars need numbers
    except (TypeError, ValueError):
        return None


def _kept(schema: dict[str, Any]) -> dict[str, Any]:
    out = {k: schema[k] for k in KEPT_KEYWORDS if k in schema}
    for bound in ("minimum", "maximum"):
        if bound in out and (number := _number(out[bound])) is not None:
            out[bound] = number
        else:
            out.pop(bound, None)
    if not isinstance(out.get("enum", []), list) or out.get("enum") == []:
        out.pop("enum", None)
    if not isinstance(out.get("type", "string"), str | list):
        out.pop("type", None)
    return out


def _small(schema: dict[str, Any]) -> dict[str, Any]:
    """A field's schema with what constrains a value and nothing else (descriptions go in the prompt)."""
    out = _kept(schema)
    if isinstance(out.get("type"), list):
        out["type"] = [t for t in out["type"] if t != "null"] or "string"
    items = schema.get("items")
    if isinstance(items, dict):
        out["items"] = _kept(items)
    return out or {"type": "string"}


def call_schema(fields: list[Field]) -> dict[str, Any]:
    """The JSON schema of a call to the operation whose fields these are."""
    places: dict[str, dict[str, Any]] = {}
    for f in fields:
        place = places.setdefault(PLACES[f.location], {"type": "object", "properties": {}, "required": []})
        node = place
        parts = f.name.split(".") if f.name else ["items"]
        for part in parts[:-1]:
            node = node["properties"].setdefault(part, {"type": "object", "properties": {}, "required": []})
        node["properties"][parts[-1]] = _small(f.schema)
        if f.required:
            node["required"].append(parts[-1])
    required = [name for name, place in places.items() if place["required"]]
    return {"type": "object", "properties": places, "required": required}


def _prompt(request: str, candidate: Candidate, feedback: str | None) -> str:
    op = candidate.operation
    lines = [
        f"Request: {request}",
        f"API operation: {op.method} {op.path}: {op.summary or op.description[:200]}",
    ]
    if candidate.fields:
        lines.append("Fields (place.name, type, required?: description):")
        for f in candidate.fields:
            enum = f" one of {f.enum[:12]}" if f.enum else ""
            need = "required" if f.required else "optional"
            lines.append(
                f"- {PLACES[f.location]}.{f.name or 'items'} ({f.type}{enum}, {need}): {f.description[:160]}"
            )
    lines.append(
        'Write the call as JSON: {"path": {...}, "query": {...}, "headers": {...}, "body": {...}}. '
        "Use only values the request states; leave out optional fields it does not mention."
    )
    if feedback:
        lines.append(f"The previous attempt was refused: {feedback}. Write a corrected call.")
    return "\n".join(lines)


def _validate(reply: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    import jsonschema

    validator = jsonschema.Draft7Validator(schema)
    return [
        f"{'/'.join(str(p) for p in e.absolute_path) or '(top)'}: {e.message}"
        for e in validator.iter_errors(reply)
    ][:8]


def _lookup(reply: dict[str, Any], f: Field) -> tuple[bool, Any]:
    node: Any = reply.get(PLACES[f.location])
    for part in f.name.split(".") if f.name else ["items"]:
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return node is not None, node


def _ask(llm: Any, messages: list[dict[str, Any]], schema: dict[str, Any], call: GeneratedCall) -> str:
    params = structured_output(llm, "api_call", schema)
    response = llm.chat(messages, max_tokens=MAX_TOKENS, temperature=0.0, **params)
    call.add_tokens(response.usage.prompt_tokens, response.usage.completion_tokens)
    return str(response.text)


def llm_call(request: str, candidate: Candidate, llm: Any, *, feedback: str | None = None) -> GeneratedCall:
    """The call the LLM writes for `candidate`'s operation (validated, repaired once, completed)."""
    schema = call_schema(candidate.fields)
    tokens = GeneratedCall(operation=None)
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": _prompt(request, candidate, feedback)},
    ]
    text = _ask(llm, messages, schema, tokens)
    reply = parse_json_object(text)
    errors = ["the reply holds no JSON object"] if reply is None else _validate(reply, schema)
    if errors:
        messages += [
            {"role": "assistant", "content": text},
            {
                "role": "user",
                "content": "That JSON does not fit the call's schema: "
                + "; ".join(errors)
                + ". Answer again.",
            },
        ]
        text = _ask(llm, messages, schema, tokens)
        reply = parse_json_object(text) or reply or {}
        errors = _validate(reply, schema)
    reply = reply or {}
    problems = [f"LLM reply: {e}" for e in errors]
    assignments = []
    offline = {(a.field.location, a.field.name): a for a in candidate.assignments}
    for f in candidate.fields:
        present, value = _lookup(reply, f)
        if present:
            assignments.append(Assignment(f, value))
        elif f.required:
            fallback = offline.get((f.location, f.name))
            if fallback is not None:
                assignments.append(fallback)
                problems.append(
                    f"{f.location} field {f.name!r}: the LLM left it out; filled from the request by rules"
                )
            else:
                value = placeholder(f)
                assignments.append(Assignment(f, value, placeholder=True))
                problems.append(
                    f"{f.location} field {f.name!r} is required but the request does not say it; used {value!r}"
                )
    call = call_from(candidate, assignments, problems)
    call.llm_tokens = dict(tokens.llm_tokens)
    return call
