"""Index: build, save/open round trip, incremental updates, interruption safety, search options, show."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from openapi_rag.errors import IndexMismatch, IndexNotFound
from openapi_rag.index import Index, OperationNotFound, build_index
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.spec import load_services

from .conftest import FIXTURES


def test_build_save_open_round_trip(specs, tmp_path):
    services = load_services([specs]).services
    built = Index.build(services, strategy="thin", embedder="word-hash")
    built.save(tmp_path / "idx")
    opened = Index.open(tmp_path / "idx")
    assert opened.manifest.strategy == "thin" and opened.manifest.embedder == "word-hash"
    assert len(opened) == len(built)
    query = "buy museum tickets"
    assert [h.id for h in opened.search(query, k=5)] == [h.id for h in built.search(query, k=5)]
    for mode in ("dense", "bm25", "hybrid"):
        hits = opened.search(query, k=5, mode=mode)
        assert hits[0].id == "POST /tickets", mode
        ids = [(h.service, h.id) for h in hits]
        assert len(ids) == len(set(ids)) == 5  # each operation once


def test_incremental_update_add_change_delete(specs, tmp_path, word_hash):
    index_dir = tmp_path / "idx"
    first = build_index([specs], index_dir, embedder="word-hash")
    assert len(first.added) == 3 and first.written
    embedded = word_hash.calls

    again = build_index([specs], index_dir)
    assert (again.written, len(again.unchanged), word_hash.calls) == (False, 3, embedded)

    shutil.copy(FIXTURES / "swagger2.yaml", specs / "shop.yaml")
    text = (specs / "uber.yaml").read_text().replace("Price Estimates", "Fare quotes for a ride")
    (specs / "uber.yaml").write_text(text)
    (specs / "yelp.yaml").unlink()
    update = build_index([specs], index_dir)
    assert [Path(p).name for p in update.added] == ["shop.yaml"]
    assert [Path(p).name for p in update.changed] == ["uber.yaml"]
    assert [Path(p).name for p in update.removed] == ["yelp.yaml"]
    index = Index.open(index_dir)
    services = {h.service for h in index.search("anything at all businesses orders fare", k=50)}
    assert "yelp-v3" not in services and {"swagger-shop", "uber-api"} <= services
    summaries = {h.summary for h in index.search("fare quotes", k=3, service="uber-api")}
    assert "Fare quotes for a ride" in summaries
    assert all(not cid.startswith("yelp-v3:") for cid in index.store.ids())


def test_unchanged_service_keeps_its_id_and_multi_file_changes_are_seen(tmp_path):
    spec_dir = tmp_path / "multi"
    shutil.copytree(FIXTURES / "multi", spec_dir)
    build_index([spec_dir], tmp_path / "idx", embedder="word-hash")
    fragment = spec_dir / "schemas" / "new-pet.yaml"
    fragment.write_text(fragment.read_text() + "  colour:\n    type: string\n")
    report = build_index([spec_dir], tmp_path / "idx")
    assert len(report.changed) == 1  # a fragment changed, so its entry document is re-processed


def test_interrupted_save_leaves_the_previous_index_readable(specs, tmp_path, monkeypatch):
    index_dir = tmp_path / "idx"
    build_index([specs], index_dir, embedder="word-hash")
    before = sorted(Index.open(index_dir).store.ids())
    (specs / "yelp.yaml").unlink()

    def interrupted(self, directory, *, atomic=True):
        raise KeyboardInterrupt

    monkeypatch.setattr(BM25Index, "save", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build_index([specs], index_dir)
    monkeypatch.undo()
    assert sorted(Index.open(index_dir).store.ids()) == before
    # No temporary left behind; the lock file stays (removing it would race with a waiting writer).
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".idx")] == [".idx.lock"]


def test_settings_mismatch_is_refused(specs, tmp_path):
    build_index([specs], tmp_path / "idx", embedder="word-hash", strategy="thin")
    with pytest.raises(IndexMismatch, match="strategy: index has 'thin', asked for 'endpoint'"):
        build_index([specs], tmp_path / "idx", strategy="endpoint")
    report = build_index([specs], tmp_path / "idx", strategy="endpoint", embedder="word-hash", rebuild=True)
    assert report.written and Index.open(tmp_path / "idx").manifest.strategy == "endpoint"
    with pytest.raises(IndexMismatch, match="built with embedder 'word-hash'"):
        Index.open(tmp_path / "idx", embedder="minilm")


def test_missing_index_is_a_clear_error(tmp_path):
    with pytest.raises(IndexNotFound, match="openapi-rag index"):
        Index.open(tmp_path / "nothing")


def test_threshold_and_filters(specs, tmp_path):
    index = Index.build(load_services([specs]).services, embedder="word-hash")
    hits = index.search("museum tickets", threshold=0.3, mode="dense")
    assert hits and all(h.score >= 0.3 for h in hits)
    assert len(index.search("museum tickets", threshold=0.99, mode="dense")) == 0
    only_uber = index.search("tickets", k=5, service="uber-api")
    assert only_uber and {h.service for h in only_uber} == {"uber-api"}
    tagged = index.search("tickets", k=20, tag="Tickets")
    assert tagged and all(h.service == "redocly-museum-api" for h in tagged)


def test_show_resolves_schemas_and_names_ambiguity(tmp_path):
    spec_dir = tmp_path / "specs"
    spec_dir.mkdir()
    shutil.copy(FIXTURES / "cyclic.yaml", spec_dir / "a.yaml")
    shutil.copy(FIXTURES / "cyclic.yaml", spec_dir / "b.yaml")
    build_index([spec_dir], tmp_path / "idx", embedder="word-hash")
    index = Index.open(tmp_path / "idx")
    with pytest.raises(OperationNotFound, match="several services"):
        index.show("GET /nodes")
    detail = index.show("get /nodes", service="cycles-2")
    schema = detail["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["properties"]["children"]["items"] == {"x-cycle": "Node"}
    with pytest.raises(OperationNotFound, match="no operation 'GET /missing'"):
        index.show("GET /missing", service="cycles")


def test_ref_linked_results_carry_linked_chunks(tmp_path):
    services = load_services([FIXTURES / "multi" / "openapi.yaml"]).services
    index = Index.build(services, strategy="ref-linked", embedder="word-hash")
    hit = index.search("get one pet", k=1)[0]
    assert hit.id == "GET /pets/{petId}"
    linked = {link.chunk_id for link in hit.linked}
    assert "multi-file-pets:ref-linked:schema:Pet" in linked
    assert not index.search("get one pet", k=1, expand=False)[0].linked


def test_spec_as_query(specs, tmp_path):
    build_index([specs], tmp_path / "idx", embedder="word-hash")
    index = Index.open(tmp_path / "idx")
    from openapi_rag.index.spec_query import match_spec

    same = match_spec(index, specs / "uber.yaml", threshold=0.9)
    assert same["found"] and same["matches"][0]["service"] == "uber-api"
    assert same["matches"][0]["score"] == pytest.approx(1.0, abs=1e-3)
    other = match_spec(index, FIXTURES / "cyclic.yaml", threshold=0.9)
    assert not other["found"]
    assert json.dumps(other)  # plain data for --json
