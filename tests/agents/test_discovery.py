from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from openapi_rag.agents import DiscoveryAgent, normalize_endpoint, parse_json_action
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm import LLMError, LLMResponse, ToolCall, Usage
from tests.llm.doubles import ScriptedLLM

ENDPOINTS = {
    "GET /artists/{id}/top-tracks": "Get an artist's top tracks",
    "POST /users/{user_id}/playlists": "Create a playlist",
    "POST /playlists/{playlist_id}/tracks": "Add items to a playlist",
    "GET /albums/{id}": "Get an album",
}


@dataclass
class Hit:
    id: str
    summary: str


class FakeIndex:
    """Ranks endpoints by words shared with the query; records the calls."""

    def __init__(self) -> None:
        self.searches: list[tuple[str, Any]] = []
        self.shown: list[str] = []

    def search(self, query: str, *, k: int | str = 10) -> list[Hit]:
        self.searches.append((query, k))
        words = set(query.lower().split())
        ranked = sorted(
            ENDPOINTS, key=lambda e: -len(words & set(ENDPOINTS[e].lower().replace("'s", "").split()))
        )
        return [Hit(e, ENDPOINTS[e]) for e in ranked[: int(k)]]

    def show(self, operation: str) -> dict[str, Any]:
        if operation not in ENDPOINTS:
            raise OpenAPIRagError(f"no operation {operation!r}")
        self.shown.append(operation)
        return {"operation": operation, "summary": ENDPOINTS[operation]}

    def __len__(self) -> int:
        return len(ENDPOINTS)


def _action(tool: str, **args: Any) -> str:
    return json.dumps({"tool": tool, "args": args})


def test_json_protocol_search_show_finish() -> None:
    llm = ScriptedLLM(
        [
            _action("search", query="artist top tracks"),
            "Sure! " + _action("search", query="create playlist") + " Hope that helps.",
            _action("show", endpoint="post /users/{user_id}/playlists"),
            _action(
                "finish",
                endpoints=["GET /artists/{id}/top-tracks", "POST /users/{user_id}/playlists", "GET /nope"],
            ),
        ]
    )
    index = FakeIndex()
    result = DiscoveryAgent(llm, index, k=2).run("Make a playlist of an artist's top tracks")
    assert result.finished and result.steps == 4 and result.stop == "finish"
    assert result.endpoints == [
        "GET /artists/{id}/top-tracks",
        "POST /users/{user_id}/playlists",
    ]  # GET /nope dropped
    assert [q for q, _ in index.searches] == ["artist top tracks", "create playlist"]
    assert index.searches[0][1] == 2
    assert index.shown[0] == "POST /users/{user_id}/playlists"
    # Observations come back as user messages; the tools are described in the system prompt.
    last = llm.calls[-1]["messages"]
    assert '"name": "search"' in last[0]["content"] and last[-1]["content"].startswith("Observation: {")
    assert "GET /artists/{id}/top-tracks: Get an artist's top tracks" in last[3]["content"]
    assert llm.calls[0]["tools"] is None
    assert result.usage == llm.usage and result.usage.prompt_tokens > 0


def test_native_tool_calls() -> None:
    def calls(*items: tuple[str, dict]) -> LLMResponse:
        return LLMResponse("", [ToolCall(f"c{i}", n, a) for i, (n, a) in enumerate(items)], Usage(100, 10))

    llm = ScriptedLLM(
        [
            calls(("search", {"query": "album"}), ("search", {"query": "add items to playlist"})),
            calls(("finish", {"endpoints": ["GET /albums/{id}", "POST /playlists/{playlist_id}/tracks"]})),
        ],
        supports_tools=True,
    )
    result = DiscoveryAgent(llm, FakeIndex(), k=None).run("Add an album to a playlist")
    assert result.endpoints == ["GET /albums/{id}", "POST /playlists/{playlist_id}/tracks"]
    assert result.usage == Usage(200, 20) and result.steps == 2
    second = llm.calls[1]["messages"]
    assert llm.calls[0]["tools"] and second[2]["tool_calls"][1]["function"]["name"] == "search"
    assert [m["tool_call_id"] for m in second[3:5]] == ["c0", "c1"]
    assert second[3]["content"].count("\n") == len(ENDPOINTS) - 1  # k=None: every endpoint


def test_native_model_answering_in_prose_finishes() -> None:
    llm = ScriptedLLM(
        ["You need GET /albums/{id}.\nThen POST /playlists/{playlist_id}/tracks."], supports_tools=True
    )
    result = DiscoveryAgent(llm, FakeIndex()).run("Add an album to a playlist")
    assert result.finished and result.endpoints == [
        "GET /albums/{id}",
        "POST /playlists/{playlist_id}/tracks",
    ]


def test_step_budget_and_unparseable_replies() -> None:
    llm = ScriptedLLM(
        [
            "I think you should look for playlists.",
            _action("search", query="add items to playlist"),
            _action("dance"),
        ],
    )
    result = DiscoveryAgent(llm, FakeIndex(), k=2, max_steps=3).run("Add a track to a playlist")
    assert not result.finished and result.steps == 3 and len(llm.calls) == 3 and result.stop == "budget"
    assert result.trace[0]["error"] == "no tool call"
    assert llm.calls[1]["messages"][-1]["content"].startswith("Reply with one JSON object")
    assert result.trace[2]["observation"].startswith("error: no tool 'dance'")
    # Out of steps: the best of its searches, limited to k.
    assert result.endpoints == ["POST /playlists/{playlist_id}/tracks", "POST /users/{user_id}/playlists"]


def test_show_errors_become_observations() -> None:
    llm = ScriptedLLM(
        [_action("show", endpoint="GET /missing"), _action("finish", endpoints="GET /albums/{id}")]
    )
    result = DiscoveryAgent(llm, FakeIndex()).run("Get an album")
    assert result.trace[0]["observation"].startswith("error: no operation")
    assert result.endpoints == ["GET /albums/{id}"]


def test_parsers() -> None:
    assert normalize_endpoint("spotify get /albums/{id}: Get an album") == "GET /albums/{id}"
    assert normalize_endpoint("nothing here") is None
    assert parse_json_action('```json\n{"tool": "search", "query": "x"}\n```') == ("search", {"query": "x"})
    assert parse_json_action('{"broken": } {"tool": "show", "args": {"endpoint": "GET /a"}}') == (
        "show",
        {"endpoint": "GET /a"},
    )
    assert parse_json_action("no json") is None


def test_json_schema_constrains_models_that_support_it() -> None:
    llm = ScriptedLLM([_action("finish", endpoints=["GET /albums/{id}"])])
    llm.supports_json_schema = True
    DiscoveryAgent(llm, FakeIndex()).run("Get an album")
    schema = llm.calls[0]["response_format"]["json_schema"]["schema"]
    assert [option["properties"]["tool"]["const"] for option in schema["anyOf"]] == [
        "search",
        "show",
        "finish",
    ]
    plain = ScriptedLLM([_action("finish", endpoints=["GET /albums/{id}"])])
    DiscoveryAgent(plain, FakeIndex()).run("Get an album")
    assert "response_format" not in plain.calls[0]


def test_budget_without_any_search_falls_back_to_plain_retrieval() -> None:
    llm = ScriptedLLM(["hmm", "hmm"])
    index = FakeIndex()
    result = DiscoveryAgent(llm, index, k=1, max_steps=2).run("add items to a playlist")
    assert not result.finished and index.searches == [("add items to a playlist", 1)]
    assert result.endpoints == ["POST /playlists/{playlist_id}/tracks"]


def test_repeated_action_is_pointed_out_then_stops_the_loop() -> None:
    same = _action("search", query="add items to playlist")
    llm = ScriptedLLM([same, same, _action("search", query="create playlist"), same, "never asked"])
    result = DiscoveryAgent(llm, FakeIndex(), k=1, max_steps=10).run("Add a track to a playlist")
    assert not result.finished and result.steps == 4 and len(llm.calls) == 4
    assert result.trace[1]["observation"].startswith("You already did exactly this")
    assert result.trace[3]["error"] == "loop" and result.stop == "loop"
    assert result.endpoints == ["POST /playlists/{playlist_id}/tracks"]  # the best of its searches, k=1


def test_llm_failure_first_step_raises_later_keeps_findings() -> None:
    def overflow(messages: list) -> str:
        raise LLMError("request exceeds the available context size")

    with pytest.raises(LLMError):
        DiscoveryAgent(ScriptedLLM(reply_fn=overflow), FakeIndex()).run("Get an album")
    llm = ScriptedLLM([_action("search", query="album")], reply_fn=overflow)
    result = DiscoveryAgent(llm, FakeIndex(), k=1).run("Get an album")
    assert not result.finished and result.steps == 1 and "context size" in result.trace[-1]["error"]
    assert result.stop == "error"
    assert result.endpoints == ["GET /albums/{id}"]
