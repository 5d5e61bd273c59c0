"""`search --spec` compares the query document with the vectors stored at index time."""

from __future__ import annotations

from openapi_rag.index import Index, build_index
from openapi_rag.index.spec_query import match_spec
from openapi_rag.spec import load_service
from tests.index.conftest import FIXTURES


def test_the_catalog_side_is_never_embedded_again(specs, tmp_path, word_hash) -> None:  # type: ignore[no-untyped-def]
    build_index([specs], tmp_path / "idx", embedder="word-hash")
    index = Index.open(tmp_path / "idx")
    word_hash.calls = 0
    same = match_spec(index, specs / "yelp.yaml", threshold=0.9)
    assert same["matches"][0]["score"] > 0.999 and same["found"]
    assert word_hash.calls == 0  # the query's texts are the stored ones (embedding cache)
    other = match_spec(index, FIXTURES / "cyclic.yaml", threshold=0.9)
    # only the query document's operations were embedded, not the catalog's
    assert 0 < word_hash.calls <= len(load_service(FIXTURES / "cyclic.yaml").operations)
    assert {m["service"] for m in other["matches"]} == set(index.manifest_service_ids())
