"""Score crawled documents against the specs the pages were rendered from (SpeCrawler's metrics).

Per page: operations found (method + path template, the server's base path included, precision
and recall); on matched operations, request and response parameter names (precision, recall, F1,
micro-averaged), precision of `in`, `type` and `required` on matched names, and the cosine of
the descriptions under the default embedder; per document: valid JSON, valid OpenAPI, warnings.
Request parameters are the path/query/header/cookie parameters and the request body's properties;
response parameters are the properties of the first 2xx (else default) JSON response; property
names count down to `MAX_DEPTH` levels of nesting, the same on both sides.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

MAX_DEPTH = 4
_TEMPLATE = re.compile(r"{[^}]*}")
_COLON = re.compile(r"/:[A-Za-z_][\w-]*")
SPEC_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass
class Param:
    name: str
    location: str  # path | query | header | cookie | body | response
    type: str | None
    required: bool | None


@dataclass
class Op:
    key: tuple[str, str]
    request: dict[str, Param]
    response: dict[str, Param]
    description: str
    relative: tuple[str, str] = ("", "")  # (METHOD, path template without the server's base path)


def _base_path(document: dict[str, Any]) -> str:
    servers = document.get("servers") or []
    server = servers[0] if servers and isinstance(servers[0], dict) else {}
    url = server.get("url", "")
    if not isinstance(url, str):
        return ""
    for name, variable in (server.get("variables") or {}).items():
        if isinstance(variable, dict):
            url = url.replace("{" + str(name) + "}", str(variable.get("default", "")))
    url = re.sub(r"^{[^}]*}://", "https://", url)
    return urlsplit(url).path.rstrip("/")


def operation_key(method: str, base: str, path: str) -> tuple[str, str]:
    """(METHOD, full path) with every template variable as `{}` (`{id}`, `:id` alike)."""
    full = (base + "/" + path.lstrip("/")).rstrip("/")
    full = _COLON.sub("/{}", _TEMPLATE.sub("{}", full)) or "/"
    return method.upper(), full


def extract_operations(spec: Path) -> dict[tuple[str, str], Op]:
    """Operations of a spec file (any format the project loads), with their parameter records."""
    from openapi_rag.refs.inline import inline_schemas
    from openapi_rag.spec.load import load_service

    service = load_service(spec, clean=[])
    base = _base_path(service.document)
    out: dict[tuple[str, str], Op] = {}
    for op in service.operations:
        raw = inline_schemas(op.raw, service.schemas, MAX_DEPTH)
        request: dict[str, Param] = {}
        for param in raw.get("parameters") or []:
            if isinstance(param, dict) and param.get("in") != "body" and param.get("name"):
                schema = param.get("schema") or {}
                request.setdefault(
                    str(param["name"]),
                    Param(
                        str(param["name"]), str(param.get("in")), _type(schema), _flag(param.get("required"))
                    ),
                )
        content = (raw.get("requestBody") or {}).get("content")
        for name, param in _properties(_json_schema(content), "body").items():
            request.setdefault(name, param)
        for name, param in _properties(_example_schema(content), "body").items():
            request.setdefault(name, param)
        response: dict[str, Param] = {}
        responses = raw.get("responses") or {}
        codes = sorted(str(c) for c in responses if str(c).startswith("2")) or [
            c for c in ("default",) if c in responses
        ]
        for code in codes[:1]:
            content = (responses.get(code) or {}).get("content")
            response = _properties(_json_schema(content), "response")
            for name, param in _properties(_example_schema(content), "response").items():
                response.setdefault(name, param)
        description = " ".join(x for x in (op.summary, op.description) if x).strip()
        out[operation_key(op.method, base, op.path)] = Op(
            operation_key(op.method, base, op.path),
            request,
            response,
            description,
            operation_key(op.method, "", op.path),
        )
    return out


def _json_schema(content: Any) -> dict[str, Any]:
    if not isinstance(content, dict) or not content:
        return {}
    media = next((m for m in content if "json" in str(m)), next(iter(content)))
    schema = (content.get(media) or {}).get("schema")
    return schema if isinstance(schema, dict) else {}


def _example_schema(content: Any) -> dict[str, Any]:
    """A schema inferred from the media type's example(s): a spec documents fields there too."""
    from openapi_rag.convert.infer import infer_schema

    if not isinstance(content, dict) or not content:
        return {}
    media = content.get(next((m for m in content if "json" in str(m)), next(iter(content)))) or {}
    if not isinstance(media, dict):
        return {}
    values = [media["example"]] if "example" in media else []
    for example in (media.get("examples") or {}).values():
        if isinstance(example, dict) and "value" in example:
            values.append(example["value"])
    schema = (media.get("schema") or {}) if isinstance(media.get("schema"), dict) else {}
    if not values and "example" in schema:
        values.append(schema["example"])
    merged: dict[str, Any] = {"type": "object", "properties": {}}
    for value in values:
        inferred = infer_schema(value)
        merged["properties"].update(_properties_of(inferred))
    return merged


def _example_schema_of(value: Any) -> dict[str, Any]:
    from openapi_rag.convert.infer import infer_schema

    return infer_schema(value)


def _properties_of(schema: dict[str, Any]) -> dict[str, Any]:
    while schema.get("type") == "array":
        schema = schema.get("items") or {}
    return schema.get("properties") or {}


def _flag(value: Any) -> bool:
    """A spec's boolean as its author meant it: RestBench's Spotify spec writes `required: "false"` (a string,
    which `bool` and a JavaScript renderer read as true; openapi-markdown draws it as "false")."""
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def _type(schema: Any) -> str | None:
    if not isinstance(schema, dict):
        return None
    type_ = schema.get("type")
    if isinstance(type_, list):
        type_ = next((t for t in type_ if t != "null"), None)
    if type_ is None and ("properties" in schema or "allOf" in schema):
        return "object"
    return type_ if isinstance(type_, str) else None


def _properties(schema: Any, location: str, depth: int = 1) -> dict[str, Param]:
    """Property names (all levels down to MAX_DEPTH) with type and whether their parent requires them."""
    out: dict[str, Param] = {}
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return out
    if schema.get("type") == "array" or "items" in schema:
        return _properties(schema.get("items"), location, depth)
    for combiner in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(combiner) or []:
            for name, param in _properties(part, location, depth).items():
                out.setdefault(name, param)
    required = set(schema.get("required") or []) if isinstance(schema.get("required"), list) else set()
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, child in props.items():
            out.setdefault(str(name), Param(str(name), location, _type(child), name in required))
            for inner, param in _properties(child, location, depth + 1).items():
                out.setdefault(inner, param)
    example = schema.get("example")
    if isinstance(example, dict):
        # A schema's own example names fields the page shows too; read after the declared ones, whose
        # type and `required` the example cannot say (a whole number in it does not make a `number`
        # property an integer).
        for name, param in _properties(_example_schema_of(example), location, depth).items():
            out.setdefault(name, param)
    return out


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, truth: set[str], predicted: set[str]) -> None:
        self.tp += len(truth & predicted)
        self.fp += len(predicted - truth)
        self.fn += len(truth - predicted)

    def prf(self) -> dict[str, float]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else math.nan
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else math.nan
        f = (
            2 * p * r / (p + r)
            if p + r and not math.isnan(p + r)
            else (0.0 if p == 0 or r == 0 else math.nan)
        )
        return {"precision": p, "recall": r, "f1": f}


@dataclass
class Agreement:
    right: int = 0
    total: int = 0

    def add(self, truth: Any, predicted: Any) -> None:
        if truth is None or predicted is None:
            return
        self.total += 1
        self.right += truth == predicted

    def value(self) -> float:
        return self.right / self.total if self.total else math.nan


@dataclass
class PageScore:
    page: str
    ops: Counts = field(default_factory=Counts)
    ops_relative: Counts = field(default_factory=Counts)  # paths without the server's base path
    request: Counts = field(default_factory=Counts)
    response: Counts = field(default_factory=Counts)
    location: Agreement = field(default_factory=Agreement)
    type: Agreement = field(default_factory=Agreement)
    required: Agreement = field(default_factory=Agreement)
    description_pairs: list[tuple[str, str]] = field(default_factory=list)
    valid_json: bool = True
    valid_openapi: bool = True
    warnings: int = 0


def score_page(
    page: str, truth: dict[tuple[str, str], Op], predicted: dict[tuple[str, str], Op]
) -> PageScore:
    score = PageScore(page)
    score.ops.add(set(map(str, truth)), set(map(str, predicted)))
    score.ops_relative.add(
        {str(op.relative) for op in truth.values()}, {str(op.relative) for op in predicted.values()}
    )
    for t, p in _pairs(truth, predicted):
        score.request.add(set(t.request), set(p.request))
        score.response.add(set(t.response), set(p.response))
        for name in t.request.keys() & p.request.keys():
            score.location.add(t.request[name].location, p.request[name].location)
            score.type.add(t.request[name].type, p.request[name].type)
            score.required.add(t.request[name].required, p.request[name].required)
        for name in t.response.keys() & p.response.keys():
            score.type.add(t.response[name].type, p.response[name].type)
        if t.description and p.description:
            score.description_pairs.append((t.description, p.description))
    return score


def _pairs(truth: dict[tuple[str, str], Op], predicted: dict[tuple[str, str], Op]) -> list[tuple[Op, Op]]:
    """Truth and crawled operations to score fields on: the same full key, else (a page that never
    shows its server) the same path relative to the server, when that names one operation on each side."""
    pairs = [(truth[key], predicted[key]) for key in truth.keys() & predicted.keys()]
    left_truth = [op for key, op in truth.items() if key not in predicted]
    left_pred = [op for key, op in predicted.items() if key not in truth]
    for op in left_truth:
        same = [p for p in left_pred if p.relative == op.relative]
        if len(same) == 1 and sum(t.relative == op.relative for t in left_truth) == 1:
            pairs.append((op, same[0]))
    return pairs
