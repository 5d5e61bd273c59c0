"""Security: loopback by default, keys elsewhere, 401 on a wrong key, rate limits, constant-time compare."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from openapi_rag.cli import cli
from openapi_rag.serve.http_app import create_app
from openapi_rag.serve.security import RateLimiter, key_id, match_key
from openapi_rag.serve.service import IndexHolder, SearchService
from openapi_rag.serve.settings import Limits, ServeConfigError, ServeSettings, is_loopback, load_keys

KEY = "s3cret-key-for-tests-0123456789"


@pytest.fixture(scope="module")
def holder(index_dir: Path) -> IndexHolder:
    return IndexHolder(index_dir)


def client(holder: IndexHolder, **settings) -> TestClient:
    config = ServeSettings(index_dir=holder.directory, **settings)
    return TestClient(create_app(SearchService(holder, config.limits), config))


def test_public_bind_without_a_key_is_refused_at_start(index_dir, monkeypatch):
    monkeypatch.delenv("OPENAPI_RAG_API_KEY", raising=False)
    for command in (["serve"], ["mcp", "--transport", "http"]):
        result = CliRunner().invoke(
            cli, [*command, "--index", str(index_dir), "--host", "0.0.0.0", "--port", "0"]
        )
        assert result.exit_code == 1
        assert "refusing to listen on 0.0.0.0 without an API key" in result.output
    with pytest.raises(ServeConfigError):
        ServeSettings(index_dir=index_dir, host="192.168.1.5").check()
    ServeSettings(index_dir=index_dir, host="::1").check()
    ServeSettings(index_dir=index_dir, host="0.0.0.0", keys=(KEY,)).check()


def test_what_counts_as_loopback():
    assert all(is_loopback(h) for h in ("127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"))
    assert not any(is_loopback(h) for h in ("0.0.0.0", "::", "10.0.0.1", "example.com", "localhost.evil.com"))


def test_keys_come_from_env_or_file_never_short(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAPI_RAG_API_KEY", f"{KEY}, {KEY}x")
    keys_file = tmp_path / "keys"
    keys_file.write_text(f"# team keys\n{KEY}y\n\n")
    assert load_keys(keys_file) == (KEY, KEY + "x", KEY + "y")
    monkeypatch.setenv("OPENAPI_RAG_API_KEY", "short")
    with pytest.raises(ServeConfigError, match="shorter than 16"):
        load_keys()
    monkeypatch.delenv("OPENAPI_RAG_API_KEY")
    with pytest.raises(ServeConfigError, match="cannot read the API key file"):
        load_keys(tmp_path / "missing")


def test_wrong_or_missing_key_is_401(holder):
    api = client(holder, keys=(KEY,))
    assert api.get("/search", params={"q": "playlist"}).status_code == 401
    wrong = api.get(
        "/search", params={"q": "playlist"}, headers={"Authorization": "Bearer " + KEY[:-1] + "X"}
    )
    assert wrong.status_code == 401 and wrong.json()["error"] == "unauthorized"
    assert wrong.headers["www-authenticate"] == "Bearer"
    assert api.get("/services", headers={"X-API-Key": KEY}).status_code == 200
    assert (
        api.get("/search", params={"q": "playlist"}, headers={"Authorization": f"Bearer {KEY}"}).status_code
        == 200
    )
    assert api.get("/openapi.json").status_code == 401  # even the document needs the key
    assert api.get("/healthz").status_code == 200  # liveness only, for load balancers


def test_rate_limit_per_key_is_429_with_retry_after(holder):
    limits = Limits(rate_per_second=0.5, rate_burst=3)
    api = client(holder, keys=(KEY, KEY + "2"), limits=limits)
    first = {"Authorization": f"Bearer {KEY}"}
    codes = [api.get("/services", headers=first).status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    limited = api.get("/services", headers=first)
    assert limited.json()["error"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
    # Another key has its own bucket.
    assert api.get("/services", headers={"Authorization": f"Bearer {KEY}2"}).status_code == 200
    # The metrics name the 429s.
    assert 'status="429"' in api.get("/metrics", headers={"Authorization": f"Bearer {KEY}2"}).text


def test_token_bucket_refills():
    limiter = RateLimiter(rate=2.0, burst=2)
    assert [limiter.allow("a", now=0.0) for _ in range(3)] == [0.0, 0.0, 0.5]
    assert limiter.allow("a", now=0.5) == 0.0
    assert limiter.allow("b", now=0.5) == 0.0


def test_key_matching_checks_every_key_and_names_none():
    assert match_key(KEY, ("a" * 20, KEY)) == KEY
    assert match_key(KEY + "x", ("a" * 20, KEY)) is None
    assert match_key("", (KEY,)) is None
    assert len(key_id(KEY)) == 8 and key_id(KEY) not in KEY


def test_cors_only_when_configured(holder):
    origin = {"Origin": "https://catalog.example.com"}
    assert "access-control-allow-origin" not in client(holder).get("/services", headers=origin).headers
    allowed = client(holder, cors_origins=("https://catalog.example.com",)).get("/services", headers=origin)
    assert allowed.headers["access-control-allow-origin"] == "https://catalog.example.com"
