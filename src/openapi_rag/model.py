"""The few plain records everything else passes around.

A `Service` is one loaded API description, normalised to the OpenAPI 3 shape whatever its source
format. Its `document` is the bundled description: every `$ref` to a schema points into
`#/components/schemas/<name>` (external files pulled in, Swagger 2 definitions renamed), every other
`$ref` (parameters, responses, request bodies, headers, ...) is inlined. Operations and schemas are
views over that document plus the reference graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# OpenAPI 3.2 adds the QUERY method; older versions simply never contain it.
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace", "query")

SCHEMA_REF_PREFIX = "#/components/schemas/"


def operation_id(method: str, path: str) -> str:
    """The identity of an operation inside a service: `METHOD /path`."""
    return f"{method.upper()} {path}"


@dataclass
class Problem:
    """Something wrong or lossy found while loading; never fatal on its own."""

    message: str
    where: str | None = None  # JSON pointer or "line:col"
    file: str | None = None
    severity: str = "warning"  # "warning" | "error"

    def __str__(self) -> str:
        loc = ": ".join(p for p in (self.file, self.where) if p)
        return f"{loc}: {self.message}" if loc else self.message

    def to_dict(self) -> dict[str, Any]:
        return {"message": self.message, "where": self.where, "file": self.file, "severity": self.severity}


@dataclass
class Parameter:
    name: str
    location: str  # path | query | header | cookie
    required: bool = False
    description: str = ""
    schema: dict[str, Any] = field(default_factory=dict)
    deprecated: bool = False


@dataclass
class Operation:
    """One API operation: service + HTTP method + path template."""

    service: str
    method: str  # upper case
    path: str
    operation_id: str | None = None
    summary: str = ""
    description: str = ""
    tags: list[str] = field(default_factory=list)
    parameters: list[Parameter] = field(default_factory=list)  # path-level ones merged in
    request_body: dict[str, Any] | None = None  # OpenAPI 3 requestBody object
    responses: dict[str, Any] = field(default_factory=dict)  # status code -> response object
    security: list[dict[str, Any]] | None = None  # None: inherits the service's security
    deprecated: bool = False
    servers: list[dict[str, Any]] = field(default_factory=list)
    pointer: str = ""  # JSON pointer of the operation in the bundled document
    raw: dict[str, Any] = field(default_factory=dict)  # the operation object, parameters merged
    schema_refs: list[str] = field(default_factory=list)  # component schemas named directly
    reachable_schemas: list[str] = field(default_factory=list)  # ... directly and transitively

    @property
    def id(self) -> str:
        return operation_id(self.method, self.path)

    @property
    def qualified_id(self) -> str:
        return f"{self.service} {self.id}"


@dataclass
class Schema:
    """One component schema and its place in the reference graph."""

    name: str
    schema: dict[str, Any]
    source: str = ""  # "file#pointer" it came from
    refs: list[str] = field(default_factory=list)  # component schemas it names directly
    used_by_operations: list[str] = field(default_factory=list)  # `METHOD /path` ids, transitive
    used_by_schemas: list[str] = field(default_factory=list)  # schemas naming it directly


@dataclass
class Service:
    """One API description, loaded and normalised."""

    id: str
    title: str
    version: str
    file: str
    format: str  # swagger2 | oas30 | oas31 | oas32 | postman
    description: str = ""
    servers: list[dict[str, Any]] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)
    schemas: dict[str, Schema] = field(default_factory=dict)
    security_schemes: dict[str, Any] = field(default_factory=dict)
    security: list[dict[str, Any]] = field(default_factory=list)
    tags: list[dict[str, Any]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    document: dict[str, Any] = field(default_factory=dict)  # bundled OpenAPI 3 document
    files: list[str] = field(default_factory=list)  # every file read for it
    cleaning: dict[str, int] = field(default_factory=dict)  # cleaning step -> tokens removed

    def operation(self, op_id: str) -> Operation | None:
        """The operation `METHOD /path`, or None."""
        method, _, path = op_id.strip().partition(" ")
        wanted = operation_id(method, path.strip())
        return next((op for op in self.operations if op.id == wanted), None)


@dataclass
class Chunk:
    """A piece of a service that is embedded and returned by search.

    `embed_text` is what is matched against queries; `content` is what is handed back to the user or
    the LLM. They may differ (LLM summaries are embedded, the endpoint is returned).
    """

    id: str
    kind: str  # endpoint | schema | errors | security | document
    service: str
    operations: list[str]  # `METHOD /path` ids this chunk covers
    embed_text: str
    content: str
    file: str = ""
    tokens: int = 0  # tokens of embed_text with the embedding model's tokenizer
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "service": self.service,
            "operations": list(self.operations),
            "embed_text": self.embed_text,
            "content": self.content,
            "file": self.file,
            "tokens": self.tokens,
            "metadata": self.metadata,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Chunk:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})
