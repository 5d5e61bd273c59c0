"""Postman Collection v2.0/v2.1 → OpenAPI 3.0.3.

What becomes what:

- folders → tags. A nested folder's tag is its folder path joined with `" > "` ("Users > Admin"),
  the convention of postman-to-openapi: every folder keeps its own tag and description and two
  sub-folders with the same name stay apart. Requests at the top level get no tag.
- requests → operations: summary = request name, description = request description,
  operationId = the name in camelCase (made unique with a number). Requests with the same method and
  path (after `{id}`/`{userId}` renaming) are merged into one operation: parameters united, bodies
  and saved responses kept as named `examples`, descriptions appended.
- URL: the part before the path becomes a server (`{{baseUrl}}` → the variable's value when the
  collection defines it, else `{baseUrl}` with a server variable); `:id` and `{{id}}` in the path →
  `{id}` path parameters described by `url.variable`; query entries → optional query parameters.
- headers other than Content-Type, Accept and Authorization → optional header parameters.
  Disabled query/header/form entries are kept, flagged `x-postman-disabled: true`.
- bodies → requestBody: raw JSON (schema inferred, example kept), raw text/XML/HTML (string),
  urlencoded and form-data (object schemas; files are binary), file (binary), graphql (JSON).
- saved responses → responses by status code, media type from Content-Type, example + schema.
  An operation without saved responses gets a `default` response.
- auth (collection, folder, request; inherited downwards) → securitySchemes + security, see
  `postman_auth`. HTTP methods OpenAPI 3.0 lacks (COPY, LINK, PURGE, ...) are left out.

Lossy steps are reported as `Problem`s in the `problems` list the caller passes.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from openapi_rag.convert.infer import merge_schemas
from openapi_rag.convert.postman_auth import Requirement, SecuritySchemes, inherits
from openapi_rag.convert.postman_body import Content, SavedResponse, request_content, saved_response
from openapi_rag.convert.postman_url import Server, build_path, build_server, read_url
from openapi_rag.convert.postman_values import Context, field_parameters, key_values, text_of, variable_map
from openapi_rag.errors import LimitExceeded
from openapi_rag.model import Problem
from openapi_rag.spec.limits import DEFAULT_LIMITS, ReadLimits

OPENAPI_VERSION = "3.0.3"
FOLDER_SEPARATOR = " > "
# OpenAPI describes these through requestBody content, responses and security, not as parameters.
_SKIPPED_HEADERS = {"content-type", "accept", "authorization"}
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_TEMPLATE_RE = re.compile(r"\{([^{}]*)\}")


def is_postman_collection(doc: Any) -> bool:
    """Whether `doc` (a parsed JSON document) is a Postman collection, of any version."""
    if not isinstance(doc, dict) or "openapi" in doc or "swagger" in doc:
        return False
    info = doc.get("info")
    if isinstance(info, dict):
        schema = info.get("schema")
        if isinstance(schema, str) and "postman.com" in schema:
            return True
        if "_postman_id" in info or isinstance(doc.get("item"), list):
            return True
    # Collection v1: flat `requests` next to `id` and `name`; recognised so conversion can explain.
    return isinstance(doc.get("requests"), list) and "name" in doc and "id" in doc


def postman_to_openapi(
    collection: dict[str, Any],
    *,
    source: str | None = None,
    problems: list[Problem] | None = None,
    limits: ReadLimits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """Convert a Postman Collection (v2.0 or v2.1) to an OpenAPI 3.0.3 document.

    Args:
        collection: the parsed collection JSON.
        source: where it came from (a file name), used in messages.
        problems: when given, lossy conversions (unsupported methods or auth types, bodies that
            do not parse) are appended to it as warnings.
        limits: bounds on folder nesting (`max_postman_depth`) and variable expansion
            (`max_variable_chars`).

    Returns:
        The OpenAPI document as plain dicts and lists, ready for `yaml.safe_dump` or `json.dumps`.

    Raises:
        ConvertError: the collection is not a v2 collection or an item is malformed; the message
            names the source and the item path (`Users > Get user`).

    Example:
        >>> doc = postman_to_openapi(json.loads(Path("api.postman_collection.json").read_text()))
        >>> sorted(doc["paths"])
        ['/users', '/users/{id}']
    """
    ctx = Context(source, problems if problems is not None else [], limits)
    if not isinstance(collection, dict):
        raise ctx.error(f"a Postman collection is a JSON object, got {type(collection).__name__}")
    info = collection.get("info")
    schema = str(info.get("schema", "")) if isinstance(info, dict) else ""
    if "/v1." in schema or ("item" not in collection and "requests" in collection):
        raise ctx.error("Postman Collection v1 is not supported; open it in Postman and export it as v2.1")
    if not isinstance(info, dict) or not isinstance(collection.get("item"), list):
        raise ctx.error("not a Postman collection v2: it needs an `info` object and an `item` list")
    return _Converter(collection, ctx).convert()


@dataclass
class _Variant:
    """One Postman request, read; several variants may become one operation."""

    name: str
    method: str
    path: str
    server: Server | None
    description: str
    tag: str | None
    parameters: list[dict[str, Any]]
    content: Content | None
    responses: list[SavedResponse]
    security: list[Requirement]


class _Converter:
    def __init__(self, collection: dict[str, Any], ctx: Context):
        self.collection = collection
        self.ctx = ctx
        self.variables = variable_map(collection.get("variable"))
        self.schemes = SecuritySchemes(ctx, self.variables)
        self.tags: dict[str, list[str]] = {}
        self.variants: list[_Variant] = []
        auth = collection.get("auth")
        self.top_security = [] if inherits(auth) else self.schemes.requirement(auth, "collection auth")

    def convert(self) -> dict[str, Any]:
        try:
            self._walk(self.collection["item"], [], self.top_security)
        except LimitExceeded as exc:  # a variable bomb: name the collection and the limit
            raise self.ctx.error(exc.reason) from exc
        _unify_path_names(self.variants)
        doc: dict[str, Any] = {"openapi": OPENAPI_VERSION, "info": self._info()}
        servers = _servers_by_use(self.variants)
        if servers:
            doc["servers"] = [s.to_openapi() for s in servers]
        tags = [_tag(name, descriptions) for name, descriptions in self.tags.items()]
        if tags:
            doc["tags"] = tags
        if self.top_security:
            doc["security"] = _copy_security(self.top_security)
        doc["paths"] = self._paths(servers[0] if servers else None)
        if self.schemes.schemes:
            doc["components"] = {"securitySchemes": self.schemes.schemes}
        return doc

    def _info(self) -> dict[str, Any]:
        info = self.collection["info"]
        version = info.get("version")
        if isinstance(version, dict):  # v2.0/v2.1 allow {major, minor, patch, identifier}
            parts = [str(version.get(k, 0)) for k in ("major", "minor", "patch")]
            identifier = version.get("identifier")
            version = ".".join(parts) + (f"-{identifier}" if identifier else "")
        result: dict[str, Any] = {"title": str(info.get("name") or "Postman collection").strip()}
        description = text_of(info.get("description"))
        if description:
            result["description"] = description
        result["version"] = str(version) if version not in (None, "") else "1.0.0"
        return result

    # ---- reading the collection -------------------------------------------------------------

    def _walk(self, items: Any, folders: list[str], security: list[Requirement]) -> None:
        where = FOLDER_SEPARATOR.join(folders) or None
        if len(folders) > self.ctx.limits.max_postman_depth:
            # Folders are walked recursively; the bound keeps a hostile collection off the stack limit.
            error = self.ctx.limits.exceeded("max_postman_depth", f"folders nested {len(folders)} deep")
            raise self.ctx.error(error.reason, FOLDER_SEPARATOR.join(folders[:3]) + " > ...")
        if not isinstance(items, list):
            raise self.ctx.error(f"`item` must be a list, got {type(items).__name__}", where)
        for index, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise self.ctx.error(f"item #{index} must be an object, got {type(item).__name__}", where)
            name = str(item.get("name") or "").strip() or f"#{index}"
            path = [*folders, name]
            item_where = FOLDER_SEPARATOR.join(path)
            auth = item.get("auth")
            if "item" in item:
                folder_security = security if inherits(auth) else self.schemes.requirement(auth, item_where)
                descriptions = self.tags.setdefault(item_where, [])
                description = text_of(item.get("description"))
                if description and description not in descriptions:
                    descriptions.append(description)
                self._walk(item["item"], path, folder_security)
            elif "request" in item:
                variant = self._variant(item, name, folders, security, item_where)
                if variant is not None:
                    self.variants.append(variant)
            else:
                raise self.ctx.error("an item needs `request` (a request) or `item` (a folder)", item_where)

    def _variant(
        self, item: dict[str, Any], name: str, folders: list[str], security: list[Requirement], where: str
    ) -> _Variant | None:
        request = item["request"]
        if isinstance(request, str):  # v2 allows a bare URL for a GET
            request = {"url": request, "method": "GET"}
        if not isinstance(request, dict):
            raise self.ctx.error(f"`request` must be an object or a URL, got {type(request).__name__}", where)
        method = str(request.get("method") or "GET").lower()
        if method not in _METHODS:
            self.ctx.warn(
                f"HTTP method {method.upper()} cannot be expressed in OpenAPI 3.0; request left out", where
            )
            return None
        if request.get("url") in (None, ""):
            raise self.ctx.error("request has no `url`", where)
        url = read_url(request["url"], self.ctx, where)
        path, path_params = build_path(url.segments, url.variables, self.variables)
        headers = key_values(request.get("header"), "header", self.ctx, where)
        header_fields = [h for h in headers if str(h["key"]).lower() not in _SKIPPED_HEADERS]
        parameters = (
            path_params + field_parameters(url.query, "query") + field_parameters(header_fields, "header")
        )
        saved = item.get("response") or []
        if not isinstance(saved, list):
            raise self.ctx.error(f"`response` must be a list, got {type(saved).__name__}", where)
        descriptions = [text_of(request.get("description")), text_of(item.get("description"))]
        auth = request.get("auth", item.get("auth"))
        return _Variant(
            name=name,
            method=method,
            path=path,
            server=build_server(url.base, self.variables, max_chars=self.ctx.limits.max_variable_chars)
            if url.base
            else None,
            description="\n\n".join(dict.fromkeys(d for d in descriptions if d)),
            tag=FOLDER_SEPARATOR.join(folders) or None,
            parameters=parameters,
            content=request_content(request.get("body"), headers, self.ctx, where),
            responses=[saved_response(r, self.ctx, where) for r in saved],
            security=security if inherits(auth) else self.schemes.requirement(auth, where),
        )

    # ---- writing OpenAPI --------------------------------------------------------------------

    def _paths(self, main_server: Server | None) -> dict[str, Any]:
        groups: dict[str, dict[str, list[_Variant]]] = {}
        for variant in self.variants:
            groups.setdefault(variant.path, {}).setdefault(variant.method, []).append(variant)
        used_ids: set[str] = set()
        paths: dict[str, Any] = {}
        for path, methods in groups.items():
            item: dict[str, Any] = {}
            servers = list(dict.fromkeys(v.server for vs in methods.values() for v in vs if v.server))
            if any(s != main_server for s in servers):
                item["servers"] = [s.to_openapi() for s in servers]
            for method, variants in methods.items():
                item[method] = self._operation(variants, used_ids)
            paths[path] = item
        return paths

    def _operation(self, variants: list[_Variant], used_ids: set[str]) -> dict[str, Any]:
        first = variants[0]
        op: dict[str, Any] = {}
        tags = list(dict.fromkeys(v.tag for v in variants if v.tag))
        if tags:
            op["tags"] = tags
        op["summary"] = first.name
        description = _merged_description(variants)
        if description:
            op["description"] = description
        op["operationId"] = _unique(_operation_id(first), used_ids)
        parameters = _merged_parameters(variants)
        if parameters:
            op["parameters"] = parameters
        contents = [(v.name, v.content) for v in variants if v.content is not None]
        if contents:
            op["requestBody"] = {"content": _media_types(contents), "required": True}
        op["responses"] = _responses(variants)
        security = _merged_security(variants)
        if security != self.top_security:
            op["security"] = _copy_security(security)
        return op


def _copy_security(requirements: list[Requirement]) -> list[Requirement]:
    # Many operations share one folder's list; fresh copies keep YAML output free of &anchors.
    return [{name: list(scopes) for name, scopes in r.items()} for r in requirements]


def _tag(name: str, descriptions: list[str]) -> dict[str, Any]:
    return {"name": name, "description": "\n\n".join(descriptions)} if descriptions else {"name": name}


def _unify_path_names(variants: list[_Variant]) -> None:
    """`/users/{id}` and `/users/{userId}` are the same path to OpenAPI: use the first one's names."""
    canonical: dict[str, str] = {}
    for variant in variants:
        path = canonical.setdefault(_TEMPLATE_RE.sub("{}", variant.path), variant.path)
        if path == variant.path:
            continue
        renames = dict(zip(_TEMPLATE_RE.findall(variant.path), _TEMPLATE_RE.findall(path), strict=False))
        for param in variant.parameters:
            if param["in"] == "path":
                param["name"] = renames.get(param["name"], param["name"])
        variant.path = path


def _servers_by_use(variants: list[_Variant]) -> list[Server]:
    """Distinct servers, the most used first (ties: first seen first)."""
    counts = Counter(v.server for v in variants if v.server)
    return sorted(counts, key=lambda s: -counts[s])  # sorted is stable: first-seen order on ties


def _merged_description(variants: list[_Variant]) -> str:
    first = variants[0]
    parts = [first.description] if first.description else []
    for variant in variants[1:]:
        if variant.name == first.name and (not variant.description or variant.description in parts):
            continue
        extra = f"{variant.name}: {variant.description}" if variant.description else variant.name
        if extra not in parts:
            parts.append(extra)
    return "\n\n".join(parts)


def _operation_id(variant: _Variant) -> str:
    words = re.findall(r"[^\W_]+", variant.name)
    if not words:
        words = [variant.method, *re.findall(r"[^\W_]+", variant.path)]
    text = words[0].lower() + "".join(w[:1].upper() + w[1:] for w in words[1:])
    return text if not text[0].isdigit() else f"op{text}"


def _unique(name: str, used: set[str]) -> str:
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{name}{n}"
    used.add(candidate)
    return candidate


def _merged_parameters(variants: list[_Variant]) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for variant in variants:
        for param in variant.parameters:
            key = (param["in"], param["name"])
            if key not in merged:
                merged[key] = dict(param)
                continue
            kept = merged[key]
            for field_name in ("description", "example"):
                if field_name in param and field_name not in kept:
                    kept[field_name] = param[field_name]
            if not param.get("x-postman-disabled"):  # enabled anywhere → not flagged
                kept.pop("x-postman-disabled", None)
    return list(merged.values())


def _merged_security(variants: list[_Variant]) -> list[Requirement]:
    first = variants[0].security
    if all(v.security == first for v in variants):
        return first
    # Variants disagree: any of their requirements will do; `{}` stands for "no auth".
    merged: list[Requirement] = []
    for variant in variants:
        for requirement in variant.security or [{}]:
            if requirement not in merged:
                merged.append(requirement)
    return merged


def _responses(variants: list[_Variant]) -> dict[str, Any]:
    by_code: dict[str, list[tuple[str, SavedResponse]]] = {}
    for variant in variants:
        for saved in variant.responses:
            by_code.setdefault(saved.code, []).append((saved.name or variant.name, saved))
    if not by_code:
        return {"default": {"description": "No saved example response in the collection"}}
    responses: dict[str, Any] = {}
    for code in sorted(by_code, key=lambda c: (c == "default", c)):
        entries = by_code[code]
        names = list(dict.fromkeys(saved.name for _, saved in entries if saved.name))
        response: dict[str, Any] = {"description": "; ".join(names) or _phrase(code)}
        contents = [(label, saved.content) for label, saved in entries if saved.content is not None]
        if contents:
            response["content"] = _media_types(contents)
        responses[code] = response
    return responses


def _phrase(code: str) -> str:
    try:
        return HTTPStatus(int(code)).phrase
    except ValueError:
        return "Response"


def _media_types(contents: list[tuple[str, Content]]) -> dict[str, Any]:
    """Contents by media type: schemas merged, one `example` or several named `examples`."""
    by_type: dict[str, list[tuple[str, Content]]] = {}
    for label, content in contents:
        by_type.setdefault(content.media_type, []).append((label, content))
    result: dict[str, Any] = {}
    for media_type, entries in by_type.items():
        schema = entries[0][1].schema
        for _, content in entries[1:]:
            schema = merge_schemas(schema, content.schema)
        media: dict[str, Any] = {"schema": schema}
        examples: list[tuple[str, Any]] = []
        for label, content in entries:
            if content.has_example and all(content.example != value for _, value in examples):
                examples.append((label, content.example))
        if len(examples) == 1:
            media["example"] = examples[0][1]
        elif examples:
            keys: set[str] = set()
            media["examples"] = {
                _unique(re.sub(r"[^A-Za-z0-9._-]+", "_", label).strip("_") or "example", keys): {
                    "summary": label,
                    "value": value,
                }
                for label, value in examples
            }
        encoding: dict[str, Any] = {}
        for _, content in entries:
            for name, part in content.encoding.items():
                encoding.setdefault(name, part)
        if encoding:
            media["encoding"] = encoding
        result[media_type] = media
    return result
