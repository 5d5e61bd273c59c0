from __future__ import annotations

import json

import pytest

from openapi_rag.llm import LLMError, ToolCall, get_llm
from openapi_rag.llm.openai_chat import OpenAIChat
from tests.llm.conftest import ScriptedServer, chat_reply

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search endpoints",
            "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
        },
    }
]


def test_text_reply_and_usage(server: ScriptedServer) -> None:
    server.reply(chat_reply("Hello there.", prompt=12, completion=3))
    llm = OpenAIChat("tiny", base_url=server.base_url, api_key="sk-test")
    response = llm.chat([{"role": "user", "content": "hi"}], max_tokens=20)
    assert response.text == "Hello there."
    assert (response.usage.prompt_tokens, response.usage.completion_tokens) == (12, 3)
    assert llm.usage.total_tokens == 15
    sent = server.requests[0]
    assert sent["model"] == "tiny" and sent["max_tokens"] == 20 and "tools" not in sent
    assert server.headers[0]["Authorization"] == "Bearer sk-test"


def test_tool_call_round_trip(server: ScriptedServer) -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "search", "arguments": '{"query": "albums"}'},
    }
    server.reply(chat_reply(None, tool_calls=[call]))
    llm = OpenAIChat("tiny", base_url=server.base_url)
    response = llm.chat([{"role": "user", "content": "find albums"}], tools=TOOLS)
    assert response.tool_calls == [ToolCall("c1", "search", {"query": "albums"})]
    assert server.requests[0]["tools"] == TOOLS
    # The assistant message carries the call back in wire form.
    wire = response.to_message()["tool_calls"][0]
    assert json.loads(wire["function"]["arguments"]) == {"query": "albums"}


def test_retries_429_then_succeeds(server: ScriptedServer) -> None:
    server.reply({"error": {"message": "slow down"}}, status=429, headers={"retry-after": "0.5"})
    server.reply({"error": "overloaded"}, status=503)
    server.reply(chat_reply("ok"))
    waits: list[float] = []
    llm = OpenAIChat("tiny", base_url=server.base_url, backoff=0.01, sleep=waits.append)
    assert llm.complete("hi") == "ok"
    assert len(server.requests) == 3
    assert 0.5 <= waits[0] < 0.6  # Retry-After wins over the backoff


def test_gives_up_after_retries(server: ScriptedServer) -> None:
    for _ in range(3):
        server.reply({"error": {"message": "busy"}}, status=500)
    llm = OpenAIChat("tiny", base_url=server.base_url, max_retries=2, sleep=lambda s: None)
    with pytest.raises(LLMError, match="after 3 attempts: HTTP 500: busy"):
        llm.complete("hi")


def test_bad_key_is_not_retried(server: ScriptedServer) -> None:
    server.reply({"error": {"message": "Incorrect API key"}}, status=401)
    llm = OpenAIChat("tiny", base_url=server.base_url, api_key="bad", sleep=lambda s: None)
    with pytest.raises(LLMError, match="refused the API key"):
        llm.complete("hi")
    assert len(server.requests) == 1


def test_unreachable_server() -> None:
    llm = OpenAIChat("tiny", base_url="http://127.0.0.1:9/v1", max_retries=1, sleep=lambda s: None)
    with pytest.raises(LLMError, match="could not connect"):
        llm.complete("hi")


def test_settings_from_env(server: ScriptedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAPI_RAG_LLM_BASE_URL", server.base_url)
    monkeypatch.setenv("OPENAPI_RAG_LLM_MODEL", "env-model")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-fallback")
    server.reply(chat_reply("yes"))
    llm = get_llm("openai")
    assert llm.model_id == "openai:env-model"
    assert llm.complete("hi") == "yes"
    assert server.headers[0]["Authorization"] == "Bearer sk-fallback"


def test_openai_host_needs_key() -> None:
    with pytest.raises(LLMError, match="No API key"):
        OpenAIChat("gpt-4o-mini")


def test_concurrency_limit(server: ScriptedServer) -> None:
    import threading

    for _ in range(6):
        server.reply(chat_reply("x"))
    llm = OpenAIChat("tiny", base_url=server.base_url, max_concurrency=2)
    inflight, peak = 0, 0
    lock = threading.Lock()
    post = llm._post

    def counting_post(payload: dict) -> object:
        nonlocal inflight, peak
        with lock:
            inflight += 1
            peak = max(peak, inflight)
        try:
            return post(payload)
        finally:
            with lock:
                inflight -= 1

    llm._post = counting_post  # type: ignore[method-assign]
    threads = [threading.Thread(target=llm.complete, args=("hi",)) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(server.requests) == 6 and peak <= 2
    assert llm.usage.total_tokens == 6 * 15
