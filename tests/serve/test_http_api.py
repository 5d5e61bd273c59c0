"""The HTTP API, served by `openapi-rag serve` on an ephemeral loopback port (real uvicorn, real index)."""

from __future__ import annotations

import json
from urllib.parse import quote

import httpx


def test_search_get_and_post(http_server):
    base = http_server.url
    got = httpx.get(f"{base}/search", params={"q": "create a playlist for a user", "k": 5}).json()
    ids = [hit["id"] for hit in got["results"]]
    assert len(ids) == 5 and "spotify-web-api POST /users/{user_id}/playlists" in ids
    assert set(got["results"][0]) == {"id", "service", "method", "path", "summary", "score"}

    one = httpx.post(f"{base}/search", json={"query": "create a playlist for a user", "k": 5}).json()
    assert [hit["id"] for hit in one["results"]] == ids

    batch = httpx.post(
        f"{base}/search", json={"queries": ["price estimate for a ride", "my top artists"], "k": 3}
    ).json()["batch"]
    assert [b["query"] for b in batch] == ["price estimate for a ride", "my top artists"]
    assert batch[0]["results"][0]["id"] == "uber-api GET /estimates/price"

    only_uber = httpx.get(f"{base}/search", params={"q": "playlist", "service": "uber-api"}).json()
    assert {hit["service"] for hit in only_uber["results"]} == {"uber-api"}
    bm25 = httpx.get(f"{base}/search", params={"q": "playlist", "mode": "bm25", "k": 2}).json()
    assert len(bm25["results"]) == 2


def test_operation_view_services_health(http_server):
    base = http_server.url
    path = quote("/users/{user_id}/playlists", safe="/")
    view = httpx.get(f"{base}/operations/spotify-web-api/POST{path}").json()
    assert view["id"] == "spotify-web-api POST /users/{user_id}/playlists"
    assert "requestBody" in view and view["view"]["tokens"] <= 3000
    assert not any(code.startswith("4") for code in view["responses"])
    with_errors = httpx.get(f"{base}/operations/spotify-web-api/POST{path}", params={"errors": "true"}).json()
    assert any(code.startswith("4") for code in with_errors["responses"])

    services = httpx.get(f"{base}/services").json()
    assert [(s["service"], s["operations"]) for s in services] == [("spotify-web-api", 40), ("uber-api", 5)]
    assert services[0]["title"] == "Spotify Web API"
    assert httpx.get(f"{base}/healthz").json() == {
        "status": "ok",
        "operations": 45,
        "services": 2,
        "reloads": 0,
    }


def test_limits_are_4xx_json_naming_the_field(http_server):
    base = http_server.url
    too_long = httpx.get(f"{base}/search", params={"q": "x" * 1001})
    assert too_long.status_code == 422 and too_long.json()["detail"][0]["loc"] == ["query", "q"]
    assert httpx.get(f"{base}/search", params={"q": "a", "k": 0}).status_code == 422
    assert httpx.get(f"{base}/search", params={"q": "a", "k": 101}).status_code == 422
    assert httpx.get(f"{base}/search", params={"q": "a", "mode": "magic"}).status_code == 422
    batch = httpx.post(f"{base}/search", json={"queries": ["a"] * 33})
    assert batch.status_code == 422 and ["body", "SearchBatch", "queries"] in [
        e["loc"] for e in batch.json()["detail"]
    ]
    neither = httpx.post(f"{base}/search", json={"k": 3})
    assert neither.status_code == 422
    unknown = httpx.post(f"{base}/search", json={"query": "a", "extra": 1})
    assert unknown.status_code == 422
    big = httpx.post(f"{base}/search", content=json.dumps({"query": "a" * 70_000}).encode())
    assert big.status_code == 413 and big.json()["field"] == "body"
    # A chunked body has no length to check up front: it is cut off while it is read.
    chunked = httpx.post(f"{base}/search", content=iter([b'{"query": "', b"a" * 70_000, b'"}']))
    assert chunked.status_code == 413


def test_ids_are_looked_up_never_used_as_paths(http_server):
    base = http_server.url
    for raw in (
        "/operations/..%2F..%2Fetc/GET/passwd",
        "/operations/spotify-web-api/GET/..%2F..%2F..%2Fetc%2Fpasswd",
        "/operations/%2Fetc%2Fpasswd/GET/x",
        "/operations/spotify-web-api/GET/me%00",
    ):
        response = httpx.get(base + raw)
        assert response.status_code == 404, raw
        assert response.headers["content-type"].startswith("application/json")
    # No CORS unless configured.
    assert (
        "access-control-allow-origin"
        not in httpx.get(f"{base}/services", headers={"Origin": "http://evil.example"}).headers
    )


def test_metrics_in_prometheus_text(http_server):
    base = http_server.url
    httpx.get(f"{base}/search", params={"q": "artist albums"})
    httpx.get(f"{base}/search", params={"q": "a", "k": 0})
    text = httpx.get(f"{base}/metrics").text
    assert 'openapi_rag_requests_total{route="/search",status="200"}' in text
    assert 'openapi_rag_requests_total{route="/search",status="422"}' in text
    assert 'openapi_rag_request_seconds_bucket{le="0.1",route="/search"}' in text
    assert "openapi_rag_index_operations 45" in text


def test_own_openapi_document_finds_its_search_route(http_server, tmp_path):
    """The server's OpenAPI document, indexed by openapi-rag, answers 'find API endpoints for a task'."""
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    document = httpx.get(f"{http_server.url}/openapi.json").json()
    assert document["openapi"].startswith("3.")
    spec = tmp_path / "openapi-rag-server.json"
    spec.write_text(json.dumps(document))
    index = Index.build(load_services([spec]).services, cache=False)
    hits = index.search("find API endpoints for a task", k=3)
    assert (hits[0].method, hits[0].path) == ("GET", "/search")


def test_a_refused_batch_query_names_its_place(http_server):
    # "?!" passes the server's length checks and is refused by the search's own (no words).
    response = httpx.post(f"{http_server.url}/search", json={"queries": ["create a playlist", "?!"]})
    assert response.status_code == 422 and response.json()["field"] == "queries[1]"
