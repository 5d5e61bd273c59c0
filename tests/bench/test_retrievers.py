"""The Index adapter (with a stand-in index), its build reuse, and loading factories by name."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from openapi_rag.bench.retrievers import (
    IndexRetriever,
    IndexRetrieverFactory,
    RetrievedOp,
    Retriever,
    RunConfig,
    grid,
    load_factory,
)
from openapi_rag.errors import OpenAPIRagError


@dataclass
class _Hit:  # the shape of an Index operation hit
    service: str
    id: str
    score: float
    tokens: int = 0


class _Index:
    def __init__(self) -> None:
        self.calls: list[tuple[str, object, str]] = []

    def search(self, query, k, mode, expand=True):
        self.calls.append((query, k, mode))
        return [_Hit("svc", "GET /a", 0.9, 12), _Hit("svc", "POST /b", 0.5)]


def test_index_retriever_adapts_hits_and_maps_auto():
    index = _Index()
    retriever = IndexRetriever(index, "hybrid")
    assert isinstance(retriever, Retriever)
    assert retriever.search("q", 5) == [
        RetrievedOp("svc", "GET /a", 0.9, 12),
        RetrievedOp("svc", "POST /b", 0.5, 0),
    ]
    retriever.search("q", None)
    assert index.calls == [("q", 5, "hybrid"), ("q", "auto", "hybrid")]


def test_factory_builds_once_per_group_strategy_and_embedder():
    built = []

    def build(services, config):
        built.append(config)
        return _Index()

    factory = IndexRetrieverFactory(build)
    services_a, services_b = [object()], [object()]
    for cfg in grid(["endpoint"], ["default"], ["dense", "bm25", "hybrid"]):
        assert factory(services_a, cfg).mode == cfg.mode
    factory(services_b, RunConfig("endpoint", "default", "dense"))
    factory(services_b, RunConfig("thin", "default", "dense"))
    assert factory.builds == 3 and [c.strategy for c in built] == ["endpoint", "endpoint", "thin"]


def test_grid_order_and_validation():
    assert grid(["a", "b", "a"], ["e"], ["dense", "bm25"]) == [
        RunConfig("a", "e", "dense"), RunConfig("a", "e", "bm25"), RunConfig("b", "e", "dense"),
        RunConfig("b", "e", "bm25")]  # fmt: skip
    with pytest.raises(ValueError, match="at least one"):
        grid([], ["e"], ["dense"])


def test_load_factory():
    from tests.bench.fakes import FakeFactory, OverlapRetriever

    assert isinstance(load_factory("tests.bench.fakes:FakeFactory"), FakeFactory)  # classes are instantiated
    assert (
        load_factory("tests.bench.fakes:OverlapRetriever") is OverlapRetriever
    )  # (services, config) -> retriever
    for bad, message in [
        ("nocolon", "package.module:function"),
        ("tests.bench.fakes:Missing", "cannot import"),
        ("no_such_module_x:f", "cannot import"),
    ]:
        with pytest.raises(OpenAPIRagError, match=message):
            load_factory(bad)
