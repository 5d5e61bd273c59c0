"""Queries of concurrent requests embedded in one run of the model: same vectors, same results."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import numpy as np

from openapi_rag.embed import get_embedder
from openapi_rag.serve.batching import PreparedEmbeddings
from openapi_rag.serve.http_app import create_app
from openapi_rag.serve.load import load_queries
from openapi_rag.serve.service import IndexHolder, SearchService
from openapi_rag.serve.settings import ServeSettings

QUERIES = [
    "my playlists",
    "create a playlist and add tracks to it",  # two clauses: the query and both clauses embedded
    "estimate the price of a ride from the airport to downtown for four people with luggage",
    "top tracks of an artist",
]


def test_a_batch_gives_each_text_the_vector_it_gets_alone():
    embedder = get_embedder("minilm", threads=1)
    texts = [*QUERIES, *load_queries()[:12]]  # different lengths: the short ones are padded
    alone = np.stack([embedder.embed(text) for text in texts])
    together = embedder.embed_many(texts)
    assert np.array_equal(alone, together)  # bit for bit, not approximately


class Recording:
    def __init__(self, embed):
        self.embed = embed
        self.calls: list[list[str]] = []

    def __call__(self, texts):
        self.calls.append(list(texts))
        return self.embed(texts)


def test_requests_waiting_together_share_one_run_and_get_the_same_results(index_dir: Path):
    service = SearchService(IndexHolder(index_dir))
    prepared = service.holder.current.prepared
    assert isinstance(prepared, PreparedEmbeddings)
    expected = [service.search(query, k=5) for query in QUERIES]  # one at a time, embedded alone
    prepared.embed = recording = Recording(prepared.embed)

    async def together():
        return await asyncio.gather(*(service.asearch(query, k=5) for query in QUERIES))

    got = asyncio.run(together())
    assert got == expected
    index = service.holder.current.index
    planned = [text for query in QUERIES for text in index.searcher.texts_to_embed(query)]
    assert recording.calls == [planned]  # one run for all four requests, nothing embedded again
    assert len(planned) > len(QUERIES)  # the two-clause query brought its clauses


def test_a_post_batch_is_one_run_and_metrics_count_it(index_dir: Path):
    settings = ServeSettings(index_dir=index_dir)
    app = create_app(SearchService(IndexHolder(index_dir)), settings)

    async def scenario():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            batch = await client.post("/search", json={"queries": QUERIES, "k": 3})
            singles = [(await client.get("/search", params={"q": q, "k": 3})).json() for q in QUERIES]
            metrics = (await client.get("/metrics")).text
        return batch, singles, metrics

    batch, singles, metrics = asyncio.run(scenario())
    assert batch.status_code == 200
    assert batch.json()["batch"] == singles
    runs = next(line for line in metrics.splitlines() if line.startswith("openapi_rag_embed_batches_total "))
    assert float(runs.split()[1]) == 1 + len(QUERIES)  # the batch in one run, then one run per GET


def test_prepared_vectors_fall_back_to_the_model_for_texts_not_prepared():
    calls = []

    def embed(texts):
        calls.append(texts)
        return np.ones((len(texts), 2), dtype=np.float32)

    prepared = PreparedEmbeddings(embed)
    prepared.ready = {"a": np.zeros(2, dtype=np.float32)}
    assert prepared(["a"]).tolist() == [[0.0, 0.0]] and calls == []
    assert prepared(["a", "b"]).tolist() == [[1.0, 1.0], [1.0, 1.0]] and calls == [["a", "b"]]


def test_a_query_the_search_would_refuse_is_refused_before_anything_is_embedded(index_dir: Path):
    from openapi_rag.serve.service import BadRequest

    service = SearchService(IndexHolder(index_dir))
    prepared = service.holder.current.prepared
    prepared.embed = recording = Recording(prepared.embed)
    many = " and ".join(f"create item {number}" for number in range(40))  # over --max-clauses (32)
    for query in ("!!!", many):
        try:
            asyncio.run(service.asearch(query))
        except BadRequest as exc:
            assert exc.field == "q"
        else:
            raise AssertionError(f"{query!r} was searched")
    assert recording.calls == []


def test_texts_the_second_list_reads_are_embedded_by_both_models_in_the_batch(index_dir: Path, monkeypatch):
    from openapi_rag.serve.batching import BothModels

    service = SearchService(IndexHolder(index_dir))
    index = service.holder.current.index
    prepared = service.holder.current.prepared
    assert isinstance(prepared.embed, BothModels)  # the default index: minilm beside minilm-users
    queries = ["make a new playlist for my summer holiday", *QUERIES]  # one sentence: both lists read it
    wanted = [text for query in queries for text in index.searcher.second_texts(query)]
    assert "make a new playlist for my summer holiday" in wanted
    index.searcher.static._queries = {}
    expected = [service.search(query, k=5) for query in queries]  # one at a time
    second = index.searcher.static.embedder
    calls: list[list[str]] = []
    monkeypatch.setattr(second, "embed_many", lambda texts, **kw: calls.append(list(texts)) or np.zeros(0))
    index.searcher.static._queries = {}

    async def together():
        return await asyncio.gather(*(service.asearch(query, k=5) for query in queries))

    assert asyncio.run(together()) == expected  # the same results, bit for bit
    assert calls == []  # the second model never ran alone: its vectors came with the batch
    assert prepared.embed.wanted == set()
