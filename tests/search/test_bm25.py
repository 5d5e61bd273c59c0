from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from openapi_rag.errors import IndexMismatch, IndexNotFound
from openapi_rag.model import Chunk
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.tokenize import ApiTokenizer
from openapi_rag.store import FaissStore, atomic_dir

CORPUS = {
    "get-playlist": "GET /playlists/{playlist_id} Get a playlist owned by a user",
    "add-tracks": "POST /playlists/{playlist_id}/tracks Add tracks to a playlist",
    "search": "GET /search Search for artists, albums and tracks",
    "get-artist": "GET /artists/{id} Get an artist",
    "movie": "GET /movie/{movie_id} Get the primary details of a movie",
}


@pytest.fixture
def bm25() -> BM25Index:
    return BM25Index.build(list(CORPUS), list(CORPUS.values()))


def ids(ranked: list[tuple[str, float]]) -> list[str]:
    return [chunk_id for chunk_id, _ in ranked]


def test_hand_computed_score() -> None:
    index = BM25Index.build(["d0", "d1"], ["playlist track", "album"])
    # Lucene BM25 (k1=1.5, b=0.9): idf = ln(1 + (2-1+0.5)/(1+0.5)) = ln 2; dl = 2, avgdl = 1.5.
    expected = math.log(2) * 1 / (1 + 1.5 * (0.1 + 0.9 * 2 / 1.5))
    assert index.search("Playlists", k=5) == [("d0", pytest.approx(expected, rel=1e-6))]
    assert index.scores("playlists") == pytest.approx([expected, 0.0], rel=1e-6)
    usual = BM25Index.build(["d0", "d1"], ["playlist track", "album"], b=0.75)
    assert usual.scores("playlists")[0] == pytest.approx(
        math.log(2) * 1 / (1 + 1.5 * (0.25 + 0.75 * 2 / 1.5)), rel=1e-6
    )


def test_ranking_on_a_small_corpus(bm25: BM25Index) -> None:
    assert ids(bm25.search("add tracks to my playlist", k=3)) == ["add-tracks", "get-playlist", "search"]
    assert ids(bm25.search("movies", k=3)) == ["movie"]
    assert ids(bm25.search("artist albums", k=5)) == ["search", "get-artist"]
    # playlistId in the query meets playlist_id in the paths through the joined token.
    assert set(ids(bm25.search("playlistId", k=2))) == {"add-tracks", "get-playlist"}


def test_scores_are_positive_and_sorted(bm25: BM25Index) -> None:
    ranked = bm25.search("get playlist tracks", k=10)
    scores = [score for _, score in ranked]
    assert all(s > 0 for s in scores) and scores == sorted(scores, reverse=True)
    assert len(bm25.search("get playlist tracks", k=2)) == 2


def test_no_match_and_empty_query(bm25: BM25Index) -> None:
    assert bm25.search("zebra quantum", k=5) == []
    assert bm25.search("", k=5) == []
    assert bm25.search("the of a", k=5) == []  # only stopwords
    assert bm25.search("playlist", k=0) == []


def test_filter_applies_before_the_cut(bm25: BM25Index) -> None:
    ranked = bm25.search("get playlist", k=1, allowed=["movie", "get-artist", "not-indexed"])
    assert ids(ranked) == ["get-artist"]  # shorter document, same single "get" match
    assert bm25.search("playlist", k=3, allowed=[]) == []


def test_ties_are_ordered_by_id() -> None:
    index = BM25Index.build(["z", "m", "a", "q"], ["list users", "list users", "list users", "other"])
    assert ids(index.search("users", k=2)) == ["a", "m"]


def test_synonyms_are_saved_with_the_index(tmp_path: Path) -> None:
    tokenizer = ApiTokenizer(synonyms=True)
    index = BM25Index.build(["p"], ["Retrieve a playlist"], tokenizer=tokenizer)
    index.save(tmp_path / "bm25")
    loaded = BM25Index.load(tmp_path / "bm25")
    assert loaded.tokenizer == tokenizer
    assert ids(loaded.search("fetch playlists", k=1)) == ["p"]
    assert loaded.search("fetch", k=1) == index.search("get", k=1)


@pytest.mark.parametrize("mmap", [False, True])
def test_save_load_round_trip(tmp_path: Path, bm25: BM25Index, mmap: bool) -> None:
    bm25.save(tmp_path / "bm25")
    loaded = BM25Index.load(tmp_path / "bm25", mmap=mmap)
    assert loaded.ids() == list(CORPUS) and len(loaded) == 5 and "movie" in loaded
    for query in ("add tracks to my playlist", "artist", "movie details"):
        assert loaded.search(query, k=5) == bm25.search(query, k=5)


def test_empty_index(tmp_path: Path) -> None:
    empty = BM25Index.build([], [])
    assert len(empty) == 0 and empty.search("anything", k=3) == []
    empty.save(tmp_path / "e")
    assert BM25Index.load(tmp_path / "e").search("anything", k=3) == []


def test_from_chunks(make_chunk: Callable[..., Chunk]) -> None:
    chunks = [make_chunk("alpha", text="delete an album"), make_chunk("beta", text="create an album")]
    assert ids(BM25Index.from_chunks(chunks).search("delete", k=2)) == ["alpha"]
    by_content = BM25Index.from_chunks(chunks, field="content")  # "content of beta"
    assert ids(by_content.search("beta", k=2)) == ["beta"]
    with pytest.raises(ValueError, match="field must be"):
        BM25Index.from_chunks(chunks, field="metadata")


def test_corpus_without_any_token(tmp_path: Path) -> None:
    index = BM25Index.build(["a", "b"], ["x", "the"])  # a single letter and a stopword
    assert index.search("x the", k=3) == [] and len(index) == 2
    index.save(tmp_path / "t")
    assert BM25Index.load(tmp_path / "t").ids() == ["a", "b"]


def test_build_and_load_errors(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="got 2 ids and 1 texts"):
        BM25Index.build(["a", "b"], ["x"])
    with pytest.raises(ValueError, match="unique"):
        BM25Index.build(["a", "a"], ["x", "y"])
    with pytest.raises(IndexNotFound):
        BM25Index.load(tmp_path / "missing")
    BM25Index.build(["a"], ["xylophone"]).save(tmp_path / "b")
    (tmp_path / "b" / "ids.json").write_text('["a", "b"]')
    with pytest.raises(IndexMismatch, match="inconsistent"):
        BM25Index.load(tmp_path / "b")


def test_store_and_bm25_saved_together_in_one_atomic_swap(tmp_path: Path, bm25: BM25Index) -> None:
    """The pattern an index uses: every part written with atomic=False inside one atomic_dir."""
    chunks = [
        Chunk(id=i, kind="endpoint", service="s", operations=[], embed_text=t, content=t)
        for i, t in CORPUS.items()
    ]
    store = FaissStore(3)
    store.add(list(CORPUS), np.eye(5, 3, dtype=np.float32) + 0.1, chunks)
    with atomic_dir(tmp_path / "index") as tmp:
        store.save(tmp / "vectors", atomic=False)
        bm25.save(tmp / "bm25", atomic=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index"]
    assert (
        FaissStore.load(tmp_path / "index" / "vectors").ids()
        == BM25Index.load(tmp_path / "index" / "bm25").ids()
    )
