"""Bundled OpenAPI 3 document → `Service` with its operations and schemas."""

from __future__ import annotations

from typing import Any

from openapi_rag.model import HTTP_METHODS, Operation, Parameter, Problem, Schema, Service
from openapi_rag.refs import pointer as jp
from openapi_rag.refs.graph import build_reference_graph


def _flag(value: Any) -> bool:
    """A boolean field; providers write `"required": "false"` as a string (Spotify), which bool() gets wrong."""
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


# Path item fields that are not operations (OpenAPI 3.0–3.2, Swagger 2.0), besides `x-` extensions.
_PATH_ITEM_FIELDS = {"$ref", "summary", "description", "servers", "parameters", "additionalOperations"}


def report_dropped_input(doc: dict[str, Any], file: str, problems: list[Problem]) -> None:
    """Name what `extract_service` will pass over: path items and operations that are not objects,
    and keys of a path item that are not methods (`GET`, `fetch`)."""
    paths = doc.get("paths")
    if not isinstance(paths, dict):
        return
    for path, item in paths.items():
        item_ptr = jp.join("/paths", str(path))
        if not isinstance(item, dict):
            problems.append(Problem(f"path item is {_kind(item)}, not an object; skipped", item_ptr, file))
            continue
        for key, op in item.items():
            key = str(key)
            if key in HTTP_METHODS:
                if not isinstance(op, dict):
                    where = jp.join(item_ptr, key)
                    problems.append(Problem(f"operation is {_kind(op)}, not an object; skipped", where, file))
            elif key not in _PATH_ITEM_FIELDS and not key.startswith("x-"):
                hint = " (methods are lower case)" if key.lower() in HTTP_METHODS else ""
                problems.append(
                    Problem(f"unknown method or field {key!r} skipped{hint}", jp.join(item_ptr, key), file)
                )


def _kind(value: Any) -> str:
    return "null" if value is None else f"a {type(value).__name__}"


def extract_service(
    doc: dict[str, Any], *, service_id: str, file: str, format: str, problems: list[Problem]
) -> Service:
    info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
    components = doc.get("components") if isinstance(doc.get("components"), dict) else {}
    servers = [s for s in doc.get("servers") or [] if isinstance(s, dict)]
    service = Service(
        id=service_id,
        title=_text(info.get("title")) or service_id,
        version=_text(info.get("version")),
        description=_text(info.get("description")),
        file=file,
        format=format,
        servers=servers,
        security_schemes=dict(components.get("securitySchemes") or {}),
        security=[s for s in doc.get("security") or [] if isinstance(s, dict)],
        tags=[t for t in doc.get("tags") or [] if isinstance(t, dict)],
        problems=problems,
        document=doc,
    )
    for name, body in (components.get("schemas") or {}).items():
        service.schemas[name] = Schema(name=name, schema=body if isinstance(body, dict) else {})
    paths = doc.get("paths") or {}
    if not isinstance(paths, dict):
        problems.append(Problem("`paths` is not a mapping; no operations read", where="/paths", file=file))
        paths = {}
    for path, item in paths.items():
        if not isinstance(item, dict):
            continue
        service.operations.extend(_operations(service, str(path), item, servers, problems))
    build_reference_graph(service)
    return service


def _operations(
    service: Service, path: str, item: dict[str, Any], servers: list[dict[str, Any]], problems: list[Problem]
) -> list[Operation]:
    item_ptr = jp.join("/paths", path)
    shared = _parameters(item.get("parameters"), item_ptr + "/parameters", service.file, problems)
    item_servers = [s for s in item.get("servers") or [] if isinstance(s, dict)] or servers
    ops = []
    for method in HTTP_METHODS:
        op = item.get(method)
        if not isinstance(op, dict):
            continue
        ptr = jp.join(item_ptr, method)
        own = _parameters(op.get("parameters"), ptr + "/parameters", service.file, problems)
        # Operation-level parameters override path-level ones with the same name and location.
        own_keys = {(p.name, p.location) for p, _ in own}
        merged = [pair for pair in shared if (pair[0].name, pair[0].location) not in own_keys] + own
        params = [p for p, _ in merged]
        raw = dict(op)
        if merged:
            raw["parameters"] = [d for _, d in merged]
        responses = op.get("responses") if isinstance(op.get("responses"), dict) else {}
        tags = op.get("tags") if isinstance(op.get("tags"), list) else []
        ops.append(
            Operation(
                service=service.id,
                method=method.upper(),
                path=path,
                operation_id=_text(op.get("operationId")) or None,
                summary=_text(op.get("summary") or item.get("summary")),
                description=_text(op.get("description") or item.get("description")),
                tags=[_text(t) for t in tags],
                parameters=params,
                request_body=op.get("requestBody") if isinstance(op.get("requestBody"), dict) else None,
                responses={str(code): resp for code, resp in responses.items()},
                security=op.get("security") if isinstance(op.get("security"), list) else None,
                deprecated=_flag(op.get("deprecated", False)),
                servers=[s for s in op.get("servers") or [] if isinstance(s, dict)] or item_servers,
                pointer=ptr,
                raw=raw,
            )
        )
    return ops


def _parameters(
    value: Any, where: str, file: str, problems: list[Problem]
) -> list[tuple[Parameter, dict[str, Any]]]:
    """Parameters as records, each with the object it was read from."""
    if not isinstance(value, list):
        return []
    out = []
    for i, param in enumerate(value):
        if not isinstance(param, dict) or not isinstance(param.get("name"), str) or "in" not in param:
            problems.append(Problem("parameter without name/in skipped", where=f"{where}/{i}", file=file))
            continue
        record = Parameter(
            name=param["name"],
            location=_text(param["in"]),
            required=_flag(param.get("required", False)),
            description=_text(param.get("description")),
            schema=param.get("schema") if isinstance(param.get("schema"), dict) else {},
            deprecated=_flag(param.get("deprecated", False)),
        )
        out.append((record, param))
    return out
