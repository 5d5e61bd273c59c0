"""`FaissStore.heads`: the chunks as search reads them, without content, decoded once."""

from __future__ import annotations

from dataclasses import replace

import pytest

from openapi_rag.store import FaissStore, faiss_store


def saved_store(tmp_path, chunks, unit_rows):  # type: ignore[no-untyped-def]
    store = FaissStore(8)
    chunks = [
        replace(c, file="/specs/x.yaml", metadata={**c.metadata, "bm25_text": "long text"}) for c in chunks
    ]
    store.add([c.id for c in chunks], unit_rows(len(chunks), 8), chunks)
    store.save(tmp_path / "store")
    return FaissStore.load(tmp_path / "store"), chunks


def test_heads_are_the_chunks_without_content_file_or_bm25_text(tmp_path, chunks, unit_rows) -> None:
    store, originals = saved_store(tmp_path, chunks, unit_rows)
    heads = store.heads(["b3", "a1"])
    full = store.get(["b3", "a1"])
    assert [h.id for h in heads] == ["b3", "a1"]
    for head, chunk in zip(heads, full, strict=True):
        assert chunk.content and chunk.file and chunk.metadata["bm25_text"]
        assert (head.content, head.file) == ("", "")
        assert "bm25_text" not in head.metadata
        stripped = {k: v for k, v in chunk.metadata.items() if k != "bm25_text"}
        assert replace(head, content=chunk.content, file=chunk.file, metadata=stripped) == replace(
            chunk, metadata=stripped
        )


def test_heads_are_decoded_once_and_unknown_ids_are_named(tmp_path, chunks, unit_rows) -> None:
    store, _ = saved_store(tmp_path, chunks, unit_rows)
    first = store.heads(["a1", "a2"])
    assert store.heads(["a2", "a1"]) == [first[1], first[0]]
    assert store.heads(["a1"])[0] is first[0]
    with pytest.raises(KeyError, match="nope"):
        store.heads(["a1", "nope"])


def test_heads_follow_additions_and_removals(chunks, unit_rows, make_chunk) -> None:
    store = FaissStore(8)
    store.add([c.id for c in chunks], unit_rows(len(chunks), 8), chunks)
    assert store.heads(["a1"])[0].embed_text == "a1"
    store.remove(["a1"])
    with pytest.raises(KeyError):
        store.heads(["a1"])
    again = make_chunk("a1", text="changed")
    store.add(["a1"], unit_rows(1, 8, seed=3), [again])
    assert store.heads(["a1"])[0].embed_text == "changed"


def test_the_cache_starts_over_past_its_limit(chunks, unit_rows, monkeypatch) -> None:
    monkeypatch.setattr(faiss_store, "HEADS_CACHE_LIMIT", 3)
    store = FaissStore(8)
    store.add([c.id for c in chunks], unit_rows(len(chunks), 8), chunks)
    ids = [c.id for c in chunks]
    assert [h.id for h in store.heads(ids[:2])] == ids[:2]
    assert [h.id for h in store.heads(ids)] == ids  # over the limit: still every one asked for
    assert len(store._heads) <= len(ids)
    assert [h.id for h in store.heads(ids[::-1])] == ids[::-1]
