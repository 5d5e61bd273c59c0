"""Learned sparse expansion: the real SPLADE-tiny int8 ONNX shipped in the package, on real operations."""

from __future__ import annotations

import pytest

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.aliases import words_of
from openapi_rag.chunking.expansion import ExpansionSettings, ExpansionWriter, shared_encoder
from openapi_rag.embed.splade import SpladeEncoder
from openapi_rag.errors import EmbedderError
from openapi_rag.search.bm25 import BM25_TEXT, BM25Index
from openapi_rag.spec import load_services
from tests.conftest import shared_data


@pytest.fixture(scope="module")
def spotify():
    return load_services([shared_data("restbench", "specs", "spotify_oas.json")]).services[0]


def test_splade_weighs_the_words_a_text_implies() -> None:
    encoder = shared_encoder()
    weights = encoder.weights(["Create a dispute for a charge", "List terminal readers"])
    vocab = encoder.vocabulary
    top = [{vocab[i] for i in row.argsort()[::-1][:12]} for row in weights]
    assert {"dispute", "charge"} <= top[0] and "disputes" in top[0]  # said, and implied forms
    assert {"terminal", "reader"} <= top[1]
    assert weights.shape == (2, len(vocab)) and (weights >= 0).all()


def test_expansions_are_bounded_and_new() -> None:
    line = "Create a dispute for a charge"
    words = ExpansionWriter(ExpansionSettings(limit=3, min_weight=0.5)).expansions([line], [line])[0]
    assert 0 < len(words) <= 3
    said = set(words_of(line))
    assert all(w.isalpha() and len(w) >= 3 for w in words)
    assert not any(w.startswith(("disput", "charg", "creat")) for w in words), words  # no other form
    assert said.isdisjoint(words)
    assert ExpansionWriter(ExpansionSettings(limit=3, min_weight=99.0)).expansions([line], [line]) == [[]]


def test_compact_adds_implied_words_for_bm25_only_and_the_right_operation_moves_up(spotify) -> None:
    plain = get_strategy("compact").chunk_service(spotify)
    # At weight .5, not 1: the int8 model's weights move with the CPU (ONNX Runtime's u8 x s8 kernels
    # differ between AVX2 and AVX-512 VNNI); "advise" weighs over 1 on one machine, under it on another.
    strategy = get_strategy("compact", expansion=8, expansion_min_weight=0.5)
    chunks = strategy.chunk_service(spotify)
    assert [c.embed_text for c in chunks] == [c.embed_text for c in plain]  # the embedded line is as it was
    grown = [c for c, p in zip(chunks, plain, strict=True) if c.metadata[BM25_TEXT] != p.metadata[BM25_TEXT]]
    assert len(grown) >= len(chunks) // 2
    assert strategy.params["expansion"] == 8 and strategy.params["expansion_min_weight"] == 0.5
    assert "expansion" not in get_strategy("compact").params  # off: not recorded, old manifests compare
    # A user asks for advice; the API says "recommendations". The model implies the user's word.
    target = next(c.id for c in chunks if c.operations[0] == "GET /recommendations")

    def rank(cs: list, query: str) -> int:
        ids = [cid for cid, _ in BM25Index.from_chunks(cs).search(query, len(cs))]
        return ids.index(target) if target in ids else len(cs)

    assert rank(chunks, "advise me") == 0 and rank(plain, "advise me") == len(plain)
    assert rank(chunks, "advise me some music") < rank(plain, "advise me some music")


def test_a_missing_model_is_one_clear_error(tmp_path) -> None:
    with pytest.raises(EmbedderError, match=r"model\.onnx: the SPLADE model is missing .*export_splade"):
        SpladeEncoder(tmp_path).weights(["anything"])


def test_writers_with_other_settings_run_the_model_once_per_text() -> None:
    encoder = SpladeEncoder()
    runs: list[int] = []
    weights = encoder.weights
    encoder.weights = lambda texts: runs.append(len(texts)) or weights(texts)  # type: ignore[method-assign]
    lines = ["Refund a payment", "List invoices"]
    narrow = ExpansionWriter(ExpansionSettings(limit=2, min_weight=1.0), encoder).expansions(lines, lines)
    wide = ExpansionWriter(ExpansionSettings(limit=8, min_weight=0.5), encoder).expansions(lines, lines)
    assert runs == [2]
    assert all(set(n) <= set(w) and len(n) <= 2 for n, w in zip(narrow, wide, strict=True))


def test_the_model_can_read_only_what_an_operation_does(spotify) -> None:
    strategy = get_strategy("compact", expansion=8, expansion_source="statements")
    assert strategy.params["expansion_source"] == "statements"
    assert "expansion_source" not in get_strategy("compact", expansion=8).params  # the first source
    chunks = strategy.chunk_service(spotify)
    line = get_strategy("compact", expansion=8).chunk_service(spotify)
    assert [c.metadata[BM25_TEXT] for c in chunks] != [c.metadata[BM25_TEXT] for c in line]
    with pytest.raises(ValueError, match="expansion_source"):
        get_strategy("compact", expansion_source="everything")
