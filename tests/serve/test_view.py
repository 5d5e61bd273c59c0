"""The sized operation view (`refs/view.py`) behind get_endpoint, /operations and `show`."""

from __future__ import annotations

import json
import time
from pathlib import Path

from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.refs.view import MAX_NODES, operation_view
from openapi_rag.spec import load_service
from openapi_rag.spec.extract import extract_service
from openapi_rag.tokens import get_tokenizer
from tests.serve.conftest import CATALOG

FIXTURES = Path(__file__).resolve().parents[1] / "spec" / "fixtures"


def tokens(view: dict) -> int:
    body = {k: v for k, v in view.items() if k != "view"}
    return get_tokenizer("cl100k_base").count(json.dumps(body, ensure_ascii=False, separators=(",", ":")))


def test_every_spotify_operation_fits_and_says_what_it_left_out():
    service = load_service(CATALOG / "spotify.json")
    for op in service.operations:
        view = operation_view(op, service, max_tokens=3000)
        assert view["view"]["tokens"] == tokens(view) <= 3000, op.id
    top = operation_view(service.operation("GET /artists/{id}/top-tracks"), service)
    assert set(top["responses"]) == {"200"}
    assert "error responses 401, 403, 429 (ask with errors=true)" in top["view"]["left_out"]
    assert any(line.startswith("examples:") for line in top["view"]["left_out"])
    assert '"example"' not in json.dumps({k: v for k, v in top.items() if k != "view"})
    full = operation_view(
        service.operation("GET /artists/{id}/top-tracks"), service, errors=True, examples=True
    )
    assert set(full["responses"]) == {"200", "401", "403", "429"} and '"example"' in json.dumps(full)


def test_a_tight_budget_steps_down_the_detail():
    service = load_service(CATALOG / "spotify.json")
    op = service.operation("GET /artists/{id}/top-tracks")
    roomy = operation_view(op, service, max_tokens=20_000)
    tight = operation_view(op, service, max_tokens=600)
    assert roomy["view"]["depth"] == 3 and roomy["view"]["tokens"] > 600
    assert tight["view"]["tokens"] <= 600 and tight["view"]["depth"] < 3
    assert any("x-ref" in line or "nested" in line for line in tight["view"]["left_out"])
    unbounded = operation_view(op, service, max_tokens=None, errors=True, examples=True)
    assert (
        unbounded["view"]["left_out"] == ["vendor extensions (x-*): 7"] or unbounded["view"]["tokens"] > 3000
    )


def test_cycles_are_marked_not_followed():
    service = load_service(FIXTURES / "cyclic.yaml")
    view = operation_view(service.operation("POST /props"), service, depth=8, max_tokens=None)
    schema = view["requestBody"]["content"]["application/json"]["schema"]
    assert schema["title"] == "JSONSchemaProps"
    assert schema["properties"]["not"] == {"x-cycle": "JSONSchemaProps"}
    nodes = operation_view(service.operation("GET /nodes"), service, max_tokens=None)
    node = nodes["responses"]["200"]["content"]["application/json"]["schema"]
    assert node["properties"]["children"]["items"] == {"x-cycle": "Node"}


def test_hostile_width_and_depth_stay_bounded():
    """10,000 properties each naming a chain of schemas: the walk stops at its node limit, fast."""
    schemas = {
        f"S{i}": {"type": "object", "properties": {"next": {"$ref": f"#/components/schemas/S{i + 1}"}}}
        for i in range(400)
    }
    schemas["Wide"] = {
        "type": "object",
        "properties": {
            f"p{i}": {"$ref": "#/components/schemas/S0", "description": "d" * 500} for i in range(10_000)
        },
    }
    document = {
        "openapi": "3.0.3",
        "info": {"title": "Hostile", "version": "1"},
        "paths": {
            "/x": {
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Wide"}}}
                    },
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
        "components": {"schemas": schemas},
    }
    service = extract_service(
        document, service_id="hostile", file="hostile.json", format="oas30", problems=[]
    )
    start = time.perf_counter()
    view = operation_view(service.operations[0], service, depth=8)
    assert time.perf_counter() - start < 20
    assert view["view"]["tokens"] <= 3000
    unbounded = operation_view(service.operations[0], service, depth=8, max_tokens=None)
    assert any("size limit" in line for line in unbounded["view"]["left_out"]) and MAX_NODES < 10_000 * 400


def test_show_is_sized_by_default_and_full_on_request(index_dir):
    run = CliRunner()
    sized = run.invoke(cli, ["show", "GET /artists/{id}/top-tracks", "--index", str(index_dir), "--json"])
    assert sized.exit_code == 0, sized.output
    view = json.loads(sized.output)
    assert view["view"]["max_tokens"] == 3000 and "401" not in view["responses"]
    full = run.invoke(
        cli, ["show", "GET /artists/{id}/top-tracks", "--index", str(index_dir), "--json", "--full"]
    )
    assert "401" in json.loads(full.output)["responses"] and "view" not in json.loads(full.output)
    errors = run.invoke(
        cli,
        [
            "show",
            "GET /artists/{id}/top-tracks",
            "--index",
            str(index_dir),
            "--json",
            "--errors",
            "--max-tokens",
            "8000",
        ],
    )
    assert "401" in json.loads(errors.output)["responses"]
