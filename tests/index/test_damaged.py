"""A damaged index is named in one line, never dumped as a traceback, and never served (issue #20 item 5)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.embed import Embedder, register_embedder, unregister_embedder
from openapi_rag.errors import IndexDamaged, RemoteNotConfigured
from openapi_rag.index import Index, build_index
from openapi_rag.index.manifest import Manifest


@pytest.fixture
def idx(specs: Path, tmp_path: Path) -> Path:
    directory = tmp_path / "idx"
    build_index([specs], directory, embedder="word-hash")
    return directory


def _cut_half(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _nan_row(path: Path) -> None:
    vectors = np.load(path)
    vectors[3, 5] = np.nan
    np.save(path, vectors)


def _manifest_edit(change: Callable[[dict], None]) -> Callable[[Path], None]:
    def edit(path: Path) -> None:
        data = json.loads(path.read_text())
        change(data)
        path.write_text(json.dumps(data))

    return edit


DAMAGES = {
    "vectors cut": ("store/vectors.npy", _cut_half, "store/vectors.npy is truncated"),
    "vectors emptied": ("store/vectors.npy", lambda p: p.write_bytes(b""), "store/vectors.npy is truncated"),
    "vectors NaN": (
        "store/vectors.npy",
        _nan_row,
        "1 vector(s) with NaN or infinite values (first at row 3)",
    ),
    "sqlite garbage": (
        "store/chunks.sqlite",
        lambda p: p.write_bytes(b"garbage " * 600),
        "store/chunks.sqlite is not a readable SQLite database",
    ),
    "manifest garbage": ("manifest.json", lambda p: p.write_text("{nope"), "manifest.json is not valid JSON"),
    "manifest list": ("manifest.json", lambda p: p.write_text("[1, 2]"), "holds a JSON list, not an object"),
    "manifest field": (
        "manifest.json",
        _manifest_edit(lambda d: d.update(dimensions="64")),
        "manifest.json has no valid 'dimensions' field",
    ),
    "manifest counts": (
        "manifest.json",
        _manifest_edit(lambda d: next(iter(d["sources"].values()))["chunks"].pop()),
        "chunks, where the store holds",
    ),
    "ids garbage": ("store/ids.json", lambda p: p.write_text('{"a": 1}'), "store/ids.json holds a JSON dict"),
    "store.json empty": ("store/store.json", lambda p: p.write_text(""), "store/store.json is empty"),
    "bm25 cut": ("bm25/ids.json", _cut_half, "bm25/ids.json"),
}


@pytest.mark.parametrize("name", list(DAMAGES))
def test_a_damaged_index_gives_one_line_naming_the_file(idx: Path, name: str) -> None:
    file, damage, expected = DAMAGES[name]
    damage(idx / file)
    result = CliRunner().invoke(
        cli, ["search", "museum tickets", "--index", str(idx)], catch_exceptions=False
    )
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and expected in lines[0], result.stderr
    assert f"rebuild with `openapi-rag index SPECS... --index {idx} --rebuild`" in lines[0]
    assert result.stdout == ""


def test_rebuild_repairs_a_damaged_index(idx: Path, specs: Path) -> None:
    (idx / "store" / "vectors.npy").write_bytes(b"")
    with pytest.raises(IndexDamaged):
        build_index([specs], idx)  # an update reads the index first: it says so too
    build_index([specs], idx, embedder="word-hash", rebuild=True)
    assert Index.open(idx).search("museum tickets", k=1)[0].id == "POST /tickets"


def test_a_stored_service_file_is_checked_and_ids_cannot_leave_the_index(idx: Path) -> None:
    service = Index.open(idx).manifest_service_ids()[0]
    (idx / "services" / f"{service}.json").write_text("[]")
    with pytest.raises(IndexDamaged, match=f"services/{service}.json holds a JSON list"):
        Index.open(idx).service(service)
    _manifest_edit(lambda d: next(iter(d["sources"].values())).update(service="../../outside"))(
        idx / "manifest.json"
    )
    with pytest.raises(IndexDamaged, match="invalid service id '../../outside'"):
        Manifest.read(idx)


class _RemoteFake(Embedder):
    """Stands for an embedder that would send texts over the network; counts what it was sent."""

    model_id = "remote-fake"
    dimensions = 64
    remote = True
    sent: list[str] = []

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        type(self).sent.extend(texts)
        return np.ones((len(texts), 64), dtype=np.float32) / 8


@pytest.fixture
def remote_index(specs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    register_embedder("remote-fake", lambda **_: _RemoteFake())
    _RemoteFake.sent = []
    directory = tmp_path / "remote-idx"
    build_index([specs], directory, embedder="remote-fake")  # named by the user: allowed
    _RemoteFake.sent = []
    yield directory
    unregister_embedder("remote-fake")


def test_a_manifest_alone_never_sends_queries_to_a_remote_embedder(
    remote_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = CliRunner().invoke(cli, ["search", "museum tickets", "--index", str(remote_index)])
    assert result.exit_code == 1 and "built with the remote embedder 'remote-fake'" in result.stderr
    assert "pass --embedder remote-fake (or set OPENAPI_RAG_EMBEDDER=remote-fake)" in result.stderr
    with pytest.raises(RemoteNotConfigured):
        build_index([remote_index.parent / "specs"], remote_index)  # an update would send the specs
    assert _RemoteFake.sent == []

    args = ["search", "museum tickets", "--index", str(remote_index), "--embedder", "remote-fake"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    monkeypatch.setenv("OPENAPI_RAG_EMBEDDER", "remote-fake")
    assert CliRunner().invoke(cli, args[:4]).exit_code == 0
    assert "museum tickets" in _RemoteFake.sent


def test_a_remote_embedder_without_a_key_is_refused_as_unconfigured(idx: Path) -> None:
    """An index naming OpenAI: without consent the refusal is about consent, even with no key."""
    _manifest_edit(lambda d: d.update(embedder="openai:text-embedding-3-small"))(idx / "manifest.json")
    result = CliRunner().invoke(cli, ["search", "museum tickets", "--index", str(idx)])
    assert result.exit_code == 1
    assert "remote embedder 'openai:text-embedding-3-small', which would receive your texts" in result.stderr


def test_an_update_never_calls_the_llm_a_manifest_names(idx: Path, specs: Path) -> None:
    """The LLM of an LLM strategy is the user's choice (--llm, OPENAPI_RAG_LLM), never the manifest's."""
    from openapi_rag.chunking import get_strategy
    from openapi_rag.errors import IndexMismatch

    params = {**get_strategy("summary").params, "llm": "openai:gpt-4o-mini"}
    _manifest_edit(lambda d: d.update(strategy="summary", strategy_params=params))(idx / "manifest.json")
    with pytest.raises(IndexMismatch, match="'llm': 'openai:gpt-4o-mini'"):
        build_index([specs], idx)  # no key, no server: any attempt to call it would fail differently
