"""Property-based contract test (schemathesis) of the HTTP API from its own OpenAPI document:
no 5xx for any input the document allows or forbids, and every response matches the document."""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings

from openapi_rag.serve.http_app import create_app
from openapi_rag.serve.service import IndexHolder, SearchService
from openapi_rag.serve.settings import ServeSettings

# Bounded: a few dozen examples per route keep this in the fast tier (search costs ~10 ms each).
EXAMPLES = 25


def test_api_honours_its_openapi_document(index_dir: Path):
    config = ServeSettings(index_dir=index_dir)
    app = create_app(SearchService(IndexHolder(index_dir), config.limits), config)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    # Driven by hand, not by schemathesis' pytest plugin (it does not load with this pytest).
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.label for op in operations} >= {"GET /search", "POST /search", "GET /services"}
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None
        )
        def honours(case) -> None:
            response = case.call()
            assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text}"
            case.validate_response(response)

        honours()
