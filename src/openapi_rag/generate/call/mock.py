"""A mock server that answers every operation of the indexed services, validating each request.

Validation is openapi-core's (method, path template, path/query/header parameters, request body
schema), run on each service's bundled description with three changes a mock needs: the servers are
replaced by "/" (it answers on loopback, not on the API's host), security requirements are dropped
(it holds no credentials to check), and booleans written as strings (`required: "true"`, common in
YAML-1.1-era files) are read as booleans. A valid request gets the operation's success status and a
body from its response (the description's example first); an invalid one gets 404 (no such path),
405 (no such method on the path), 400 (parameters) or 422 (body), with the validator's reason.

Several services may hold the same path: a request is answered by the service whose operation
accepts it (or the header `X-Mock-Service: <service id>` picks one).
"""

from __future__ import annotations

import copy
import hmac
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openapi_rag.errors import MissingDependency
from openapi_rag.generate.call.samples import example_body
from openapi_rag.model import HTTP_METHODS, Service
from openapi_rag.refs.inline import inline_schemas

__all__ = ["MockAPI", "MockAnswer", "MockServer", "SERVICE_HEADER"]

SERVICE_HEADER = "X-Mock-Service"
_BOOL_KEYS = {"required", "explode", "allowReserved", "deprecated", "nullable", "readOnly", "writeOnly",
              "uniqueItems", "allowEmptyValue", "exclusiveMinimum", "exclusiveMaximum"}  # fmt: skip
_NUMBER_KEYS = {"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "multipleOf",
                "minProperties", "maxProperties"}  # fmt: skip
MAX_REASON = 500
MAX_BODY_BYTES = 10 * 1024 * 1024


@dataclass
class MockAnswer:
    """What the mock answers: status, JSON body, and for refusals the reason."""

    status: int
    body: Any = None
    reason: str = ""
    service: str | None = None
    operation: str | None = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def _typed_literal(kind: Any, value: Any) -> Any:
    """A default/example written as a string in a numeric or boolean schema ("20"), as its type."""
    if not isinstance(value, str):
        return value
    try:
        if kind == "integer":
            return int(value)
        if kind == "number":
            return float(value)
    except ValueError:
        return value
    if kind == "boolean" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def _fix_booleans(node: Any) -> Any:
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in _BOOL_KEYS and isinstance(value, str) and value.strip().lower() in ("true", "false"):
                out[key] = value.strip().lower() == "true"
            elif key == "required" and isinstance(value, str):
                out[key] = [value]
            elif key in _NUMBER_KEYS and isinstance(value, str):
                out[key] = _typed_literal("number" if "." in value else "integer", value)
            elif key in ("default", "example") and node.get("type") in ("integer", "number", "boolean"):
                out[key] = _typed_literal(node.get("type"), value)
            else:
                out[key] = _fix_booleans(value)
        return out
    if isinstance(node, list):
        return [_fix_booleans(v) for v in node]
    return node


def mock_document(service: Service) -> dict[str, Any]:
    """The service's description as the mock validates it (servers "/", no security, booleans fixed)."""
    doc = _fix_booleans(copy.deepcopy(service.document))
    doc["servers"] = [{"url": "/"}]
    doc.pop("security", None)
    for item in (doc.get("paths") or {}).values():
        if not isinstance(item, dict):
            continue
        item.pop("servers", None)
        for method in HTTP_METHODS:
            op = item.get(method)
            if isinstance(op, dict):
                op.pop("security", None)
                op.pop("servers", None)
    return doc


def template_regex(path: str) -> re.Pattern[str]:
    """A path template as a pattern of filled paths: each `{param}` is one segment."""
    parts = re.split(r"(\{[^}]+\})", path)
    return re.compile("^" + "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "/?$")


class _ServiceMock:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.templates = [
            (template_regex(path), path, {m.upper() for m in HTTP_METHODS if isinstance(item.get(m), dict)})
            for path, item in (service.document.get("paths") or {}).items()
            if isinstance(item, dict)
        ]
        self._openapi: Any = None
        self._lock = threading.Lock()

    def matches(self, path: str) -> list[tuple[str, set[str]]]:
        return [(template, methods) for regex, template, methods in self.templates if regex.match(path)]

    @property
    def openapi(self) -> Any:
        with self._lock:
            if self._openapi is None:
                from openapi_core import Config, OpenAPI

                # The description was loaded and checked already; openapi-core's own spec check
                # would refuse the small deviations real descriptions carry.
                self._openapi = OpenAPI.from_dict(
                    mock_document(self.service), config=Config(spec_validator_cls=None)
                )
            return self._openapi


def _reason(exc: BaseException) -> str:
    parts = [str(exc)]
    cause = exc.__cause__
    seen = 0
    while cause is not None and seen < 3:
        schema_errors = getattr(cause, "schema_errors", None)
        if schema_errors:
            parts.append("; ".join(getattr(e, "message", str(e)) for e in list(schema_errors)[:5]))
        else:
            parts.append(str(cause))
        cause = cause.__cause__
        seen += 1
    text = ": ".join(dict.fromkeys(p for p in parts if p))
    return text[:MAX_REASON]


def _status_of(exc: BaseException) -> int:
    from openapi_core.validation.request.exceptions import RequestBodyValidationError

    if isinstance(exc, RequestBodyValidationError):
        # A body that is not JSON at all is a bad request; one that breaks the schema is unprocessable.
        return 400 if "deserial" in type(exc.__cause__).__name__.lower() else 422
    return 400  # parameters and everything else


class MockAPI:
    """Validates requests against the services' operations and answers them (no HTTP here).

    Args:
        services: the services to answer for.
        key: when set, every request must carry `Authorization: Bearer <key>` (for a mock that
            listens beyond loopback).
    """

    def __init__(self, services: list[Service], *, key: str | None = None) -> None:
        try:
            import openapi_core  # noqa: F401
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise MissingDependency(
                'the mock server needs openapi-core: pip install "openapi-rag[call]"'
            ) from exc
        self._mocks = {s.id: _ServiceMock(s) for s in services}
        self._loader: Callable[[str], Service] | None = None
        self._ids: list[str] = list(self._mocks)
        self.key = key

    @classmethod
    def from_index(cls, index: Any, *, key: str | None = None) -> MockAPI:
        """A mock over an index's services, each rebuilt only when a request first needs it."""
        from openapi_rag.generate.call.generator import index_service

        api = cls([], key=key)
        api._ids = list(index.manifest_service_ids())
        api._loader = lambda service_id: index_service(index, service_id)
        return api

    def _mock(self, service_id: str) -> _ServiceMock | None:
        if service_id not in self._mocks:
            if self._loader is None or service_id not in self._ids:
                return None
            self._mocks[service_id] = _ServiceMock(self._loader(service_id))
        return self._mocks[service_id]

    @property
    def services(self) -> dict[str, _ServiceMock]:
        """Every service's mock (loading the ones not loaded yet)."""
        for service_id in self._ids:
            self._mock(service_id)
        return self._mocks

    def answer(self, request: Any, service: str | None = None) -> MockAnswer:
        """The answer to a werkzeug `Request`."""
        from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest

        path, method = request.path, request.method.upper()
        pinned = self._mock(service) if service else None
        mocks = [pinned] if pinned is not None else list(self.services.values())
        matching = [(m, t, methods) for m in mocks for t, methods in m.matches(path)]
        if not matching:
            return MockAnswer(404, reason=f"no operation has a path matching {path}")
        with_method = [(m, t) for m, t, methods in matching if method in methods]
        if not with_method:
            allowed = sorted({x for _, _, methods in matching for x in methods})
            return MockAnswer(
                405, reason=f"{method} is not an operation of {path}; allowed: {', '.join(allowed)}"
            )
        refusals: list[MockAnswer] = []
        for mock, template in with_method:
            try:
                errors = list(mock.openapi.iter_request_errors(WerkzeugOpenAPIRequest(request)))
            except Exception as exc:  # noqa: BLE001 - a validator crash on a quirky description is reported
                refusals.append(
                    MockAnswer(500, reason=f"the validator failed on this operation: {exc!r}"[:MAX_REASON])
                )
                continue
            op_id = f"{method} {template}"
            if errors:
                refusals.append(MockAnswer(_status_of(errors[0]), reason=_reason(errors[0]), service=mock.service.id,
                                           operation=op_id))  # fmt: skip
                continue
            return self._success(mock.service, method, template)
        return min(refusals, key=lambda a: a.status)

    def _success(self, service: Service, method: str, template: str) -> MockAnswer:
        op = service.operation(f"{method} {template}")
        responses = op.responses if op is not None else {}
        codes = sorted(c for c in responses if str(c).startswith("2"))
        status = int(codes[0]) if codes and str(codes[0]).isdigit() else 200
        body = None
        response = responses.get(codes[0] if codes else "default") if responses else None
        if isinstance(response, dict) and status != 204:
            content = response.get("content") or {}
            media = (
                next((v for k, v in content.items() if "json" in k), None)
                if isinstance(content, dict)
                else None
            )
            if media is not None:
                body = example_body(inline_schemas(media, service.schemas, 4))
        return MockAnswer(status, body, service=service.id, operation=f"{method} {template}")

    def wsgi(self, environ: dict[str, Any], start_response: Any) -> Any:
        """The WSGI application: JSON answers, refusals as {"error", "reason"}."""
        from werkzeug.wrappers import Request, Response

        request = Request(environ)
        if (request.content_length or 0) > MAX_BODY_BYTES:
            answer = MockAnswer(413, reason=f"request body larger than {MAX_BODY_BYTES} bytes")
        elif self.key and not hmac.compare_digest(
            request.headers.get("Authorization", ""), f"Bearer {self.key}"
        ):
            answer = MockAnswer(
                401, reason="this mock needs `Authorization: Bearer <key>` (the key it was started with)"
            )
        else:
            answer = self.answer(request, service=request.headers.get(SERVICE_HEADER))
        if answer.ok:
            payload = None if answer.status == 204 else answer.body
        else:
            payload = {"error": answer.status, "reason": answer.reason}
        headers = {}
        if answer.operation:
            headers["X-Mock-Operation"] = f"{answer.service} {answer.operation}"
        text = "" if answer.status == 204 else json.dumps(payload, ensure_ascii=False, default=str)
        response = Response(text, status=answer.status, mimetype="application/json", headers=headers)
        return response(environ, start_response)


class MockServer:
    """`MockAPI` served over real HTTP (werkzeug's threaded server) in a background thread.

    Binds to loopback by default; `url` is where it answers. Use as a context manager.
    """

    def __init__(self, api: MockAPI, *, host: str = "127.0.0.1", port: int = 0, log: bool = False) -> None:
        from werkzeug.serving import WSGIRequestHandler, make_server

        class Handler(WSGIRequestHandler):
            def log_request(self, *args: Any, **kwargs: Any) -> None:
                if log:  # one access line per request on stderr for `openapi-rag mock`; quiet in-process
                    super().log_request(*args, **kwargs)

        self.api = api
        self._server = make_server(host, port, api.wsgi, threaded=True, request_handler=Handler)
        self.host = host
        self.port = self._server.server_port
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> MockServer:
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="openapi-rag-mock", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self._server.serve_forever()

    def stop(self) -> None:
        """Stop a server started with `start` and release its port."""
        self._server.shutdown()
        self.close()

    def close(self) -> None:
        """Release the port (after `serve_forever` returned)."""
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> MockServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
