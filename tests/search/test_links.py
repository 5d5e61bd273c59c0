from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from openapi_rag.model import Chunk
from openapi_rag.search.links import expand_links
from openapi_rag.search.results import Hit
from openapi_rag.store import FaissStore


@pytest.fixture
def store(make_chunk: Callable[..., Chunk], unit_rows: Callable[..., np.ndarray]) -> FaissStore:
    chunks = [
        make_chunk("e1", service="music", schemas=["Track", "Playlist"]),
        make_chunk("e2", service="music", schemas=["Playlist"]),
        make_chunk("e3", service="music"),  # not ref-linked: no "schemas" key
        make_chunk("s-playlist", service="music", kind="schema", operations=[], schema="Playlist"),
        make_chunk("s-track", service="music", kind="schema", operations=[], schema="Track"),
        make_chunk("s-album", service="music", kind="schema", operations=[], schema="Album"),
        make_chunk("err", service="music", kind="errors", operations=[]),
        make_chunk("sec", service="music", kind="security", operations=[]),
        make_chunk("f1", service="films", schemas=["Movie", "Missing"]),
        make_chunk("f-movie", service="films", kind="schema", operations=[], schema="Movie"),
        make_chunk("f-playlist", service="films", kind="schema", operations=[], schema="Playlist"),
        make_chunk("f-err", service="films", kind="errors", operations=[]),
    ]
    store = FaissStore(8)
    store.add([c.id for c in chunks], unit_rows(len(chunks), 8), chunks)
    return store


def hit_of(store: FaissStore, chunk_id: str, score: float) -> Hit:
    return Hit.of(store.get([chunk_id])[0], score)


def test_expansion_order_and_dedupe(store: FaissStore) -> None:
    hits = [
        hit_of(store, "e2", 0.9),
        hit_of(store, "e3", 0.8),
        hit_of(store, "f1", 0.7),
        hit_of(store, "e1", 0.6),
    ]
    expanded = expand_links(hits, store)
    assert expanded[:4] == hits
    linked = [(h.chunk_id, h.linked_from, h.score, h.kind) for h in expanded[4:]]
    assert linked == [
        ("s-playlist", "e2", 0.9, "schema"),
        ("err", "e2", 0.9, "errors"),
        ("sec", "e2", 0.9, "security"),
        ("f-movie", "f1", 0.7, "schema"),  # never the other service's Playlist; Missing is skipped
        ("f-err", "f1", 0.7, "errors"),
        ("s-track", "e1", 0.6, "schema"),  # e1's other links were already pulled in by e2
    ]


def test_chunks_already_hit_are_not_repeated(store: FaissStore) -> None:
    hits = [hit_of(store, "e1", 0.9), hit_of(store, "s-track", 0.5)]
    assert [h.chunk_id for h in expand_links(hits, store)] == ["e1", "s-track", "s-playlist", "err", "sec"]


def test_nothing_to_expand(store: FaissStore) -> None:
    assert expand_links([], store) == []
    only = [hit_of(store, "e3", 0.9)]
    assert expand_links(only, store) == only


def test_shared_cache_gives_the_same_result(store: FaissStore) -> None:
    cache: dict[str, object] = {}
    first = expand_links([hit_of(store, "e1", 0.9)], store, cache=cache)
    assert "music" in cache
    assert expand_links([hit_of(store, "e1", 0.9)], store, cache=cache) == first
