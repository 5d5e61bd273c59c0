"""Swagger 2.0 → OpenAPI 3.0, on an already bundled document (no external refs left).

Follows the mapping of the OpenAPI 3.0 specification's "Changes from 2.0": host/basePath/schemes →
servers; body and formData parameters → requestBody; produces/consumes → media types;
definitions/securityDefinitions → components.
"""

from __future__ import annotations

from typing import Any

from openapi_rag.model import HTTP_METHODS

_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
# Parameter keywords that describe the value, which in OpenAPI 3 live in `schema`.
_SCHEMA_KEYWORDS = (
    "type", "format", "items", "collectionFormat", "default", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "enum",
    "multipleOf",
)  # fmt: skip
_OAUTH_FLOWS = {
    "implicit": "implicit",
    "password": "password",
    "application": "clientCredentials",
    "accessCode": "authorizationCode",
}


def convert_swagger2(doc: dict[str, Any]) -> dict[str, Any]:
    """Return the OpenAPI 3.0 form of a bundled Swagger 2.0 document."""
    doc = _rename_refs(doc)
    out: dict[str, Any] = {"openapi": "3.0.3", "info": doc.get("info") or {}}
    servers = _servers(doc)
    if servers:
        out["servers"] = servers
    for key in ("security", "tags", "externalDocs"):
        if key in doc:
            out[key] = doc[key]
    consumes = doc.get("consumes") or ["application/json"]
    produces = doc.get("produces") or ["application/json"]
    paths: dict[str, Any] = {}
    for path, item in (doc.get("paths") or {}).items():
        if isinstance(item, dict):
            paths[path] = _path_item(item, consumes, produces)
    out["paths"] = paths
    components: dict[str, Any] = {}
    definitions = doc.get("definitions")
    if isinstance(definitions, dict):
        components["schemas"] = {k: _schema(v) for k, v in definitions.items()}
    if isinstance(doc.get("securityDefinitions"), dict):
        components["securitySchemes"] = {
            k: _security_scheme(v) for k, v in doc["securityDefinitions"].items() if isinstance(v, dict)
        }
    if components:
        out["components"] = components
    out.update({k: v for k, v in doc.items() if k.startswith("x-")})
    return out


def _rename_refs(node: Any) -> Any:
    if isinstance(node, dict):
        out = {k: _rename_refs(v) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/definitions/"):
            out["$ref"] = "#/components/schemas/" + ref[len("#/definitions/") :]
        return out
    if isinstance(node, list):
        return [_rename_refs(v) for v in node]
    return node


def _schema(node: Any) -> Any:
    """Schema keywords that changed: `type: file`, `x-nullable`."""
    if isinstance(node, dict):
        out = {k: _schema(v) for k, v in node.items()}
        if out.get("type") == "file":
            out["type"], out["format"] = "string", "binary"
        if "x-nullable" in out:
            out["nullable"] = bool(out.pop("x-nullable"))
        return out
    if isinstance(node, list):
        return [_schema(v) for v in node]
    return node


def _servers(doc: dict[str, Any]) -> list[dict[str, Any]]:
    host = doc.get("host")
    base_path = doc.get("basePath") or ""
    if not host:
        return [{"url": base_path}] if base_path else []
    schemes = doc.get("schemes") or ["https"]
    return [{"url": f"{scheme}://{host}{base_path}"} for scheme in schemes]


def _security_scheme(scheme: dict[str, Any]) -> dict[str, Any]:
    kind = scheme.get("type")
    extra = {k: v for k, v in scheme.items() if k == "description" or k.startswith("x-")}
    if kind == "basic":
        return {"type": "http", "scheme": "basic", **extra}
    if kind == "apiKey":
        return {"type": "apiKey", "name": scheme.get("name", ""), "in": scheme.get("in", "header"), **extra}
    if kind == "oauth2":
        flow: dict[str, Any] = {"scopes": scheme.get("scopes") or {}}
        for key in ("authorizationUrl", "tokenUrl"):
            if key in scheme:
                flow[key] = scheme[key]
        name = _OAUTH_FLOWS.get(scheme.get("flow", ""), "implicit")
        return {"type": "oauth2", "flows": {name: flow}, **extra}
    return dict(scheme)


def _path_item(item: dict[str, Any], consumes: list[str], produces: list[str]) -> dict[str, Any]:
    shared = [p for p in item.get("parameters") or [] if isinstance(p, dict)]
    # Body and form parameters become the request body, which exists only on operations.
    out: dict[str, Any] = {}
    plain_shared = [_parameter(p) for p in shared if p.get("in") not in ("body", "formData")]
    if plain_shared:
        out["parameters"] = plain_shared
    for key, value in item.items():
        if key in HTTP_METHODS and isinstance(value, dict):
            body_shared = [p for p in shared if p.get("in") in ("body", "formData")]
            out[key] = _operation(value, body_shared, consumes, produces)
        elif key.startswith("x-") or key in ("summary", "description"):
            out[key] = value
    return out


def _operation(
    op: dict[str, Any], shared_body: list[dict[str, Any]], consumes: list[str], produces: list[str]
) -> dict[str, Any]:
    consumes = op.get("consumes") or consumes
    produces = op.get("produces") or produces
    out: dict[str, Any] = {}
    for key in ("tags", "summary", "description", "externalDocs", "operationId", "deprecated", "security"):
        if key in op:
            out[key] = op[key]
    params = [p for p in op.get("parameters") or [] if isinstance(p, dict)]
    own = {(p.get("name"), p.get("in")) for p in params}
    body_params = [p for p in shared_body if (p.get("name"), p.get("in")) not in own]
    body_params += [p for p in params if p.get("in") in ("body", "formData")]
    plain = [_parameter(p) for p in params if p.get("in") not in ("body", "formData")]
    if plain:
        out["parameters"] = plain
    body = _request_body(body_params, consumes)
    if body:
        out["requestBody"] = body
    responses = op.get("responses") or {}
    out["responses"] = {
        str(code): _response(resp, produces) for code, resp in responses.items() if isinstance(resp, dict)
    }
    out.update({k: v for k, v in op.items() if k.startswith("x-")})
    return out


def _parameter(param: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in param.items() if k not in _SCHEMA_KEYWORDS and k != "allowEmptyValue"}
    if "schema" not in param:
        schema = _schema(
            {k: v for k, v in param.items() if k in _SCHEMA_KEYWORDS and k != "collectionFormat"}
        )
        out["schema"] = schema
    fmt = param.get("collectionFormat")
    if fmt == "multi":
        out["style"], out["explode"] = "form", True
    elif fmt in ("ssv", "pipes"):
        out["style"] = {"ssv": "spaceDelimited", "pipes": "pipeDelimited"}[fmt]
    if param.get("in") == "path":
        out["required"] = True
    return out


def _request_body(params: list[dict[str, Any]], consumes: list[str]) -> dict[str, Any] | None:
    body = next((p for p in params if p.get("in") == "body"), None)
    if body is not None:
        schema = _schema(body.get("schema") or {})
        out: dict[str, Any] = {"content": {ct: {"schema": schema} for ct in consumes}}
        if body.get("description"):
            out["description"] = body["description"]
        if body.get("required"):
            out["required"] = True
        if body.get("x-examples"):
            for ct, example in body["x-examples"].items():
                out["content"].setdefault(ct, {"schema": schema})["example"] = example
        return out
    form = [p for p in params if p.get("in") == "formData"]
    if not form:
        return None
    properties: dict[str, Any] = {}
    required = []
    for p in form:
        prop = _schema({k: v for k, v in p.items() if k in _SCHEMA_KEYWORDS and k != "collectionFormat"})
        if p.get("description"):
            prop["description"] = p["description"]
        properties[str(p.get("name", ""))] = prop
        if p.get("required"):
            required.append(str(p.get("name", "")))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    has_file = any(p.get("type") == "file" for p in form)
    media = [ct for ct in consumes if ct in _FORM_TYPES] or (
        ["multipart/form-data"] if has_file else ["application/x-www-form-urlencoded"]
    )
    return {"content": {ct: {"schema": schema} for ct in media}, **({"required": True} if required else {})}


def _response(resp: dict[str, Any], produces: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"description": resp.get("description", "")}
    if "schema" in resp:
        schema = _schema(resp["schema"])
        out["content"] = {ct: {"schema": schema} for ct in produces}
    examples = resp.get("examples")
    if isinstance(examples, dict):
        content = out.setdefault("content", {})
        for ct, example in examples.items():
            content.setdefault(ct, {})["example"] = example
    headers = resp.get("headers")
    if isinstance(headers, dict):
        out["headers"] = {
            name: {
                **({"description": h["description"]} if h.get("description") else {}),
                "schema": _schema({k: v for k, v in h.items() if k in _SCHEMA_KEYWORDS}),
            }
            for name, h in headers.items()
            if isinstance(h, dict)
        }
    out.update({k: v for k, v in resp.items() if k.startswith("x-")})
    return out
