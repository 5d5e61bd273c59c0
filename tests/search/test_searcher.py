from __future__ import annotations

import json

import numpy as np
import pytest

from openapi_rag.model import Chunk
from openapi_rag.search import BM25Index, Searcher
from openapi_rag.store import ChunkFilter, FaissStore

# (chunk id, kind, service, operations, text, metadata); chunk i's vector is the unit axis e_i, so a
# query vector's i-th weight is exactly chunk i's cosine when the query has unit length.
CORPUS = [
    (
        "get-playlist",
        "endpoint",
        "music",
        ["GET /playlists/{id}"],
        "Get a playlist",
        {"tags": ["playlists"], "summary": "Get a playlist", "schemas": ["Playlist"]},
    ),
    (
        "get-playlist-desc",
        "endpoint",
        "music",
        ["GET /playlists/{id}"],
        "Returns the playlist with its tracks",
        {"tags": ["playlists"]},
    ),
    (
        "add-tracks",
        "endpoint",
        "music",
        ["POST /playlists/{id}/tracks"],
        "Add tracks to a playlist",
        {"tags": ["playlists", "tracks"], "summary": "Add tracks"},
    ),
    (
        "search",
        "endpoint",
        "music",
        ["GET /search"],
        "Search artists albums and tracks",
        {"tags": ["search"]},
    ),
    (
        "albums-window",
        "document",
        "music",
        ["GET /albums", "GET /albums/{id}"],
        "Albums: list albums, get an album",
        {"tags": ["albums"]},
    ),
    (
        "schema-playlist",
        "schema",
        "music",
        [],
        "Playlist object: name, tracks, owner",
        {"schema": "Playlist"},
    ),
    ("errors", "errors", "music", [], "404 not found, 429 rate limit", {}),
    ("movie", "endpoint", "films", ["GET /movie/{id}"], "Get movie details", {"tags": ["movies"]}),
]
IDS = [row[0] for row in CORPUS]


def query_vector(**weights: float) -> np.ndarray:
    vector = np.zeros(len(CORPUS), dtype=np.float32)
    for name, weight in weights.items():
        vector[IDS.index(name.replace("_", "-"))] = weight
    return vector


# Unit length: .36 + .25 + .16 + .09 + .09 + .05 = 1, so these weights are the cosines.
QUERY = query_vector(
    add_tracks=0.6, get_playlist_desc=0.5, schema_playlist=0.4, get_playlist=0.3, search=0.3, movie=0.05**0.5
)


@pytest.fixture
def searcher() -> Searcher:
    chunks = [
        Chunk(id=i, kind=k, service=s, operations=ops, embed_text=t, content=t, metadata=m)
        for i, k, s, ops, t, m in CORPUS
    ]
    store = FaissStore(len(CORPUS))
    store.add(IDS, np.eye(len(CORPUS), dtype=np.float32), chunks)
    # No dependency lifting here: `GET /search` would be lifted as the producer of `{id}`s
    # (tests/search/test_quality_search.py covers lifting).
    # equal weights: the expected fusions below are worked out by hand for them
    return Searcher(store, BM25Index.from_chunks(chunks), dependencies=False, dense_weight=1.0)


def op_ids(results) -> list[str]:  # type: ignore[no-untyped-def]
    return [op.id for op in results.operations]


def test_dense_mode(searcher: Searcher) -> None:
    results = searcher.search(query_vector=QUERY, mode="dense", k=3)
    assert op_ids(results) == ["POST /playlists/{id}/tracks", "GET /playlists/{id}", "GET /search"]
    scores = [op.score for op in results.operations]
    assert scores == pytest.approx([0.6, 0.5, 0.3])
    playlist = results.operations[1]
    assert playlist.chunk_ids == ("get-playlist-desc", "get-playlist")  # best chunk first
    assert playlist.summary == "Get a playlist"  # from the chunk that carries one
    assert [(h.chunk_id, h.kind) for h in results.linked] == [
        ("schema-playlist", "schema"),
        ("errors", "errors"),
    ]
    assert results.mode == "dense" and results.linked[0].score == pytest.approx(0.4)


def test_bm25_mode(searcher: Searcher) -> None:
    results = searcher.search("add tracks to playlist", mode="bm25", k=2)
    assert op_ids(results) == ["POST /playlists/{id}/tracks", "GET /playlists/{id}"]
    assert all(op.dense_score is None and op.bm25_score == op.score for op in results.operations)
    assert searcher.search("zebra", mode="bm25").operations == ()


def test_hybrid_mode_is_rrf_of_both_lists(searcher: Searcher) -> None:
    # the default fusion is min-max (tests/search/test_quality_search.py); the fused order alone
    searcher.configure(fusion="rrf", settle_first=False)
    query = "albums"
    dense = [cid for cid, _ in searcher.store.search(QUERY, k=len(CORPUS))[0]]
    lexical = [cid for cid, _ in searcher.bm25.search(query, k=len(CORPUS))]  # type: ignore[union-attr]
    assert lexical == ["albums-window", "search"]
    expected = {
        cid: (1 / (60 + dense.index(cid) + 1)) + (1 / (60 + lexical.index(cid) + 1) if cid in lexical else 0)
        for cid in IDS
    }
    results = searcher.search(query, QUERY, k=10)
    # the head of each list (fusion_depth) is lifted by a constant 1e-6 x the total weight
    assert {h.chunk_id: h.score for h in results.chunks} == pytest.approx(expected, abs=1e-5)
    # search: 5th by cosine (tied with get-playlist at 0.3, which wins on id), 2nd by BM25:
    # 1/65 + 1/62 = .0315; albums-window: 7th and 1st: 1/67 + 1/61 = .0313; add-tracks: 1/61 = .0164.
    assert op_ids(results)[:4] == [
        "GET /search",
        "GET /albums",
        "GET /albums/{id}",
        "POST /playlists/{id}/tracks",
    ]
    window_ops = [op for op in results.operations if op.id.startswith("GET /albums")]
    assert len(window_ops) == 2 and window_ops[0].score == window_ops[1].score
    assert window_ops[0].score == pytest.approx(expected["albums-window"], abs=1e-5)
    assert results.operations[0].dense_score == pytest.approx(0.3) and results.operations[0].bm25_score > 0


def test_hybrid_weights(searcher: Searcher) -> None:
    searcher.configure(dense_weight=0.0)
    assert op_ids(searcher.search("albums", QUERY, k=1)) == ["GET /albums"]


def test_dense_threshold(searcher: Searcher) -> None:
    results = searcher.search(query_vector=QUERY, mode="dense", threshold=0.45)
    assert op_ids(results) == ["POST /playlists/{id}/tracks", "GET /playlists/{id}"]
    assert results.linked == ()
    results = searcher.search(query_vector=QUERY, mode="dense", threshold=0.35, k=1)  # k is ignored
    assert len(results.operations) == 2 and [h.chunk_id for h in results.linked] == ["schema-playlist"]
    assert searcher.search(query_vector=QUERY, mode="dense", threshold=0.99).operations == ()


def test_hybrid_threshold_cuts_on_cosine_and_orders_by_fusion(searcher: Searcher) -> None:
    results = searcher.search("albums search", QUERY, threshold=0.28)
    # albums-window matches by BM25 only (cosine 0): it does not pass the threshold.
    assert set(op_ids(results)) == {"POST /playlists/{id}/tracks", "GET /playlists/{id}", "GET /search"}
    assert op_ids(results)[0] == "GET /search"  # cosine 0.3 but boosted by BM25
    assert all(op.dense_score >= 0.28 for op in results.operations)  # type: ignore[operator]


def test_filters(searcher: Searcher) -> None:
    results = searcher.search("get", QUERY, k=5, filter=ChunkFilter.of(services="films"))
    assert [op.qualified_id for op in results.operations] == ["films GET /movie/{id}"]
    results = searcher.search("search tracks", QUERY, k=10, filter=ChunkFilter.of(tags="playlists"))
    assert set(op_ids(results)) == {"POST /playlists/{id}/tracks", "GET /playlists/{id}"}
    assert results.linked == ()
    results = searcher.search("playlist", mode="bm25", k=10, filter=ChunkFilter.of(kinds="schema"))
    assert results.operations == () and [h.chunk_id for h in results.linked] == ["schema-playlist"]


def test_k_operations_even_when_chunks_repeat_operations(searcher: Searcher) -> None:
    searcher.configure(min_fetch=1, fetch_factor=1, fusion_depth=1)
    # The first 3 chunks by cosine cover only 2 operations (plus a schema): the search fetches deeper.
    results = searcher.search(query_vector=QUERY, mode="dense", k=3)
    assert op_ids(results) == ["POST /playlists/{id}/tracks", "GET /playlists/{id}", "GET /search"]
    results = searcher.search(query_vector=QUERY, mode="dense", k=50)
    assert len(results.operations) == 6  # every operation in the store


def test_expand_attaches_linked_chunks(searcher: Searcher) -> None:
    results = searcher.search(query_vector=QUERY, mode="dense", k=2, expand=True)
    add_tracks, playlist = results.operations
    assert add_tracks.linked == ()  # its chunk has no "schemas" metadata
    assert [(h.chunk_id, h.linked_from) for h in playlist.linked] == [
        ("schema-playlist", "get-playlist"),
        ("errors", "get-playlist"),
    ]


def test_search_chunks(searcher: Searcher) -> None:
    hits = searcher.search_chunks(query_vector=QUERY, mode="dense", k=3)
    assert [h.chunk_id for h in hits] == ["add-tracks", "get-playlist-desc", "schema-playlist"]
    assert hits[2].dense_score == pytest.approx(0.4) and hits[2].bm25_score is None


def test_results_serialise_to_json(searcher: Searcher) -> None:
    data = json.loads(json.dumps(searcher.search("playlist", QUERY, k=2, expand=True).to_dict()))
    assert data["mode"] == "hybrid" and data["operations"][0]["service"] == "music"
    assert {"chunk_id", "score", "dense_score", "bm25_score", "linked_from"} <= set(data["chunks"][0])


def test_invalid_calls(searcher: Searcher) -> None:
    with pytest.raises(ValueError, match="unknown search mode 'sparse': use one of hybrid, dense, bm25"):
        searcher.search("q", QUERY, mode="sparse")
    with pytest.raises(ValueError, match="needs a query vector"):
        searcher.search("q")
    with pytest.raises(ValueError, match="needs the query text"):
        searcher.search(query_vector=QUERY)
    with pytest.raises(ValueError, match="use mode 'dense' or 'hybrid'"):
        searcher.search("q", mode="bm25", threshold=0.5)
    with pytest.raises(ValueError, match="needs a BM25 index"):
        Searcher(searcher.store).search("q", QUERY)
    assert Searcher(searcher.store).search(query_vector=QUERY, mode="dense", k=1).operations


def test_bm25_and_store_must_hold_the_same_chunks(searcher: Searcher) -> None:
    searcher.store.remove(["movie"])
    with pytest.raises(ValueError, match="hold different chunks"):
        Searcher(searcher.store, searcher.bm25)


def test_a_text_repeated_in_one_query_is_embedded_once() -> None:
    ops = ["GET /pets", "DELETE /pets/{id}"]
    chunks = [
        Chunk(id=f"pets:{op}", kind="endpoint", service="pets", operations=[op], embed_text=op, content=op)
        for op in ops
    ]
    store = FaissStore(2)
    store.add([c.id for c in chunks], np.eye(2, dtype=np.float32), chunks)
    vectors = {"list all pets": np.array([1.0, 0.0], np.float32), "delete a pet": np.array([0.0, 1.0], np.float32)}
    calls: list[list[str]] = []
    searcher = Searcher(
        store,
        BM25Index.from_chunks(chunks),
        embed=lambda texts: calls.append(list(texts)) or np.stack([vectors[t] for t in texts]),
        dependencies=False,
    )
    query = "list all pets, then list all pets, then delete a pet"
    assert searcher.texts_to_embed(query) == ["list all pets", "list all pets", "delete a pet"]
    results = searcher.search(query, k=2)
    assert calls == [["list all pets", "delete a pet"]]
    assert {op.id for op in results.operations} == set(ops)
    assert {h.chunk_id: h.dense_score for h in results.chunks} == {"pets:GET /pets": 1.0, "pets:DELETE /pets/{id}": 1.0}
