"""Readable texts of operations and component schemas, as a header line and `Block`s.

An operation reads::

    Campaigns API – campaigns – POST /campaigns: Create a campaign
    Creates a campaign for the current account.
    parameters: account (path, string, required): The account id; dryRun (query, boolean)
    requestBody: CreateCampaignRequest (object) — campaign: Campaign (see schema), startDate: string (date)
    response 201 (Created): Campaign (see schema)
    errors: 400 Bad request; 404 Not found
    security: oauth (campaigns:write)

(the security line only where the operation's requirement differs from the service's default).

A component schema reads::

    Campaigns API – schema Campaign (object)
    A marketing campaign.
    - id: string (uuid), required — Unique id
    - owner: User (see schema)
    used in: POST /campaigns, GET /campaigns/{id}
    used by schemas: CampaignList
"""

from __future__ import annotations

from typing import Any

from openapi_rag.chunking.render import SchemaRenderer, collapse, first_sentence, operation_summary, sentences
from openapi_rag.chunking.split import Block
from openapi_rag.model import Operation, Schema, Service

MAX_LISTED = 10  # operations or schemas named in a "used in" line; metadata holds them all


def context_line(service: Service, op: Operation) -> str:
    """`API title – tag – METHOD /path: summary`."""
    parts = [collapse(service.title)]
    if op.tags:
        parts.append(", ".join(collapse(t) for t in op.tags))
    what = op.id + (" (deprecated)" if op.deprecated else "")
    summary = operation_summary(op)
    parts.append(f"{what}: {summary}" if summary else what)
    return " – ".join(parts)


def is_error_code(code: str, codes: list[str]) -> bool:
    """4xx/5xx, and `default` when the operation declares a success response too."""
    if code[:1] in ("4", "5"):
        return True
    return code == "default" and any(c[:1] in ("1", "2", "3") for c in codes)


def operation_blocks(service: Service, op: Operation, renderer: SchemaRenderer) -> tuple[str, list[Block]]:
    """The header line and blocks of an operation's readable text."""
    blocks: list[Block] = []
    description = collapse(op.description)
    if description and description != collapse(op.summary):
        blocks.append(Block("", sentences(description), " "))
    params = [_parameter(p, renderer) for p in op.parameters]
    if params:
        blocks.append(Block("parameters: ", params, "; "))
    if op.request_body:
        blocks.append(_request_body(op.request_body, renderer))
    codes = list(op.responses)
    errors: list[str] = []
    for code, response in op.responses.items():
        response = response if isinstance(response, dict) else {}
        if is_error_code(code, codes):
            errors.append(f"{code} {first_sentence(response.get('description'), 60)}".rstrip())
        else:
            blocks.append(_response(code, response, renderer))
    if errors:
        blocks.append(Block("errors: ", errors, "; "))
    if op.security is not None and op.security != service.security:
        blocks.append(Block("security: ", [requirements_text(op.security)]))
    return context_line(service, op), blocks


def requirements_text(requirements: list[dict[str, Any]]) -> str:
    """`a (scope1, scope2) or b and c`; an empty requirement means no authentication."""
    alternatives = []
    for req in requirements:
        if not isinstance(req, dict) or not req:
            alternatives.append("no authentication")
            continue
        alternatives.append(
            " and ".join(
                f"{name} ({', '.join(str(s) for s in scopes)})"
                if isinstance(scopes, list) and scopes
                else str(name)
                for name, scopes in req.items()
            )
        )
    return " or ".join(alternatives) if alternatives else "no authentication"


def _parameter(param: Any, renderer: SchemaRenderer) -> str:
    facts = [param.location, renderer.inline(param.schema) if param.schema else "any"]
    if param.required:
        facts.append("required")
    if param.deprecated:
        facts.append("deprecated")
    text = f"{param.name} ({', '.join(facts)})"
    # Some providers (Spotify) describe a parameter inside its schema.
    description = collapse(param.description) or collapse((param.schema or {}).get("description"))
    return f"{text}: {description}" if description else text


def media_schema(content: Any) -> tuple[str | None, Any]:
    """The media type to show and its schema: JSON when there is one, else the first."""
    if not isinstance(content, dict) or not content:
        return None, None
    types = list(content)
    chosen = next((t for t in types if "json" in t), types[0])
    media = content[chosen] if isinstance(content[chosen], dict) else {}
    return chosen, media.get("schema")


def _request_body(body: dict[str, Any], renderer: SchemaRenderer) -> Block:
    media_type, schema = media_schema(body.get("content"))
    where = f" ({media_type})" if media_type and "json" not in media_type else ""
    if schema is None:
        return Block(f"requestBody{where}: {first_sentence(body.get('description'))}".rstrip(": "))
    label, items = renderer.parts(schema)
    return Block(f"requestBody{where}: {label}" + (" — " if items else ""), items)


def _response(code: str, response: dict[str, Any], renderer: SchemaRenderer) -> Block:
    description = first_sentence(response.get("description"), 80)
    head = f"response {code}" + (f" ({description})" if description else "")
    _, schema = media_schema(response.get("content"))
    if schema is None:
        return Block(head)
    label, items = renderer.parts(schema)
    return Block(f"{head}: {label}" + (" — " if items else ""), items)


def schema_blocks(service: Service, schema: Schema, renderer: SchemaRenderer) -> tuple[str, list[Block]]:
    """The header line and blocks of a component schema's readable text (its own fields)."""
    body = schema.schema
    blocks: list[Block] = []
    description = collapse(body.get("description"))
    if description:
        blocks.append(Block("", sentences(description), " "))
    found = renderer.fields(body)
    if found is not None:
        label, fields, extras = found
        label = label or "object"
        lines = []
        for f in fields:
            line = f"- {f.name}: {f.type}" + (", required" if f.required else "")
            lines.append(f"{line} — {f.description}" if f.description else line)
        blocks.append(Block("", lines + [f"- {e}" for e in extras], "\n"))
    else:
        label, items = renderer.parts(body)
        if items:
            blocks.append(Block("", [f"- {i}" for i in items], "\n"))
    if schema.used_by_operations:
        blocks.append(Block("used in: ", capped(schema.used_by_operations), ", "))
    if schema.used_by_schemas:
        blocks.append(Block("used by schemas: ", capped(schema.used_by_schemas), ", "))
    return f"{collapse(service.title)} – schema {schema.name} ({label})", blocks


def capped(names: list[str]) -> list[str]:
    """At most `MAX_LISTED` names, then `and N more`."""
    if len(names) <= MAX_LISTED:
        return list(names)
    return [*names[:MAX_LISTED], f"and {len(names) - MAX_LISTED} more"]
