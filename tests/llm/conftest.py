"""Fixtures for the LLM tests: a scripted OpenAI-compatible server and a scripted LLM double."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def no_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "OPENAPI_RAG_LLM",
        "OPENAPI_RAG_LLM_BASE_URL",
        "OPENAPI_RAG_LLM_MODEL",
        "OPENAPI_RAG_LLM_API_KEY",
    ):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("OPENAI_MODEL", raising=False)


class ScriptedServer:
    """Answers each POST with the next (status, body, headers) of `replies`; records requests.

    With `answer`, each request is answered by its own last message instead (a 200 with
    `chat_reply(answer(message))`), so replies reach the right caller whatever order threads ask in.
    """

    def __init__(self, answer: Callable[[str], str] | None = None) -> None:
        self.answer = answer
        self.replies: list[tuple[int, dict[str, Any], dict[str, str]]] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the stdlib's name
                length = int(self.headers.get("content-length", 0))
                request = json.loads(self.rfile.read(length))
                server.requests.append(request)
                server.headers.append(dict(self.headers))
                if server.answer is not None:
                    status, body, headers = 200, chat_reply(server.answer(str(request["messages"][-1]["content"]))), {}
                else:
                    status, body, headers = server.replies.pop(0)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def reply(self, body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None) -> None:
        self.replies.append((status, body, headers or {}))


@contextmanager
def serving(scripted: ScriptedServer) -> Iterator[ScriptedServer]:
    """`scripted` serving on a background thread for the block, then shut down."""
    thread = threading.Thread(target=scripted.httpd.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield scripted
    finally:
        scripted.httpd.shutdown()
        scripted.httpd.server_close()


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    with serving(ScriptedServer()) as scripted:
        yield scripted


def chat_reply(
    content: str | None = "",
    tool_calls: list[dict[str, Any]] | None = None,
    prompt: int = 10,
    completion: int = 5,
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }
