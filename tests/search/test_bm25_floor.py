"""`bm25_floor_zero`: a rare word's near-equal BM25 scores stay near-equal in the hybrid fusion."""

from __future__ import annotations

from pathlib import Path

from openapi_rag.index import Index
from openapi_rag.spec import load_services

CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"


def test_a_dense_first_place_is_not_overturned_by_a_stretched_rare_word() -> None:
    index = Index.build(load_services([CATALOG / "spotify.json"]).services)  # the real default embedder
    query = "stop following this band"
    lexical = index.bm25.search(query, 50)
    assert len(lexical) < 50  # only the chunks with "following": the list is whole
    dense = [op.id for op in index.search(query, k=3, mode="dense", expand=False)]
    assert dense[0] == "DELETE /me/following"
    # the second list at its weight before session 21: at 1.25 it carries DELETE first on its own,
    # which would hide the floor this test is about
    index.searcher.configure(static_whole_weight=0.75, static_flat_weight=None)  # and not the flat-words rule
    index.searcher.configure(bm25_floor_zero=False)
    stretched = [op.id for op in index.search(query, k=3, expand=False)]
    assert stretched[0] == "GET /me/following"  # 1.226 against 1.196 read as 1 against 0
    index.searcher.configure(bm25_floor_zero=True)
    floored = [op.id for op in index.search(query, k=3, expand=False)]
    assert floored[0] == "DELETE /me/following"
