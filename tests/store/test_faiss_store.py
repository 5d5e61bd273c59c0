from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import faiss
import numpy as np
import pytest

from openapi_rag.errors import IndexDamaged, IndexMismatch, IndexNotFound
from openapi_rag.model import Chunk
from openapi_rag.store import ChunkFilter, FaissStore, VectorStore
from openapi_rag.store import faiss_store as faiss_store_module
from openapi_rag.store.chunk_table import ChunkTable

DIM = 4


def build(chunks: list[Chunk], vectors: np.ndarray, **options: object) -> FaissStore:
    store = FaissStore(vectors.shape[1], **options)  # type: ignore[arg-type]
    store.add([c.id for c in chunks], vectors, chunks)
    return store


def axis_vectors(n: int) -> np.ndarray:
    """Row i points mostly along axis i % DIM, slightly tilted by i so that all scores differ."""
    rows = np.zeros((n, DIM), dtype=np.float32)
    for i in range(n):
        rows[i, i % DIM] = 1.0
        rows[i, (i + 1) % DIM] = 0.1 * (i + 1)
    return rows


def test_is_a_vector_store() -> None:
    assert isinstance(FaissStore(DIM), VectorStore)


def test_exact_cosine_scores_and_order(chunks: list[Chunk]) -> None:
    vectors = np.array(
        [[1, 0, 0, 0], [3, 4, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 2], [-1, 0, 0, 0]],
        dtype=np.float32,
    )
    store = build(chunks, vectors)
    [ranked] = store.search(np.array([2, 0, 0, 0], dtype=np.float32), k=3)
    assert [cid for cid, _ in ranked] == ["a1", "a2", "a3"]  # a3, b1, b2 tie at 0: id order
    assert [score for _, score in ranked] == pytest.approx([1.0, 0.6, 0.0])
    assert store.get_vectors(["a2"]) == pytest.approx(np.array([[0.6, 0.8, 0, 0]]))


def test_without_normalisation_scores_are_raw_inner_products(chunks: list[Chunk]) -> None:
    vectors = np.eye(6, DIM, dtype=np.float32) * 2
    store = build(chunks, vectors, normalize=False)
    [ranked] = store.search(np.array([3, 0, 0, 0], dtype=np.float32), k=1)
    assert ranked == [("a1", pytest.approx(6.0))]


def test_batch_queries_give_one_list_each(chunks: list[Chunk]) -> None:
    store = build(chunks, axis_vectors(6))
    results = store.search(np.eye(2, DIM, dtype=np.float32), k=2)
    assert [[cid for cid, _ in r] for r in results] == [["a1", "b2"], ["a2", "b3"]]
    assert store.search(np.eye(1, DIM, dtype=np.float32)[0], k=2) == results[:1]


def test_ties_beyond_the_fetched_slack_are_ordered_by_id(make_chunk: Callable[..., Chunk]) -> None:
    many = [make_chunk(f"c{i:02d}") for i in range(30)]
    vectors = np.tile(np.array([[1, 0, 0, 0]], dtype=np.float32), (30, 1))
    vectors[0] = [0, 1, 0, 0]  # c00 is the one non-tied chunk
    store = build(many[::-1], vectors[::-1].copy())  # insertion order must not matter
    [ranked] = store.search(np.array([1, 0, 0, 0], dtype=np.float32), k=3)
    assert [cid for cid, _ in ranked] == ["c01", "c02", "c03"]


@pytest.mark.parametrize(
    ("flt", "expected"),
    [
        (ChunkFilter.of(services="beta"), ["b1", "b2", "b3"]),
        (ChunkFilter.of(tags=["admin", "orders"]), ["a2", "a3", "b2"]),
        (ChunkFilter.of(services="alpha", tags="users"), ["a1", "a2"]),
        (ChunkFilter.of(kinds="schema"), ["b3"]),
        (ChunkFilter.of(services="gamma"), []),
        (ChunkFilter(), ["a1", "a2", "a3", "b1", "b2", "b3"]),
    ],
)
def test_select(chunks: list[Chunk], flt: ChunkFilter, expected: list[str]) -> None:
    store = build(chunks, axis_vectors(6))
    assert store.select(flt) == expected
    assert all(flt.matches(c) == (c.id in expected) for c in chunks)


@pytest.mark.parametrize("index_type", ["flat", "hnsw"])
@pytest.mark.parametrize(
    ("subset_limit", "exact_limit"),
    [(4096, 20_000), (0, 20_000), (0, 0)],
    ids=["numpy-subset", "flat-scan-with-selector", "index-with-selector"],
)
def test_filter_applies_before_the_top_k_cut(
    chunks: list[Chunk], index_type: str, subset_limit: int, exact_limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(faiss_store_module, "SUBSET_SEARCH_LIMIT", subset_limit)
    monkeypatch.setattr(faiss_store_module, "EXACT_FILTER_LIMIT", exact_limit)
    vectors = np.array(
        [[1, 0, 0, 0], [0.9, 0.1, 0, 0], [0.8, 0.2, 0, 0], [0, 1, 0, 0], [0.1, 0.9, 0, 0], [0, 0, 1, 0]],
        dtype=np.float32,
    )
    store = build(chunks, vectors, index_type=index_type)
    query = np.array([1, 0, 0, 0], dtype=np.float32)
    # The three alpha chunks outrank every beta chunk, yet a beta filter still yields k hits.
    [ranked] = store.search(query, k=2, filter=ChunkFilter.of(services="beta"))
    assert [cid for cid, _ in ranked] == ["b2", "b1"]
    [ranked] = store.search(query, k=5, filter=ChunkFilter.of(tags="users"))
    assert [cid for cid, _ in ranked] == ["a1", "a2", "b1"]
    assert store.search(query, k=2, filter=ChunkFilter.of(services="nope")) == [[]]


def test_add_validates_input(chunks: list[Chunk]) -> None:
    store = build(chunks[:2], axis_vectors(2))
    with pytest.raises(ValueError, match="already stored or repeated: a1"):
        store.add(["a1"], axis_vectors(1), chunks[:1])
    with pytest.raises(ValueError, match="already stored or repeated: a3"):
        store.add(["a3", "a3"], axis_vectors(2), [chunks[2], chunks[2]])
    with pytest.raises(ValueError, match="disagree"):
        store.add(["zz"], axis_vectors(1), chunks[2:3])
    with pytest.raises(ValueError, match=r"shape \(n, 4\)"):
        store.add(["a3"], np.ones((1, 3), dtype=np.float32), chunks[2:3])
    with pytest.raises(ValueError, match="NaN"):
        store.add(["a3"], np.full((1, DIM), np.nan, dtype=np.float32), chunks[2:3])
    with pytest.raises(ValueError, match="got 2 ids, 1 vectors and 1 chunks"):
        store.add(["a3", "b1"], axis_vectors(1), chunks[2:3])
    assert len(store) == 2 and store.ids() == ["a1", "a2"]


@pytest.mark.parametrize("index_type", ["flat", "hnsw"])
def test_remove_by_id(chunks: list[Chunk], index_type: str) -> None:
    vectors = axis_vectors(6)
    store = build(chunks, vectors, index_type=index_type)
    store.search(vectors[0], k=1)  # build the FAISS index before removing
    assert store.remove(["a1", "b2", "unknown"]) == 2
    assert store.remove(["a1"]) == 0
    assert len(store) == 4 and store.ids() == ["a2", "a3", "b1", "b3"]
    assert "a1" not in store and "a2" in store
    with pytest.raises(KeyError, match="unknown chunk ids: a1"):
        store.get(["a1"])
    [ranked] = store.search(vectors[0], k=10)
    assert sorted(cid for cid, _ in ranked) == ["a2", "a3", "b1", "b3"]
    # Rows were compacted: every kept id still finds its own vector first.
    for cid, row in zip(["a2", "a3", "b1", "b3"], [1, 2, 3, 5], strict=True):
        assert store.search(vectors[row], k=1)[0][0][0] == cid
    assert store.get_vectors(["b3"]) == pytest.approx(vectors[5:6] / np.linalg.norm(vectors[5]))
    assert store.select(ChunkFilter.of(services="beta")) == ["b1", "b3"]
    # Adding after a removal keeps working.
    store.add(["a1"], vectors[:1], chunks[:1])
    assert store.search(vectors[0], k=1)[0][0][0] == "a1"


@pytest.mark.parametrize("index_type", ["flat", "hnsw"])
def test_save_load_round_trip(
    tmp_path: Path, index_type: str, make_chunk: Callable[..., Chunk], unit_rows: Callable[..., np.ndarray]
) -> None:
    many = [
        make_chunk(f"c{i:03d}", service=f"s{i % 3}", text=f"text {i}", tags=[f"t{i % 2}"], extra={"i": i})
        for i in range(200)
    ]
    vectors = unit_rows(200, 16)
    store = build(many, vectors, index_type=index_type, hnsw_m=8, ef_search=32)
    queries = unit_rows(5, 16, seed=1)
    before = store.search(queries, k=7)
    filtered_before = store.search(queries, k=7, filter=ChunkFilter.of(services="s1", tags="t0"))
    store.save(tmp_path / "store")

    files = sorted(p.name for p in (tmp_path / "store").iterdir())
    expected = ["chunks.sqlite", "ids.json", "store.json", "vectors.npy"]
    assert files == sorted(expected + (["index.faiss"] if index_type == "hnsw" else []))
    assert np.load(tmp_path / "store" / "vectors.npy") == pytest.approx(vectors, abs=1e-6)

    loaded = FaissStore.load(tmp_path / "store")
    assert loaded.options == store.options and loaded.dimensions == 16
    assert loaded.ids() == store.ids()
    assert loaded.search(queries, k=7) == before
    assert loaded.search(queries, k=7, filter=ChunkFilter.of(services="s1", tags="t0")) == filtered_before
    assert [c.to_dict() for c in loaded.get(["c150", "c007"])] == [many[150].to_dict(), many[7].to_dict()]
    assert [c.id for c in loaded.chunks(batch_size=64)] == [c.id for c in many]

    loaded.save(tmp_path / "store")  # saving over the directory it was loaded from
    assert loaded.get(["c001"])[0].to_dict() == many[1].to_dict()
    assert FaissStore.load(tmp_path / "store").search(queries, k=7) == before


def test_hnsw_finds_the_exact_neighbours_on_a_small_store(
    make_chunk: Callable[..., Chunk], unit_rows: Callable[..., np.ndarray]
) -> None:
    many = [make_chunk(f"c{i:03d}") for i in range(300)]
    vectors = unit_rows(300, 8)
    flat = build(many, vectors)
    hnsw = build(many, vectors, index_type="hnsw", hnsw_m=16, ef_construction=64, ef_search=64)
    queries = unit_rows(10, 8, seed=3)
    assert [[cid for cid, _ in r] for r in hnsw.search(queries, k=5)] == [
        [cid for cid, _ in r] for r in flat.search(queries, k=5)
    ]


@pytest.mark.parametrize("index_type", ["hnsw", "flat"])
def test_a_few_queries_go_to_faiss_one_at_a_time(
    make_chunk: Callable[..., Chunk],
    unit_rows: Callable[..., np.ndarray],
    monkeypatch: pytest.MonkeyPatch,
    index_type: str,
) -> None:
    many = [make_chunk(f"c{i:03d}", service="alpha" if i % 2 else "beta") for i in range(300)]
    store = build(many, unit_rows(300, 8), index_type=index_type)
    queries = unit_rows(3, 8, seed=3)
    flt = ChunkFilter.of(services="alpha") if index_type == "flat" else None  # no screen for a filter
    monkeypatch.setattr(faiss_store_module, "SUBSET_SEARCH_LIMIT", 0)  # the filter through FAISS too
    one_by_one = [store.search(query, k=5, filter=flt)[0] for query in queries]
    sizes: list[int] = []
    index_class = type(store._faiss())
    search = index_class.search
    monkeypatch.setattr(index_class, "search", lambda self, x, k, **kw: sizes.append(len(x)) or search(self, x, k, **kw))
    assert store.search(queries, k=5, filter=flt) == one_by_one
    assert sizes == [1, 1, 1]


def test_hnsw_load_can_override_ef_search(tmp_path: Path, chunks: list[Chunk]) -> None:
    build(chunks, axis_vectors(6), index_type="hnsw").save(tmp_path / "s")
    loaded = FaissStore.load(tmp_path / "s", ef_search=7)
    assert loaded.options.ef_search == 7
    loaded.set_ef_search(9)
    assert loaded.options.ef_search == 9


def test_incremental_update_after_load(tmp_path: Path, chunks: list[Chunk]) -> None:
    vectors = axis_vectors(6)
    build(chunks[:4], vectors[:4]).save(tmp_path / "s")
    store = FaissStore.load(tmp_path / "s", mmap=True)
    store.remove(["a2"])
    store.add(["b1-new", "b2"], vectors[4:6], [replace(chunks[3], id="b1-new"), chunks[4]])
    store.save(tmp_path / "s")  # overwrites the directory its vectors are mapped from
    again = FaissStore.load(tmp_path / "s")
    assert again.ids() == ["a1", "a3", "b1", "b1-new", "b2"]
    assert again.get(["a1"])[0].to_dict() == chunks[0].to_dict()
    assert again.search(vectors[4], k=1)[0][0][0] == "b1-new"


def test_empty_store(tmp_path: Path) -> None:
    store = FaissStore(DIM, index_type="hnsw")
    assert store.search(np.ones(DIM, dtype=np.float32), k=3) == [[]]
    store.save(tmp_path / "empty")
    loaded = FaissStore.load(tmp_path / "empty")
    assert len(loaded) == 0 and loaded.search(np.ones((2, DIM), dtype=np.float32), k=3) == [[], []]


def test_interrupted_save_leaves_the_previous_store_loadable(
    tmp_path: Path, chunks: list[Chunk], monkeypatch: pytest.MonkeyPatch
) -> None:
    vectors = axis_vectors(6)
    build(chunks[:3], vectors[:3]).save(tmp_path / "s")
    bigger = build(chunks, vectors)

    def fail(self: ChunkTable, path: object) -> None:
        Path(str(path)).write_text("half a database")
        raise OSError("disk full")

    monkeypatch.setattr(ChunkTable, "write", fail)
    with pytest.raises(OSError, match="disk full"):
        bigger.save(tmp_path / "s")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s"]  # the temporary copy is gone
    loaded = FaissStore.load(tmp_path / "s")
    assert loaded.ids() == ["a1", "a2", "a3"]
    assert loaded.search(vectors[1], k=1)[0][0][0] == "a2"


def test_interrupted_hnsw_write_leaves_the_previous_store_loadable(
    tmp_path: Path, chunks: list[Chunk], monkeypatch: pytest.MonkeyPatch
) -> None:
    vectors = axis_vectors(6)
    build(chunks[:2], vectors[:2], index_type="hnsw").save(tmp_path / "s")
    monkeypatch.setattr(faiss, "write_index", lambda *a: (_ for _ in ()).throw(MemoryError("killed")))
    with pytest.raises(MemoryError):
        build(chunks, vectors, index_type="hnsw").save(tmp_path / "s")
    assert FaissStore.load(tmp_path / "s").ids() == ["a1", "a2"]


def test_load_errors(tmp_path: Path, chunks: list[Chunk]) -> None:
    with pytest.raises(IndexNotFound):
        FaissStore.load(tmp_path / "nothing")
    build(chunks, axis_vectors(6)).save(tmp_path / "s")
    meta_path = tmp_path / "s" / "store.json"
    meta = json.loads(meta_path.read_text())

    meta_path.write_text(json.dumps({**meta, "format_version": 99}))
    with pytest.raises(IndexMismatch, match="upgrade openapi-rag or rebuild"):
        FaissStore.load(tmp_path / "s")

    meta_path.write_text(json.dumps({**meta, "count": 5}))
    with pytest.raises(IndexDamaged, match="ids.json lists 6 ids, where store.json counts 5"):
        FaissStore.load(tmp_path / "s")

    meta_path.write_text(json.dumps({**meta, "options": {**meta["options"], "colour": "red"}}))
    with pytest.raises(IndexDamaged, match="unknown FAISS store options: colour"):
        FaissStore.load(tmp_path / "s")


def test_options_are_validated() -> None:
    with pytest.raises(ValueError, match="index_type must be one of flat, hnsw"):
        FaissStore(DIM, index_type="ivf")
    with pytest.raises(ValueError, match="hnsw_m must be a positive integer"):
        FaissStore(DIM, hnsw_m=0)


def test_metadata_must_be_json(make_chunk: Callable[..., Chunk]) -> None:
    store = FaissStore(DIM)
    with pytest.raises(ValueError, match="chunk 'bad' has metadata that is not JSON"):
        store.add(["bad"], axis_vectors(1), [make_chunk("bad", when=object())])
    assert len(store) == 0 and store.search(axis_vectors(1), k=1) == [[]]


def test_the_store_keeps_its_own_copy_of_the_vectors(chunks: list[Chunk]) -> None:
    vectors = axis_vectors(2)
    store = build(chunks[:2], vectors, normalize=False)
    vectors[:] = 0
    assert store.get_vectors(["a1"]) == pytest.approx(axis_vectors(1))
