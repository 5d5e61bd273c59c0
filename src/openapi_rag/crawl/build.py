"""Evidence → OpenAPI 3.0.3: skeleton from requests, schemas from examples, fields from tables.

Merge rule (SpeCrawler's): types and locations come from the base (the request samples and the
examples) where it has them; descriptions and `required` come from the enrichment (tables, prose,
LLM). Every name must occur in the page (the hallucination filter), so a stage can add fields but
never invent one.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from openapi_rag.convert.infer import merge_schemas
from openapi_rag.crawl.custom_headers import is_custom_header
from openapi_rag.crawl.example_schema import placeholder_type, schema_from_example, stated_types
from openapi_rag.crawl.page_words import PageWords
from openapi_rag.crawl.row_schemas import schema_from_rows, with_references
from openapi_rag.crawl.samples import query_values, split_url
from openapi_rag.crawl.scrape import Evidence, Scraped
from openapi_rag.crawl.tables import SCALARS, FieldRow, is_request_header

_SKIP_HEADERS = {"accept", "content-type", "host", "content-length", "user-agent", "connection"}
_PATH_PARAM = re.compile(r"{([^}/]+)}")
_DEEP_OBJECT = re.compile(r"([A-Za-z_][\w.-]{0,99})(?:\[[A-Za-z_][\w.-]{0,99}\])+")  # "filter[city]", "sort[by]"
# A query parameter that carries the caller's key is a security scheme (OpenAPI's apiKey in query).
_QUERY_KEY = re.compile(r"api[-_]?key|access[-_]?token", re.I)


@dataclass
class Report:
    """What a crawl found: counts per source, and warnings."""

    pages: int = 0
    operations: int = 0
    parameters: Counter[str] = field(default_factory=Counter)  # source -> count
    dropped: list[str] = field(default_factory=list)  # names the hallucination filter removed
    warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "pages": self.pages,
            "operations": self.operations,
            "parameters": dict(sorted(self.parameters.items())),
            "dropped": self.dropped,
            "warnings": self.warnings,
        }


def build_document(scraped: list[Scraped], page_text: str | PageWords, report: Report) -> dict[str, Any]:
    """One OpenAPI document for all scraped pages."""
    if isinstance(page_text, str):
        page_text = PageWords(page_text)
    servers: Counter[str] = Counter()
    paths: dict[str, dict[str, Any]] = {}
    schemes: dict[str, Any] = {}
    title = next((s.title for s in scraped if s.title), "Crawled API")
    description = next((s.description for s in scraped if s.description), "")
    for page in scraped:
        servers.update(page.servers)
        stated = stated_types(page.schemas)
        for evidence in page.operations:
            item = paths.setdefault(evidence.path, {})
            method = evidence.method.lower()
            operation = build_operation(evidence, page_text, report, schemes, page.schemas, stated)
            if method in item:
                report.warnings.append(f"{evidence.method} {evidence.path}: documented twice; kept the first")
                continue
            item[method] = operation
            report.operations += 1
    document: dict[str, Any] = {
        "openapi": "3.0.3",
        "info": {"title": title, "version": "crawled", "description": description},
        "paths": dict(sorted(paths.items())),
    }
    if servers:
        document["servers"] = [{"url": url} for url, _ in servers.most_common(3)]
    if schemes:
        document["components"] = {"securitySchemes": schemes}
    return document


def build_operation(
    evidence: Evidence,
    page_text: PageWords,
    report: Report,
    schemes: dict[str, Any],
    named: dict[str, list[FieldRow]] | None,
    stated: dict[str, str],
) -> dict[str, Any]:
    operation: dict[str, Any] = {}
    if evidence.title:
        operation["summary"] = evidence.title[:200]
    if evidence.prose:
        operation["description"] = "\n\n".join(evidence.prose[:3])
    params: dict[tuple[str, str], dict[str, Any]] = {}
    body: dict[str, Any] | None = None
    security: list[dict[str, list[str]]] = []

    def add_param(name: str, location: str, source: str, **extra: Any) -> None:
        if name not in page_text:
            report.dropped.append(f"{evidence.method} {evidence.path}: {name}")
            return
        key = (name, location)
        if key in params:
            current = params[key]
            for k, v in extra.items():  # enrichment fills in what the base left open
                if v not in (None, "") and (k in ("description", "required") or k not in current):
                    current[k] = v
            return
        param = {"name": name, "in": location, "x-source": source}
        param.update({k: v for k, v in extra.items() if v not in (None, "")})
        params[key] = param
        report.parameters[source] += 1

    # Base: the path template and the request samples.
    # A template or a query string names a parameter but shows no type: tables may give one later
    # (a missing schema becomes a string at the end).
    for name in _PATH_PARAM.findall(evidence.path):
        add_param(name, "path", "example", required=True)
    for sample in evidence.samples:
        _, _, query = split_url(sample.url)
        values = query_values(sample.url)
        for name in query:
            if _QUERY_KEY.fullmatch(name):  # "?api_key=YOUR_KEY": the API's key, not a parameter
                schemes[f"{name}Query"] = {"type": "apiKey", "in": "query", "name": name}
                security.append({f"{name}Query": []})
                continue
            # a placeholder value names the type ("?limit=<integer>"); any other value shows none
            typed = placeholder_type(values.get(name, ""))
            add_param(name, "query", "example", schema={"type": typed} if typed else None)
        for name, value in sample.headers.items():
            scheme = _security_from_header(name, value)
            if scheme is not None:
                schemes[scheme[0]] = scheme[1]
                security.append({scheme[0]: []})
            elif name.lower() not in _SKIP_HEADERS:
                add_param(name, "header", "example", schema={"type": "string"})
        if sample.user:
            schemes["basicAuth"] = {"type": "http", "scheme": "basic"}
            security.append({"basicAuth": []})
        if sample.body is not None:
            body = _merge(body, schema_from_example(sample.body, stated))
            report.parameters["example"] += _count_fields(sample.body)
        if sample.form:
            form = {"type": "object", "properties": {n: {"type": "string"} for n in sample.form}}
            body = _merge(body, form)
    for example in evidence.request_examples:
        body = _merge(body, schema_from_example(example, stated))
        report.parameters["example"] += _count_fields(example)

    # Enrichment: tables (and prose via the LLM stage, which adds rows of its own).
    body_rows: list[FieldRow] = []
    sends_form = evidence.method in ("POST", "PUT", "PATCH") and _sends_form(evidence)
    object_param: int | None = None  # the depth of the last parameter of an object type, if it was the last
    body_params = [row for kind, row in evidence.params if kind == "body"]
    schema_rows = [row for kind, row in evidence.params if kind == "param" and row.ref in (named or {})]
    sole_schema_row = schema_rows[0] if len(schema_rows) == 1 and not body_params else None
    for kind, row in evidence.params:
        # A body "parameter" named after a schema the page documents ("NewPet"): its fields; so is
        # such a row of a POST/PUT/PATCH parameter table that states no location.
        # (A type cell linking to the schema it is named after says the same.)
        schema_named = row.ref in ("", row.name) and row.name in (named or {}) and _object_or_list(row)
        # A row named "body" (a Swagger 2 body parameter's usual name) whose type links to a schema the page
        # documents ("body | rejects_list") is that schema's fields as well (thirty-fifth round).
        linked_body = row.name.lower() == "body" and row.ref in (named or {}) and _object_or_list(row)
        # So is the one row of a body-taking operation whose type links to a documented schema, stating no place,
        # where no row is the body's ("pet | NewPet | Pet to add to the store": a Swagger 2 body parameter by
        # any name; thirty-sixth round).
        typed_body = (
            not linked_body
            and not schema_named
            and kind == "param"
            and row.ref in (named or {})
            and _object_or_list(row)
            and sole_schema_row == row
        )
        # A body parameter's row that states no type but whose description ends with a documented schema's
        # name, as the cell draws its type after the words ("pet | Pet to add to the store NewPet"), is that
        # schema's fields (thirty-sixth round).
        described = _described_schema(row, named or {}) if kind == "body" and len(body_params) == 1 else ""
        typed_list = typed_body and row.type == "array"
        if kind == "body" or (
            (schema_named or linked_body or typed_body)
            and row.location is None
            and evidence.method in ("POST", "PUT", "PATCH")
        ):
            if schema_named:
                row = replace(row, name="body", ref=row.name)
            elif typed_body or described:
                row = replace(row, name="body", ref=described or row.ref, type="array" if typed_list else "object")
            body_rows.append(row)
            continue
        # A row drawn one level deeper right under an object parameter ("pass_through | object", then
        # "» example_downstream_property") is a property of that parameter, no parameter of its own (thirty-fifth
        # round); so are the rows below it, down to the next row at the parameter's depth.
        if object_param is not None and row.depth > object_param:
            report.dropped.append(f"{evidence.method} {evidence.path}: {row.name} (a parameter's property)")
            continue
        object_param = row.depth if row.type == "object" else None
        if row.location in (None, "query") and (deep := _DEEP_OBJECT.fullmatch(row.name)):
            # A query parameter drawn as its object's keys, one row each ("filter[city]", "filter[email]": OpenAPI's
            # deepObject style) is the one parameter they are keys of, an object (thirty-sixth round).
            row = replace(row, name=deep.group(1), type="object", location="query")
        # No place stated: a name in the path template is a path parameter, a standard request header's name
        # ("Authorization") or one shaped as headers are named ("Xero-Tenant-Id", "x-apideck-consumer-id") a
        # header, a field of a form the operation says it sends a form field, any other a query parameter.
        in_path = "{" + row.name + "}" in evidence.path
        header = is_request_header(row.name) or is_custom_header(row.name)
        placed = any(name == row.name for name, _ in params)  # a name the requests already placed keeps its place
        # (A form field named "body" would read as the body's own wrapper: it stays where it was.)
        wrapper = row.name.lower() == "body"
        if sends_form and kind == "param" and row.location is None and not (in_path or header or placed or wrapper):
            body_rows.append(row)
            continue
        location = row.location or ("path" if in_path else "header" if header else "query")
        # Locations come from the base: a name the requests already placed keeps its place.
        location = next((loc for name, loc in params if name == row.name), location)
        if location == "path" and "{" + row.name + "}" not in evidence.path:
            # A path parameter the template does not hold would make the document invalid; such a
            # row is a misread (a description's first word) or another operation's.
            report.dropped.append(f"{evidence.method} {evidence.path}: {row.name} (not in the path)")
            continue
        schema = {"type": row.type or "string"}
        if schema["type"] == "array":
            schema["items"] = {}
        required = True if location == "path" else row.required
        add_param(
            row.name, location, row.source, schema=schema, required=required, description=row.description
        )
    if (
        len(body_rows) == 1
        and not body_rows[0].type
        and not body_rows[0].ref
        and (
            (body is not None and body_rows[0].name not in (body.get("properties") or {}))
            # or nothing says more of it than that it is required: no description, the only row of the body's
            # parameters ("projectsPostRequest *" under "Body parameters", its schema filled in by a script; a form's
            # one field, "file | undefined | file", marks nothing: a field). Fortieth round.
            or (
                body is None
                and body_params == body_rows
                and body_rows[0].required
                and not body_rows[0].description.strip()
            )
        )
    ):
        # A body parameter's one row that states no type and links to nothing ("menu *", its schema drawn by a
        # script or not at all) names the body itself, whose fields the request sample shows: no field of its
        # own (thirty-sixth round).
        report.dropped.append(f"{evidence.method} {evidence.path}: {body_rows[0].name} (the body's own name)")
        body_rows = []
    if evidence.request_ref in (named or {}) and not body_rows and body is None:
        body_rows = [FieldRow("body", ref=evidence.request_ref, type="object")]  # its fields, one level
    if body_rows:
        table_schema = schema_from_rows(with_references(body_rows, named or {}), page_text, report.dropped)
        if table_schema.get("properties"):
            listed = body is None and len(body_rows) == 1 and body_rows[0].name == "body"
            # a list of the schema its one row links to (fortieth round)
            body = _merge(body, table_schema, enrich=True)
            if listed and body_rows[0].type == "array":
                body = {"type": "array", "items": body}
            for row in body_rows:
                report.parameters[row.source] += row.name in table_schema["properties"]

    if params:
        operation["parameters"] = [_finish_param(p) for p in params.values()]
    if body is not None and (body.get("properties") or body.get("type") == "array"):
        operation["requestBody"] = {"content": {"application/json": {"schema": body}}}
    operation["responses"] = _responses(evidence, page_text, report, named or {}, stated)
    if security:
        unique = []
        for item in security:
            if item not in unique:
                unique.append(item)
        operation["security"] = unique
    return operation


# The request header that says a form is sent ("Content-Type: application/x-www-form-urlencoded", as a list of the
# operation's request headers states it).
_FORM_SENT = re.compile(r"content-type\s*:\s*(?:application/x-www-form-urlencoded|multipart/form-data)\b.*", re.I)


def _sends_form(evidence: Evidence) -> bool:
    """Whether the operation's part states that its request sends a form (its Content-Type header's value): then
    a parameter of no stated place, neither in the path nor a header, is one of the form's fields, as code
    generators list form fields among the parameters in one table (thirty-ninth round)."""
    return any(block.kind == "text" and _FORM_SENT.fullmatch(block.text.strip()) for block in evidence.blocks)


def _object_or_list(row: FieldRow) -> bool:
    """Whether a row's type is a schema's: an object, or none stated, or a list whose type cell links to the
    schema of its items ("Timesheet | [List](Models/Timesheet.md)", a body that is an array of them, as
    generators draw a Swagger 2 body parameter of `type: array`; issue 17's fortieth round)."""
    return row.type in (None, "object") or (row.type == "array" and bool(row.ref))


def _described_schema(row: FieldRow, named: dict[str, list[FieldRow]]) -> str:
    """The documented schema a body row of no type names by its description's last word ("Pet to add to the store
    NewPet"); "" where it names none."""
    if row.type or row.ref or not row.description.split():
        return ""
    last = row.description.split()[-1].strip(".,;:[]()")
    return last if last in named and last != row.name else ""


def _finish_param(param: dict[str, Any]) -> dict[str, Any]:
    param.setdefault("schema", {"type": "string"})
    if param["in"] == "path":
        param["required"] = True
    elif "required" in param:
        param["required"] = bool(param["required"])
    return param


def _responses(
    evidence: Evidence,
    page_text: PageWords,
    report: Report,
    named: dict[str, list[FieldRow]],
    stated: dict[str, str],
) -> dict[str, Any]:
    documented = [s for s, _ in evidence.statuses]
    success = next((s for s in documented if s.startswith("2")), None)
    schemas: dict[str, dict[str, Any]] = {}
    for status, examples in evidence.response_examples.items():
        codes = [status or success or "200"] * len(examples)
        if not status and documented[:1] == [success] and 1 < len(examples) <= len(documented):
            # Examples no label ties to a status ("Example data", twice) follow the documented statuses
            # in order, the success first: merged, an error's fields would join the success's.
            codes = documented[: len(examples)]
        for code, example in zip(codes, examples, strict=True):
            schemas[code] = _merge(schemas.get(code), schema_from_example(example, stated))
            report.parameters["example"] += _count_fields(example)
    for status, rows in evidence.response_fields.items():
        code = status or success or "200"
        table_schema = schema_from_rows(with_references(rows, named), page_text, report.dropped)
        if table_schema.get("properties"):
            schemas[code] = _merge(schemas.get(code), table_schema, enrich=True)
            report.parameters["table"] += _count_schema(table_schema)
    # A status that names a schema documented in its own page section: that section's fields, whose
    # stated types outrank an example's literals ("height": "300" where the schema says integer).
    for code, name in evidence.response_refs.items():
        if code.startswith("2") and name in named:
            table_schema = schema_from_rows(with_references(named[name], named), page_text, report.dropped)
            if table_schema.get("properties"):
                schemas[code] = _merge(schemas.get(code), table_schema, enrich=True)
                report.parameters["table"] += _count_schema(table_schema)
    responses: dict[str, Any] = {}
    descriptions = dict(evidence.statuses)
    for code in sorted(set(documented) | set(schemas), key=lambda c: (c == "default", c)):
        response: dict[str, Any] = {"description": descriptions.get(code) or "Response"}
        if code in schemas:
            response["content"] = {"application/json": {"schema": schemas[code]}}
        responses[code] = response
    if not responses:
        responses["default"] = {"description": "Response (not documented on the page)"}
    return responses


def _merge(base: dict[str, Any] | None, other: dict[str, Any], *, enrich: bool = False) -> dict[str, Any]:
    """Combine two schemas; with `enrich`, `other` adds descriptions/required (SpeCrawler's merge) and
    structure (objects, arrays) stays the base's."""
    if base is None:
        return other
    if not enrich:
        return merge_schemas(base, other)
    out = dict(base)
    if base.get("type") == "array" and other.get("type") == "object":
        out["items"] = _merge(base.get("items") or {}, other, enrich=True)
        return out
    for key in ("description", "required"):
        if other.get(key):
            out[key] = other[key]
    # One example value cannot tell a number from an integer, and documentation often quotes numbers
    # ("width": "300"): a scalar type a table states outranks the type of an example literal.
    if base.get("type") in SCALARS and other.get("type") in SCALARS and base["type"] != other["type"]:
        out["type"] = other["type"]
        out.pop("format", None)
    if "properties" in other:
        props = dict(base.get("properties", {}))
        for name, schema in other["properties"].items():
            props[name] = _merge(props[name], schema, enrich=True) if name in props else schema
        out["properties"] = props
        out.setdefault("type", "object")
    if "items" in other and isinstance(base.get("items"), dict):
        out["items"] = _merge(base["items"], other["items"], enrich=True)
    return out


def _security_from_header(name: str, value: str) -> tuple[str, dict[str, Any]] | None:
    lowered = name.lower()
    if lowered == "authorization":
        scheme = value.split()[0].lower() if value.split() else ""
        if scheme == "bearer":
            return "bearerAuth", {"type": "http", "scheme": "bearer"}
        if scheme == "basic":
            return "basicAuth", {"type": "http", "scheme": "basic"}
        return "authorization", {"type": "apiKey", "in": "header", "name": name}
    if re.search(r"(api[-_]?key|token|auth)", lowered):
        return f"{name}Header", {"type": "apiKey", "in": "header", "name": name}
    return None


def _count_fields(value: Any, depth: int = 0) -> int:
    if depth > 8:
        return 0
    if isinstance(value, dict):
        return len(value) + sum(_count_fields(v, depth + 1) for v in value.values())
    if isinstance(value, list) and value:
        return _count_fields(value[0], depth + 1)
    return 0


def _count_schema(schema: dict[str, Any], depth: int = 0) -> int:
    if depth > 8:
        return 0
    props = schema.get("properties") or {}
    total = len(props) + sum(_count_schema(s, depth + 1) for s in props.values() if isinstance(s, dict))
    items = schema.get("items")
    return total + (_count_schema(items, depth + 1) if isinstance(items, dict) else 0)
