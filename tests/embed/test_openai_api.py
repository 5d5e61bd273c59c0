"""The OpenAI-compatible client against a real HTTP server on 127.0.0.1 (and a mock transport)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import numpy as np
import pytest

from openapi_rag.embed import EmbedderError, NeedsKey, get_embedder
from openapi_rag.embed.openai_api import OpenAIEmbedder


class FakeServer(ThreadingHTTPServer):
    """Speaks POST /v1/embeddings. Scripted replies first, then 3-dimensional embeddings."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.script: list[tuple[int, Any, dict[str, str]]] = []
        self.requests: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    server: FakeServer

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(
            {"path": self.path, "body": body, "authorization": self.headers.get("Authorization")}
        )
        if self.server.script:
            status, reply, headers = self.server.script.pop(0)
        elif self.path != "/v1/embeddings":
            status, reply, headers = 404, {"error": {"message": "no such route"}}, {}
        else:
            # Unnormalised vectors, listed in reverse order: the client must sort by index and normalise.
            data = [
                {"object": "embedding", "index": i, "embedding": [len(text), 1.0, 0.0]}
                for i, text in enumerate(body["input"])
            ]
            status, reply, headers = 200, {"object": "list", "data": data[::-1], "model": body["model"]}, {}
        raw = json.dumps(reply).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass


@pytest.fixture
def server() -> Iterator[FakeServer]:
    srv = FakeServer()
    thread = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def slept() -> list[float]:
    return []


def client(server: FakeServer, slept: list[float], **options: Any) -> OpenAIEmbedder:
    return OpenAIEmbedder("local-model", base_url=server.base_url, sleep=slept.append, **options)


def test_embeds_in_batches_in_order_and_learns_dimensions(server, slept):
    embedder = client(server, slept, batch_size=2)
    assert embedder.dimensions is None and not embedder.needs_key
    texts = ["a", "bbbb", "cc", "ddddddd", "eee"]
    vectors = embedder.embed_many(texts)
    assert embedder.dimensions == 3
    expected = np.array([[len(t), 1.0, 0.0] for t in texts], dtype=np.float32)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(vectors, expected, rtol=1e-6)
    assert [len(r["body"]["input"]) for r in server.requests] == [2, 2, 1]
    first = server.requests[0]
    assert first["path"] == "/v1/embeddings"
    assert first["body"]["model"] == "local-model" and first["body"]["encoding_format"] == "float"
    assert first["authorization"] is None  # no key, none sent
    assert slept == []
    embedder.close()


def test_base_url_and_key_from_the_environment(server, slept, monkeypatch):
    monkeypatch.setenv("OPENAPI_RAG_EMBED_BASE_URL", server.base_url + "/")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with get_embedder("openai:text-embedding-3-small") as embedder:
        assert embedder.model_id == "openai:text-embedding-3-small"
        assert embedder.embed("hello").shape == (3,)
    assert server.requests[0]["authorization"] == "Bearer sk-test"
    assert server.requests[0]["body"]["model"] == "text-embedding-3-small"


def test_retries_after_429_then_succeeds(server, slept):
    server.script.append((429, {"error": {"message": "Rate limit reached"}}, {"Retry-After": "0"}))
    vectors = client(server, slept).embed_many(["x", "y"])
    assert vectors.shape == (2, 3)
    assert len(server.requests) == 2
    assert len(slept) == 1 and slept[0] == pytest.approx(0.0)  # Retry-After wins over the backoff


def test_backoff_doubles_and_gives_up_on_persistent_5xx(server, slept):
    server.script.extend([(503, {"error": "overloaded"}, {})] * 3)
    with pytest.raises(EmbedderError, match=r"failed after 3 attempts: HTTP 503: overloaded"):
        client(server, slept, max_retries=2, backoff=0.5).embed("x")
    assert len(server.requests) == 3
    assert len(slept) == 2
    assert 0.5 <= slept[0] <= 0.55 and 1.0 <= slept[1] <= 1.1  # 0.5, 1.0 plus up to 10% jitter


def test_401_is_an_auth_error_without_retry(server, slept):
    server.script.append((401, {"error": {"message": "Incorrect API key provided"}}, {}))
    with pytest.raises(EmbedderError) as info:
        client(server, slept, api_key="sk-wrong").embed("x")
    message = str(info.value)
    assert "HTTP 401: Incorrect API key provided" in message
    assert "OPENAPI_RAG_EMBED_API_KEY" in message
    assert len(server.requests) == 1 and slept == []
    assert server.requests[0]["authorization"] == "Bearer sk-wrong"


def test_other_4xx_reports_the_servers_message(server, slept):
    server.script.append((400, {"error": {"message": "maximum context length is 8192 tokens"}}, {}))
    with pytest.raises(EmbedderError, match=r"rejected the request \(HTTP 400\): maximum context length"):
        client(server, slept).embed("x")
    assert len(server.requests) == 1


def test_malformed_reply_is_an_error(server, slept):
    server.script.append((200, {"data": [{"index": 0}]}, {}))
    with pytest.raises(EmbedderError, match="unexpected reply shape"):
        client(server, slept).embed("x")


def test_requested_dimensions_are_sent_and_kept_apart_in_the_cache(server, slept):
    embedder = client(server, slept, dimensions=3)
    assert embedder.cache_key == "openai:local-model@3"
    embedder.embed("x")
    assert server.requests[0]["body"]["dimensions"] == 3


def test_unreachable_server_is_a_clear_error(slept):
    url = f"http://127.0.0.1:{unused_port()}/v1"
    embedder = OpenAIEmbedder("m", base_url=url, max_retries=1, sleep=slept.append)
    with pytest.raises(EmbedderError, match="failed after 2 attempts: could not connect"):
        embedder.embed("x")
    assert len(slept) == 1


def test_timeouts_are_retried():
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            raise httpx.ReadTimeout("slow", request=request)
        data = [{"index": 0, "embedding": [0.0, 2.0]}]
        return httpx.Response(200, json={"data": data})

    embedder = OpenAIEmbedder(
        "m", base_url="http://embed.local/v1", transport=httpx.MockTransport(handler), sleep=lambda s: None
    )
    np.testing.assert_allclose(embedder.embed("x"), [0.0, 1.0])
    assert len(calls) == 2 and str(calls[0].url) == "http://embed.local/v1/embeddings"


def test_openai_host_without_key_needs_one(monkeypatch):
    with pytest.raises(NeedsKey, match="set OPENAPI_RAG_EMBED_API_KEY"):
        get_embedder("openai:text-embedding-3-small")
    monkeypatch.setenv("OPENAPI_RAG_EMBED_API_KEY", "sk-x")
    embedder = get_embedder("openai:text-embedding-3-small")  # no request is made until embedding
    assert embedder.needs_key and embedder.max_tokens == 8191
    embedder.close()


def unused_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
