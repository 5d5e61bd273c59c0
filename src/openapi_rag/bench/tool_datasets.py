"""Loaders for three public tool-use benchmarks, read as they are published (../shared/data/extra).

Each becomes one catalog (one index over all of its APIs), so retrieval has to pick the right
operations among every API of the benchmark, not among the few offered with a task:

- ``toolalpaca``: ``eval_real.json`` and ``eval_simulated.json``, lists of APIs each holding its
  OpenAPI document inline (``Documentation``, a JSON string), ``Instructions`` and
  ``Golden_Answers`` (the actions called, by name; ``Function_Projection`` maps a name to path and
  method). Domain: the file. An action that names no operation of its API (``getDetails``, a
  planning step of the benchmark) is reported and left out of the gold.
- ``stabletoolbench``: ``G{1,2,3}_*.json``, tasks carrying their candidate APIs (``api_list``) and
  gold (``relevant APIs`` as ``[tool, api name]``). RapidAPI APIs have no paths: every tool becomes a
  description with one operation per API (``METHOD /<api-name-slug>``), its parameters and response
  template kept. Domain: the file (G1_instruction, ...).
- ``nestful``: ``executable-spec.json`` (endpoints: name, host, method, endpoint, parameters) and
  ``executable-data.json`` (tasks: input and the nested calls made, by name). One description per
  host; gold: the distinct endpoints a task calls.

Documents built here are never written to disk; `service_from_document` turns them into
`Service` records the way `openapi_rag.spec.load_service` does a file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from openapi_rag.bench.dataset import Dataset, GoldIssue, Group, Query
from openapi_rag.bench.gold import GoldResolver, resolve_query_gold
from openapi_rag.bench.loaders import DatasetError, _read_json
from openapi_rag.errors import SpecError
from openapi_rag.model import Service
from openapi_rag.spec.load import unique_id

TOOL_DATASETS = ("toolalpaca", "stabletoolbench", "nestful")

Document = tuple[str, dict[str, Any], Path]  # (service id, OpenAPI document, file it came from)
RawTask = tuple[str, str, list[str], str]  # (query id, text, gold `SERVICE METHOD /path`, domain)


def load_tool_dataset(kind: str, path: Path) -> Dataset:
    """One of `TOOL_DATASETS` from its folder (or, for toolalpaca and nestful, one of its files)."""
    loaders: dict[str, Callable[[Path], tuple[list[Document], list[RawTask], list[GoldIssue]]]] = {
        "toolalpaca": _toolalpaca,
        "stabletoolbench": _stabletoolbench,
        "nestful": _nestful,
    }
    documents, tasks, issues = loaders[kind](path)
    if not tasks:
        raise DatasetError(f"{path}: no {kind} tasks found")
    services, failures = _services(documents)
    resolver = GoldResolver(services)
    queries = []
    for query_id, text, gold_raw, domain in tasks:
        gold, found = resolve_query_gold(query_id, gold_raw, resolver)
        issues += found
        queries.append(Query(id=query_id, text=text, gold=gold, group=kind, domain=domain))
    fingerprint = hashlib.sha256(
        json.dumps([[sid, doc] for sid, doc, _ in documents], sort_keys=True, default=str).encode()
    ).hexdigest()[:16]
    group = Group(name=kind, services=services, queries=queries, fingerprint=fingerprint)
    return Dataset(name=kind, kind=kind, groups=[group], issues=issues, load_failures=failures)


def service_from_document(service_id: str, document: dict[str, Any], source: Path) -> Service:
    """A `Service` from an OpenAPI document held in memory.

    The steps of `spec.load_service` after reading a file (format check, bundling, Swagger 2
    conversion, extraction). Relative `$ref`s resolve inside a folder that does not exist, so an
    inline document can never make the loader read a file.

    Raises:
        SpecError: not an OpenAPI 3 or Swagger 2 document, or no ``paths``.
    """
    # Through spec.load, which imports them in the order their modules need (spec and refs import
    # each other).
    from openapi_rag.spec.load import bundle, convert_swagger2, detect_format, extract_service

    where = source.parent / ".inline" / f"{service_id}.json"
    fmt = detect_format(document, source)
    if fmt == "postman" or "paths" not in document:
        raise SpecError("not an OpenAPI document with `paths`", file=source, where=service_id)
    section = ("definitions",) if fmt == "swagger2" else ("components", "schemas")
    bundled = bundle(where, document, section)
    doc = convert_swagger2(bundled.document) if fmt == "swagger2" else bundled.document
    return extract_service(
        doc, service_id=service_id, file=str(source), format=fmt, problems=bundled.problems
    )


def _services(documents: Sequence[Document]) -> tuple[list[Service], list[str]]:
    services, failures = [], []
    for service_id, document, source in documents:
        try:
            services.append(service_from_document(service_id, document, source))
        except SpecError as exc:
            failures.append(f"{source}: {service_id}: {exc.reason}")
    return services, failures


def _slug(text: str, fallback: str = "api") -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or fallback



def _files(path: Path, pattern: str) -> list[Path]:
    files = sorted(path.glob(pattern)) if path.is_dir() else [path]
    if not files:
        raise DatasetError(f"{path}: no {pattern} files")
    return files


def _list_of_dicts(value: Any, file: Path) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(x, dict) for x in value):
        raise DatasetError(f"{file}: expected a list of objects")
    return value


# --------------------------------------------------------------------------- ToolAlpaca


def _toolalpaca(path: Path) -> tuple[list[Document], list[RawTask], list[GoldIssue]]:
    documents: list[Document] = []
    tasks: list[RawTask] = []
    issues: list[GoldIssue] = []
    taken: set[str] = set()
    for file in _files(path, "eval_*.json"):
        for n, api in enumerate(_list_of_dicts(_read_json(file), file), 1):
            name = str(api.get("Name") or f"api-{n}")
            service_id = unique_id(_slug(name), taken)
            try:
                document = json.loads(api.get("Documentation") or "")
            except (TypeError, ValueError) as exc:
                raise DatasetError(f"{file}: API {name!r}: Documentation is not JSON: {exc}") from exc
            documents.append((service_id, document, file))
            projection = api.get("Function_Projection") or {}
            by_operation_id = _operation_ids(document)
            instructions = api.get("Instructions") or []
            answers = api.get("Golden_Answers") or []
            if len(instructions) != len(answers):
                raise DatasetError(
                    f"{file}: API {name!r}: {len(instructions)} instructions, {len(answers)} answers"
                )
            for i, (text, calls) in enumerate(zip(instructions, answers, strict=True), 1):
                query_id = f"{file.stem}/{service_id}/{i:02d}"
                gold = []
                for action in dict.fromkeys(c.get("Action") for c in calls if isinstance(c, dict)):
                    target = projection.get(action) or by_operation_id.get(action)
                    if target is None:
                        issues.append(
                            GoldIssue(
                                query_id, str(action), "not-an-operation", "names no operation of the API"
                            )
                        )
                        continue
                    gold.append(f"{service_id} {str(target[1]).upper()} {target[0]}")
                tasks.append((query_id, str(text), gold, file.stem))
    return documents, tasks, issues


def _operation_ids(document: Any) -> dict[str, tuple[str, str]]:
    """operationId → (path, method) in a parsed document."""
    out: dict[str, tuple[str, str]] = {}
    paths = document.get("paths") if isinstance(document, dict) else None
    for p, item in (paths or {}).items():
        for method, op in (item or {}).items() if isinstance(item, dict) else ():
            if isinstance(op, dict) and isinstance(op.get("operationId"), str):
                out[op["operationId"]] = (str(p), method)
    return out


# --------------------------------------------------------------------------- StableToolBench


def _stabletoolbench(path: Path) -> tuple[list[Document], list[RawTask], list[GoldIssue]]:
    tools: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)  # tool -> api name -> entry
    raw: list[tuple[str, str, list[tuple[str, str]], str]] = []
    files = _files(path, "G*_*.json")
    for file in files:
        for n, task in enumerate(_list_of_dicts(_read_json(file), file), 1):
            for api in task.get("api_list") or []:
                if isinstance(api, dict) and api.get("tool_name") and api.get("api_name"):
                    tools[str(api["tool_name"])].setdefault(str(api["api_name"]), api)
            relevant = [(str(t), str(a)) for t, a, *_ in task.get("relevant APIs") or [] if t and a]
            query_id = f"{file.stem}/{task.get('query_id', n)}"
            raw.append((query_id, str(task.get("query") or ""), relevant, file.stem))
    documents: list[Document] = []
    where: dict[tuple[str, str], str] = {}  # (tool, api name) -> `SERVICE METHOD /path`
    taken: set[str] = set()
    for tool in sorted(tools):
        service_id = unique_id(_slug(tool), taken)
        paths: dict[str, dict[str, Any]] = {}
        used: set[str] = set()
        for api_name, api in tools[tool].items():
            method = str(api.get("method") or "GET").lower()
            route = "/" + unique_id(_slug(api_name), used)
            paths[route] = {method: _rapidapi_operation(api)}
            where[(tool, api_name)] = f"{service_id} {method.upper()} {route}"
        category = next(iter(tools[tool].values())).get("category_name") or ""
        info = {"title": tool, "version": "rapidapi", "description": f"{tool} ({category} on RapidAPI)"}
        documents.append((service_id, {"openapi": "3.0.0", "info": info, "paths": paths}, files[0]))
    tasks = [
        (qid, text, [where.get(r, f"{r[0]} GET /{_slug(r[1])}") for r in rel], d) for qid, text, rel, d in raw
    ]
    return documents, tasks, []


def _rapidapi_operation(api: dict[str, Any]) -> dict[str, Any]:
    params = []
    for required, key in ((True, "required_parameters"), (False, "optional_parameters")):
        for p in api.get(key) or []:
            if isinstance(p, dict) and p.get("name"):
                schema = {"type": _json_type(p.get("type"))}
                params.append(
                    {"name": str(p["name"]), "in": "query", "required": required, "schema": schema}
                    | ({"description": str(p["description"])} if p.get("description") else {})
                )
    operation: dict[str, Any] = {
        "summary": str(api.get("api_name")),
        "description": str(api.get("api_description") or ""),
        "parameters": params,
        "responses": {"200": {"description": "OK"}},
    }
    template = api.get("template_response")
    if isinstance(template, dict):
        # The example response is what the API returns; a schema would be guessed, so keep it as is.
        operation["responses"]["200"]["content"] = {"application/json": {"example": template}}
    return operation


def _json_type(value: Any) -> str:
    kind = str(value or "string").lower()
    return {
        "number": "number",
        "integer": "integer",
        "boolean": "boolean",
        "array": "array",
        "object": "object",
    }.get(kind, "string")


# --------------------------------------------------------------------------- NESTFUL


def _nestful(path: Path) -> tuple[list[Document], list[RawTask], list[GoldIssue]]:
    folder = path if path.is_dir() else path.parent
    spec_file, data_file = folder / "executable-spec.json", folder / "executable-data.json"
    for f in (spec_file, data_file):
        if not f.is_file():
            raise DatasetError(
                f"{folder}: a NESTFUL folder holds executable-spec.json and executable-data.json"
            )
    by_host: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    target: dict[str, str] = {}  # endpoint name -> `SERVICE METHOD /path`
    service_of_host: dict[str, str] = {}
    taken: set[str] = set()
    for endpoint in _list_of_dicts(_read_json(spec_file), spec_file):
        host, route = str(endpoint.get("host") or ""), str(endpoint.get("endpoint") or "")
        if not host or not route.startswith("/") or not endpoint.get("name"):
            raise DatasetError(
                f"{spec_file}: endpoint {endpoint.get('name')!r} lacks a name, host or endpoint path"
            )
        if host not in service_of_host:
            service_of_host[host] = unique_id(_slug(host.split(".")[0]), taken)
        method = str(endpoint.get("method") or "GET").lower()
        # Two names for one endpoint (different presets of the same call) are one operation.
        by_host[host].setdefault(route, {}).setdefault(method, _nestful_operation(endpoint))
        target[str(endpoint["name"])] = f"{service_of_host[host]} {method.upper()} {route}"
    documents: list[Document] = [
        (
            service_of_host[host],
            {"openapi": "3.0.0", "info": {"title": host, "version": "1"}, "paths": paths},
            spec_file,
        )
        for host, paths in by_host.items()
    ]
    tasks: list[RawTask] = []
    issues: list[GoldIssue] = []
    for n, task in enumerate(_list_of_dicts(_read_json(data_file), data_file), 1):
        query_id = f"nestful-{n:03d}"
        gold = []
        for call in task.get("output") or []:
            name = call.get("name") if isinstance(call, dict) else None
            if name == "var_result":  # the benchmark's final assembly step, not an API call
                continue
            if name not in target:
                issues.append(GoldIssue(query_id, str(name), "not-an-operation", "no endpoint of that name"))
                continue
            gold.append(target[name])
        tasks.append((query_id, str(task.get("input") or ""), list(dict.fromkeys(gold)), "nestful"))
    return documents, tasks, issues


def _nestful_operation(endpoint: dict[str, Any]) -> dict[str, Any]:
    params = []
    for location, key in (("query", "query_parameters"), ("path", "path_parameters")):
        for name, spec in (endpoint.get(key) or {}).items():
            spec = spec if isinstance(spec, dict) else {}
            param = {
                "name": str(name),
                "in": location,
                "required": location == "path" or bool(spec.get("required")),
                "schema": {"type": _json_type(spec.get("type"))}
                | ({"enum": spec["enum"]} if spec.get("enum") else {}),
            }
            if spec.get("description"):
                param["description"] = str(spec["description"])
            params.append(param)
    properties = {
        str(k): {"type": _json_type(v.get("type")), "description": str(v.get("description") or "")}
        for k, v in (endpoint.get("output_parameters") or {}).items()
        if isinstance(v, dict)
    }
    return {
        "operationId": str(endpoint["name"]),
        "description": str(endpoint.get("description") or ""),
        "parameters": params,
        "responses": {
            "200": {
                "description": "OK",
                "content": {"application/json": {"schema": {"type": "object", "properties": properties}}},
            }
        },
    }
