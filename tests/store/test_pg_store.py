"""The catalog in PostgreSQL + pgvector (#14), against a real server (`pg_fixtures.py`).

Same guarantees as the disk index: the same results through the same search code, settings recorded
and a mismatch refused, incremental updates in one transaction, readers that never see a mixed
state, one writer at a time per collection.
"""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import pytest

from openapi_rag.embed import register_embedder, unregister_embedder
from openapi_rag.errors import IndexLocked, IndexMismatch, IndexNotFound
from openapi_rag.index import Index, build_index
from openapi_rag.store.pg_target import PgTarget
from openapi_rag.store.pg_write import collection_lock, drop_collection, list_collections
from tests.index.conftest import CATALOG, WordHashEmbedder

QUERIES = [
    "museum tickets",
    "price estimate for a ride",
    "search businesses by phone",
    "user activity history",
]


@pytest.fixture(autouse=True)
def word_hash() -> WordHashEmbedder:
    instance = WordHashEmbedder()
    register_embedder("word-hash", lambda **_: instance)
    yield instance
    unregister_embedder("word-hash")


@pytest.fixture
def specs(tmp_path: Path) -> Path:
    folder = tmp_path / "specs"
    folder.mkdir()
    for name in ("uber.yaml", "yelp.yaml", "redocly-museum.yaml"):
        shutil.copy(CATALOG / name, folder / name)
    return folder


def _ranked(index: Index, query: str, **options: object) -> list[tuple[float, str, str]]:
    # pgvector sums in double precision, FAISS in single: scores agree to ~1e-7, so ties are
    # compared at 4 decimals, in one order.
    return sorted((-round(h.score, 4), h.service, h.id) for h in index.search(query, k=5, **options))


def test_a_collection_answers_exactly_as_the_disk_index(
    specs: Path, pg_target: PgTarget, tmp_path: Path
) -> None:
    build_index([specs], pg_target, embedder="word-hash")
    build_index([specs], tmp_path / "idx", embedder="word-hash")
    pg, disk = Index.open(pg_target), Index.open(tmp_path / "idx")
    assert len(pg) == len(disk) > 0 and pg.manifest.settings() == disk.manifest.settings()
    for query in QUERIES:
        for mode in ("hybrid", "dense", "bm25"):
            assert _ranked(pg, query, mode=mode) == _ranked(disk, query, mode=mode), (query, mode)
        service = _ranked(disk, query)[0][1]
        assert _ranked(pg, query, service=service) == _ranked(disk, query, service=service)
    assert pg.show("POST /tickets") == disk.show("POST /tickets")


def test_an_update_reprocesses_only_changed_specs_and_readers_follow(
    specs: Path, pg_target: PgTarget, word_hash: WordHashEmbedder
) -> None:
    build_index([specs], pg_target, embedder="word-hash")
    reader = Index.open(pg_target)
    before = reader.generation
    text = (specs / "redocly-museum.yaml").read_text()
    (specs / "redocly-museum.yaml").write_text(text.replace("Buy museum tickets", "Purchase gallery passes"))
    (specs / "yelp.yaml").unlink()
    word_hash.calls = 0
    report = build_index([specs], pg_target)  # settings come from the collection
    assert [Path(p).name for p in report.changed] == ["redocly-museum.yaml"]
    assert [Path(p).name for p in report.removed] == ["yelp.yaml"]
    assert [Path(p).name for p in report.unchanged] == ["uber.yaml"]
    assert 0 < word_hash.calls <= report.chunks_new  # only the changed spec was embedded
    # The reader opened before the update reloads the committed state at its next search.
    hits = reader.search("gallery passes", k=3)
    assert reader.generation == before + 1 and hits[0].id == "POST /tickets"
    assert "yelp" not in {s.service for s in reader.manifest.sources.values()}
    assert not [h for h in reader.search("businesses phone", k=10) if h.service.startswith("yelp")]
    assert build_index([specs], pg_target).written is False  # nothing changed: nothing written


def test_settings_are_recorded_and_another_embedder_is_refused(specs: Path, pg_target: PgTarget) -> None:
    build_index([specs], pg_target, embedder="word-hash")
    other = WordHashEmbedder()
    other.model_id = "other-hash"
    register_embedder("other-hash", lambda **_: other)
    try:
        generation = Index.open(pg_target).generation
        with pytest.raises(IndexMismatch, match="embedder: index has 'word-hash', asked for 'other-hash'"):
            build_index([specs], pg_target, embedder="other-hash")
        with pytest.raises(IndexMismatch, match="built with embedder 'word-hash', not 'other-hash'"):
            Index.open(pg_target, embedder="other-hash")
        assert Index.open(pg_target).generation == generation  # nothing written
        build_index([specs], pg_target, embedder="other-hash", rebuild=True)  # asked for: replaced whole
        assert Index.open(pg_target).manifest.embedder == "other-hash"
    finally:
        unregister_embedder("other-hash")


def test_a_second_writer_stops_naming_the_first_or_waits(specs: Path, pg_target: PgTarget) -> None:
    build_index([specs], pg_target, embedder="word-hash")
    release = threading.Event()
    held = threading.Event()

    def hold() -> None:
        with collection_lock(pg_target):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(10)
        with pytest.raises(IndexLocked, match=r"is being updated by openapi-rag pid \d+ .*--wait"):
            build_index([specs], pg_target, rebuild=True)
        assert Index.open(pg_target).search("museum tickets", k=1)[0].id == "POST /tickets"  # readers go on
        threading.Timer(0.5, release.set).start()
        started = time.monotonic()
        report = build_index([specs], pg_target, wait=True)
        assert time.monotonic() - started >= 0.4 and len(report.unchanged) == 3
    finally:
        release.set()
        holder.join()


def test_collections_share_a_database_and_drop_alone(specs: Path, pg_target: PgTarget) -> None:
    second = PgTarget(pg_target.dsn, pg_target.collection + "-b")
    build_index([specs], pg_target, embedder="word-hash")
    build_index([specs / "uber.yaml"], second, embedder="word-hash")
    listed = {c["collection"]: c for c in list_collections(pg_target)}
    assert listed[pg_target.collection]["services"] == 3 and listed[second.collection]["services"] == 1
    assert listed[second.collection]["chunks"] == listed[second.collection]["operations"] > 0
    assert drop_collection(second) and not drop_collection(second)
    with pytest.raises(
        IndexNotFound, match=f"no collection '{second.collection}'.*--collection {second.collection}"
    ):
        Index.open(second)
    assert Index.open(pg_target).search("museum tickets", k=1)[0].id == "POST /tickets"


def test_the_service_behind_http_and_mcp_serves_a_collection_and_reloads_it(
    specs: Path, pg_target: PgTarget
) -> None:
    from openapi_rag.serve.service import IndexHolder, SearchService

    build_index([specs], pg_target, embedder="word-hash")
    holder = IndexHolder(pg_target)
    service = SearchService(holder)
    assert service.search("museum tickets", k=1)[0]["id"] == "redocly-museum-api POST /tickets"
    assert service.get_endpoint("redocly-museum-api POST /tickets")["operationId"] == "buyMuseumTickets"
    assert {s["service"] for s in service.services()} == {"redocly-museum-api", "uber-api", "yelp-v3"}
    assert all(s["title"] and s["operations"] > 0 for s in service.services())
    assert holder.poll() is False  # nothing committed since it opened
    (specs / "yelp.yaml").unlink()
    build_index([specs], pg_target)
    assert holder.poll() is True and holder.reloads == 1
    assert {s["service"] for s in service.services()} == {"redocly-museum-api", "uber-api"}
