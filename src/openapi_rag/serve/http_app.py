"""The HTTP API (FastAPI): search, show, services, health, metrics, and its own OpenAPI document.

FastAPI because the API's OpenAPI document, request validation (422 naming the field) and
response models come from one set of type hints; uvicorn serves it. A search runs on the event
loop itself, one at a time per worker: it is CPU-bound (5–30 ms), parallelism comes from worker
processes, and each hop to a thread pool and back costs a scheduling delay on a busy machine
(measured: tens of ms per request at load average 13 on two cores).
"""

# No `from __future__ import annotations`: FastAPI reads the route signatures' types at run time,
# and the request models are local to `create_app` (their limits come from the settings).
import asyncio
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_json
from starlette.exceptions import HTTPException as StarletteHTTPException

from openapi_rag import __version__
from openapi_rag.serve.metrics import Metrics, MetricsMiddleware
from openapi_rag.serve.security import Guard, Scope
from openapi_rag.serve.service import BadRequest, NotFound, SearchService
from openapi_rag.serve.settings import ServeSettings
from openapi_rag.serve.timing import ServerTimingMiddleware

ROUTES = ("/search", "/services", "/healthz", "/metrics", "/openapi.json")


def encoded(answer: Any) -> Response:
    """A JSON answer as the routes' models would have encoded it (pydantic's serializer, without
    validating the answer again): compact, UTF-8, fields in order, a non-finite number as null."""
    return Response(to_json(answer, inf_nan_mode="null"), media_type="application/json")


# A query needs a letter or a digit (`search.clauses.check_query` refuses others with 422). The
# check is Unicode-wide; JSON Schema patterns have no Unicode classes, so the document states the
# Latin and CJK part of it, which clients and contract tests can generate from, and the server
# still accepts words of any script.
HAS_WORDS: dict[str, Any] = {"pattern": "[0-9A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u4e00-\u9fa5]"}

def route_of(scope: Scope) -> str:
    """A bounded label for metrics: the route, never the raw path."""
    path = scope.get("path", "")
    if path in ROUTES:
        return path
    if path.startswith("/operations/"):
        return "/operations"
    return "other"


def create_app(service: SearchService, settings: ServeSettings) -> Any:
    """The ASGI application: timing ∘ [CORS] ∘ metrics ∘ guard (key, rate, body size) ∘ FastAPI routes."""
    limits = settings.limits

    class Hit(BaseModel):
        id: str = Field(description="`service METHOD /path`: pass it to /operations or get_endpoint.")
        service: str
        method: str
        path: str
        summary: str
        score: float

    class SearchResult(BaseModel):
        query: str
        results: list[Hit]

    class BatchResult(BaseModel):
        batch: list[SearchResult]

    class SearchOptions(BaseModel):
        model_config = ConfigDict(extra="forbid")
        k: int = Field(10, ge=1, le=limits.max_k, description="How many operations.")
        mode: Literal["hybrid", "dense", "bm25"] = "hybrid"
        service: str | None = Field(None, max_length=200, description="Only this service.")
        tag: str | None = Field(None, max_length=200, description="Only operations with this tag.")

    class SearchOne(SearchOptions):
        query: str = Field(
            min_length=1,
            max_length=limits.max_query_chars,
            description="One task in words.",
            json_schema_extra=HAS_WORDS,
        )

    class SearchBatch(SearchOptions):
        queries: list[
            Annotated[str, Field(min_length=1, max_length=limits.max_query_chars, json_schema_extra=HAS_WORDS)]
        ] = Field(
            min_length=1, max_length=limits.max_batch, description="Several tasks, answered in order."
        )

    class Service(BaseModel):
        service: str
        title: str
        version: str
        operations: int

    class Health(BaseModel):
        status: str
        operations: int
        services: int
        reloads: int

    class Error(BaseModel):
        error: str
        field: str | None = None
        detail: Any = None

    error_responses: dict[int | str, dict[str, Any]] = {
        401: {"model": Error, "description": "Missing or wrong API key."},
        413: {"model": Error, "description": "Query or body too large."},
        422: {"model": Error, "description": "A parameter outside its limits (the field is named)."},
        429: {"model": Error, "description": "Rate limit of the key exceeded."},
    }

    app = FastAPI(
        title="openapi-rag",
        version=__version__,
        description="Find the API operations that answer a task, over an index built by openapi-rag.",
        docs_url=None,  # the docs pages load scripts from a CDN: nothing here reaches out
        redoc_url=None,
        # FastAPI's OpenTelemetry hooks look for a configured provider on every request; this
        # server's metrics are its own (`/metrics`) and it exports nothing.
        telemetry={"tracing": False, "metrics": False, "logs": False, "operation_spans": False},
    )

    @app.exception_handler(BadRequest)
    async def bad_request(_: Request, exc: BadRequest) -> JSONResponse:
        return JSONResponse(
            {"error": "bad_request", "field": exc.field, "detail": exc.detail}, status_code=exc.status
        )

    @app.exception_handler(NotFound)
    async def not_found(_: Request, exc: NotFound) -> JSONResponse:
        return JSONResponse({"error": "not_found", "detail": str(exc)}, status_code=404)

    @app.exception_handler(StarletteHTTPException)
    async def unrouted(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        # A path no route matches (an operation path with a newline, say) answers in the same
        # error shape as every other error, which the document promises.
        kind = "not_found" if exc.status_code == 404 else "http_error"
        return JSONResponse(
            {"error": kind, "detail": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
        )

    # The search routes return their JSON encoded (`encoded`): FastAPI sends a Response as it is,
    # where it would validate the answer against `response_model` again and encode it through
    # pydantic, for a shape `compact_hit` already fixes. The models still document the answers.
    @app.get(
        "/search",
        response_model=SearchResult,
        responses=error_responses,
        summary="Find API endpoints for a task",
        operation_id="search_endpoints",
    )
    async def search_get(
        q: Annotated[
            str,
            Query(
                min_length=1,
                max_length=limits.max_query_chars,
                description="The task.",
                json_schema_extra=HAS_WORDS,
            ),
        ],
        k: Annotated[int, Query(ge=1, le=limits.max_k)] = 10,
        mode: Literal["hybrid", "dense", "bm25"] = "hybrid",
        service: Annotated[str | None, Query(max_length=200)] = None,
        tag: Annotated[str | None, Query(max_length=200)] = None,
    ) -> Response:
        """The operations that best answer the task `q`, best first, one line each."""
        results = await service_search(q, k=k, mode=mode, service=service, tag=tag)
        return encoded({"query": q, "results": results})

    @app.post(
        "/search",
        response_model=SearchResult | BatchResult,
        responses=error_responses,
        summary="Find API endpoints for one task or a batch",
        operation_id="search_endpoints_batch",
    )
    async def search_post(body: SearchOne | SearchBatch) -> Response:
        """`{"query": ...}` answers like GET /search; `{"queries": [...]}` answers each in `batch`."""
        options = dict(k=body.k, mode=body.mode, service=body.service, tag=body.tag)
        if isinstance(body, SearchOne):
            return encoded({"query": body.query, "results": await service_search(body.query, **options)})
        # Together, so that the batch's queries are embedded in one run of the model.
        answers = await asyncio.gather(
            *(
                service_search(text, field=f"queries[{number}]", **options)
                for number, text in enumerate(body.queries)
            )
        )
        return encoded(
            {
                "batch": [
                    {"query": text, "results": hits}
                    for text, hits in zip(body.queries, answers, strict=True)
                ]
            }
        )

    async def service_search(query: str, **options: Any) -> list[dict[str, Any]]:
        # The routes' `service` parameter (a service filter) shadows the SearchService inside them.
        return await service.asearch(query, **options)

    @app.get(
        "/operations/{service_id}/{method}/{path:path}",
        responses={**error_responses, 404: {"model": Error, "description": "No such operation."}},
        summary="Get one endpoint in detail",
        operation_id="get_endpoint",
    )
    async def get_operation(
        service_id: Annotated[str, Path(max_length=200)],
        method: str,
        path: str,
        depth: Annotated[int, Query(ge=0, le=8)] = 3,
        max_tokens: Annotated[int, Query(ge=200, le=100_000)] = 3000,
        errors: bool = False,
        examples: bool = False,
    ) -> dict[str, Any]:
        """The operation (parameters, body, success response, security), schemas resolved, sized for
        an LLM; `view.left_out` says what was cut (ask with more `depth`, `errors`, `examples`)."""
        endpoint = f"{service_id} {method} /{path.lstrip('/')}"
        return service.get_endpoint(
            endpoint, depth=depth, max_tokens=max_tokens, errors=errors, examples=examples
        )

    @app.get(
        "/services", response_model=list[Service], responses=error_responses, summary="List the indexed APIs"
    )
    async def services() -> Any:
        return service.services()

    @app.get("/healthz", response_model=Health, summary="Liveness and index size")
    async def healthz() -> Any:
        stats = service.stats()
        return {"status": "ok", **{k: stats[k] for k in ("operations", "services", "reloads")}}

    metrics = Metrics(service.stats)
    service.batcher.on_batch = metrics.observe_embed_batch

    @app.get("/metrics", responses=error_responses, summary="Prometheus metrics", response_class=Response)
    async def metrics_route() -> Response:
        body, content_type = metrics.render()
        return Response(body, media_type=content_type)

    guarded = Guard(app, settings)
    wrapped: Any = MetricsMiddleware(guarded, metrics, route_of)
    if settings.cors_origins:
        from starlette.middleware.cors import CORSMiddleware

        wrapped = CORSMiddleware(
            wrapped,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Authorization", "X-API-Key", "Content-Type"],
        )
    wrapped = ServerTimingMiddleware(wrapped)  # outermost: its `app` duration covers every layer
    wrapped.fastapi = app  # for tests and the OpenAPI document
    return wrapped
