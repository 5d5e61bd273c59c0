"""`openapi-rag index --second-embedder`: another model's list fused beside the first's, kept by
updates, dropped on request, and never a way for an index to reach a remote model unasked."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.errors import RemoteNotConfigured
from openapi_rag.index import Index, build_index
from openapi_rag.search.views import SECOND_EMBEDDER_WEIGHT, STATIC_DIR

from .conftest import CATALOG


@pytest.fixture()
def spotify(tmp_path):
    folder = tmp_path / "specs"
    folder.mkdir()
    shutil.copy(CATALOG / "spotify.json", folder)
    return folder


def test_second_list_is_built_recorded_kept_and_dropped(spotify, tmp_path):
    target = tmp_path / "idx"
    runner = CliRunner()
    result = runner.invoke(cli, ["index", str(spotify), "-i", str(target), "--second-embedder", "minilm-users"])
    assert result.exit_code == 0, result.output
    index = Index.open(target)
    assert index.static is not None and index.static.embedder.model_id == "all-MiniLM-L6-v2-users-onnx-int8"
    assert sorted(index.static.ids) == sorted(index.store.ids())
    assert index.searcher.settings.static_weight == SECOND_EMBEDDER_WEIGHT  # recorded with the index
    # The real fine-tuned model reads users' words: its list differs from the default's.
    first = index.searcher.static.search(5, text="stop following this band")
    assert first[0][0].endswith("DELETE /me/following")

    # The same option again, by another of its names, nothing changed: nothing is written.
    again = runner.invoke(
        cli, ["index", str(spotify), "-i", str(target), "--second-embedder", "minilm-users-int8", "--json"]
    )
    assert again.exit_code == 0 and json.loads(again.output)["written"] is False

    # An update without the option keeps it; a changed spec is re-embedded by both models.
    spec = json.loads((spotify / "spotify.json").read_text("utf-8"))
    spec["paths"].pop(next(iter(spec["paths"])))
    (spotify / "spotify.json").write_text(json.dumps(spec), "utf-8")
    assert runner.invoke(cli, ["index", str(spotify), "-i", str(target)]).exit_code == 0
    updated = Index.open(target)
    assert updated.static is not None and sorted(updated.static.ids) == sorted(updated.store.ids())
    assert len(updated.static) < len(index.static)

    # 'none' drops it, with nothing else changed, and the weight goes back to 0.
    result = runner.invoke(cli, ["index", str(spotify), "-i", str(target), "--second-embedder", "none"])
    assert result.exit_code == 0, result.output
    dropped = Index.open(target)
    assert dropped.static is None and not (target / STATIC_DIR).exists()
    assert dropped.searcher.settings.static_weight == 0


def test_a_wrong_name_stops_before_any_work(spotify, tmp_path):
    result = CliRunner().invoke(
        cli, ["index", str(spotify), "-i", str(tmp_path / "idx"), "--second-embedder", "nosuch"]
    )
    assert result.exit_code != 0 and "Unknown embedder 'nosuch'" in result.output
    assert not (tmp_path / "idx").exists()


def test_an_index_naming_a_remote_second_embedder_is_refused(specs, tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAPI_RAG_EMBEDDER", raising=False)
    build_index([specs], tmp_path / "idx", embedder="word-hash", second_embedder="word-hash")
    meta = tmp_path / "idx" / STATIC_DIR / "view.json"
    data = json.loads(meta.read_text("utf-8"))
    data["embedder"] = "openai:text-embedding-3-small"  # a stranger's index pointing at a remote model
    meta.write_text(json.dumps(data), "utf-8")
    with pytest.raises(RemoteNotConfigured, match="openai:text-embedding-3-small"):
        Index.open(tmp_path / "idx")


def test_a_postgresql_collection_refuses_it_before_connecting(specs):
    from openapi_rag.store.pg_target import PgTarget

    nowhere = PgTarget("postgresql://nobody@127.0.0.1:1/none")  # never reached: refused first
    with pytest.raises(ValueError, match="second embedder"):
        build_index([specs], nowhere, embedder="word-hash", second_embedder="minilm-users")
