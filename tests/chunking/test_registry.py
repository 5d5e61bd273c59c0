"""The strategy registry and the Python entry point."""

from __future__ import annotations

import logging

import pytest

from openapi_rag.chunking import (
    STRATEGIES,
    EndpointStrategy,
    chunk_services,
    endpoint_json,
    get_strategy,
    list_strategies,
    register_strategy,
)
from openapi_rag.model import Operation, Service


def test_the_paper_and_reference_aware_strategies_are_registered() -> None:
    assert list_strategies()[:8] == [
        "whole", "json", "endpoint", "thin", "fields", "endpoint-json", "ref-inline", "ref-linked",
    ]  # fmt: skip


def test_unknown_strategy_lists_the_valid_ones() -> None:
    with pytest.raises(
        ValueError, match="Unknown chunking strategy 'nope'. Valid strategies: whole, json, endpoint"
    ):
        get_strategy("nope")


def test_unknown_parameter_and_bad_values() -> None:
    with pytest.raises(
        ValueError, match=r"'endpoint' takes no parameter depth \(it takes: overlap, size, tokenizer\)"
    ):
        get_strategy("endpoint", depth=2)
    with pytest.raises(ValueError, match="size must be larger than overlap"):
        get_strategy("whole", size=10, overlap=10)
    with pytest.raises(ValueError, match="depth must be 0 or more"):
        get_strategy("ref-inline", depth=-1)


def test_defaults_respect_the_model_input() -> None:
    assert get_strategy("whole").params == {"size": 100, "overlap": 0, "tokenizer": "minilm"}
    assert get_strategy("json", size=None, overlap=20).params["overlap"] == 20
    assert get_strategy("endpoint").size == 1_000_000  # one chunk per operation unless asked
    assert get_strategy("ref-inline").size == 254  # 256 minus [CLS] and [SEP]
    assert get_strategy("ref-inline").params["depth"] == 2
    assert get_strategy("ref-linked").params == {"size": 254, "overlap": 0, "tokenizer": "minilm", "depth": 0}
    assert get_strategy("thin", tokenizer="o200k_base").size == 1_000_000
    assert get_strategy("ref-linked", tokenizer="o200k_base").size == 128_000


def test_a_size_beyond_the_model_warns(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="openapi_rag.chunking.base"):
        get_strategy("endpoint", size=512)
    assert "chunk size 512 is more than the minilm model's input of 254 tokens" in caplog.text


class QuestionsStrategy(EndpointStrategy):
    """Stands in for an LLM strategy: embeds generated text, returns the endpoint."""

    name = "questions"

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        return [(op.id, f"How do I {op.summary.lower()}?") for op in ops]

    def contents(self, service: Service, ops: list[Operation]) -> list[str] | None:
        return [endpoint_json(op) for op in ops]


def test_an_llm_style_strategy_slots_in(campaigns: Service) -> None:
    register_strategy("questions", QuestionsStrategy)
    try:
        chunks = chunk_services([campaigns], "questions")
    finally:
        del STRATEGIES["questions"]
    assert [c.embed_text for c in chunks] == [
        "GET /campaigns\nHow do I list campaigns?",
        "POST /campaigns\nHow do I create a campaign?",
        "GET /campaigns/{id}\nHow do I get a campaign?",
    ]
    assert chunks[0].content == endpoint_json(campaigns.operations[0])
    assert chunks[0].id == "campaigns-api:questions:GET /campaigns"


def test_chunk_services_takes_a_strategy_object(campaigns: Service) -> None:
    strategy = get_strategy("thin", size=200)
    assert chunk_services([campaigns], strategy) == strategy.chunk([campaigns])
    with pytest.raises(ValueError, match="pass parameters to the strategy object"):
        chunk_services([campaigns], strategy, size=100)


def test_a_service_without_operations(campaigns: Service) -> None:
    campaigns.operations = []
    assert chunk_services([campaigns], "endpoint") == []
    kinds = {c.kind for c in chunk_services([campaigns], "ref-linked")}
    assert kinds == {"schema", "security"}
