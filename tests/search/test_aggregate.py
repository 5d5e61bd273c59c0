from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict

import pytest

from openapi_rag.model import Chunk
from openapi_rag.search.aggregate import aggregate_operations, summary_of, with_summaries
from openapi_rag.search.results import Hit, OperationHit


def hit(
    chunk_id: str, score: float, *ops: str, service: str = "svc", kind: str = "endpoint", **kw: float
) -> Hit:
    return Hit(chunk_id=chunk_id, score=score, service=service, kind=kind, operations=ops, **kw)  # type: ignore[arg-type]


def test_an_operation_appears_once_at_its_best_chunk_score() -> None:
    hits = [
        hit("e-list-2", 0.5, "GET /items", dense_score=0.5),
        hit("e-list-1", 0.9, "GET /items", dense_score=0.9, bm25_score=3.0),
        hit("e-create", 0.7, "POST /items", bm25_score=7.0),
        hit("e-list-3", 0.2, "GET /items", bm25_score=4.0),
    ]
    operations, linked = aggregate_operations(hits)
    assert linked == []
    assert [(op.id, op.score) for op in operations] == [("GET /items", 0.9), ("POST /items", 0.7)]
    first = operations[0]
    assert (first.method, first.path, first.service) == ("GET", "/items", "svc")
    assert first.chunk_ids == ("e-list-1", "e-list-2", "e-list-3")
    assert (first.dense_score, first.bm25_score) == (0.9, 4.0)  # best of each over its chunks
    assert operations[1].dense_score is None


def test_a_window_chunk_credits_every_operation_it_covers() -> None:
    hits = [
        hit("window", 0.8, "GET /a", "POST /a", "GET /b"),
        hit("a-endpoint", 0.6, "GET /a"),
        hit("other-service", 0.8, "GET /a", service="zzz"),
    ]
    operations, _ = aggregate_operations(hits)
    assert [(op.service, op.id, op.score) for op in operations] == [
        ("svc", "GET /a", 0.8),
        ("svc", "GET /b", 0.8),
        ("svc", "POST /a", 0.8),
        ("zzz", "GET /a", 0.8),
    ]
    assert operations[0].chunk_ids == ("window", "a-endpoint")


def test_non_operation_chunks_are_returned_as_linked() -> None:
    hits = [
        hit("schema-Item", 0.95, kind="schema"),
        hit("errors", 0.4, "GET /a", kind="errors"),  # operations listed, but not an endpoint kind
        hit("intro", 0.3, kind="document"),  # documentation tied to no operation
        hit("e", 0.5, "GET /a"),
    ]
    operations, linked = aggregate_operations(hits)
    assert [op.id for op in operations] == ["GET /a"]
    assert [h.chunk_id for h in linked] == ["schema-Item", "errors", "intro"]


def test_summaries_come_from_chunk_metadata(make_chunk: Callable[..., Chunk]) -> None:
    single = make_chunk("one", operations=["GET /a"], summary="List the a's")
    window = make_chunk(
        "win", operations=["GET /a", "GET /b"], summaries={"GET /b": "Get b"}, summary="ignored"
    )
    operations, _ = aggregate_operations(
        [hit("win", 0.9, "GET /a", "GET /b"), hit("one", 0.5, "GET /a")], {"one": single, "win": window}
    )
    assert {op.id: op.summary for op in operations} == {"GET /a": "List the a's", "GET /b": "Get b"}
    assert summary_of(None, "GET /a") == ""


def test_records_serialise_with_asdict() -> None:
    op = OperationHit(service="s", method="GET", path="/a", id="GET /a", score=1.0, linked=(hit("x", 1.0),))
    data = json.loads(json.dumps(asdict(op)))
    assert data["linked"][0]["chunk_id"] == "x" and data["chunk_ids"] == []
    assert op.qualified_id == "s GET /a"


def test_with_score_is_replace_of_the_score_only() -> None:
    from dataclasses import replace

    op = OperationHit(
        service="s", method="GET", path="/x", id="GET /x", score=1.0, summary="x", chunk_ids=("c",), also_in=("t",)
    )
    moved = op.with_score(0.25)
    assert moved == replace(op, score=0.25) and hash(moved) == hash(replace(op, score=0.25))
    assert op.score == 1.0 and moved.to_dict() == {**op.to_dict(), "score": 0.25}


def test_with_copies_is_replace_of_also_in_only() -> None:
    from dataclasses import replace

    op = OperationHit(
        service="s", method="GET", path="/x", id="GET /x", score=1.0, chunk_ids=("c",), also_in=("t",)
    )
    folded, expected = op.with_copies(("u", "v")), replace(op, also_in=("t", "u", "v"))
    assert folded == expected and hash(folded) == hash(expected)
    assert op.also_in == ("t",) and folded.to_dict() == {**op.to_dict(), "also_in": ("t", "u", "v")}


def test_the_fast_constructors_equal_the_dataclass_ones() -> None:
    chunk = Chunk(id="c", kind="endpoint", service="s", operations=["GET /x"], embed_text="x", content="x")
    fast = Hit.of(chunk, 0.5, bm25_score=2.0)
    assert fast == Hit(chunk_id="c", score=0.5, service="s", kind="endpoint", operations=("GET /x",), bm25_score=2.0)
    assert asdict(fast)["linked_from"] is None
    assert Hit.scored(chunk, 0.5, None, 2.0) == fast and Hit.scored(chunk, 0.5, 0.1, None) == Hit.of(
        chunk, 0.5, dense_score=0.1
    )
    with pytest.raises(TypeError, match="unexpected fields"):
        Hit.of(chunk, 0.5, scores=1.0)
    fields = dict(service="s", method="GET", path="/x", id="GET /x", score=0.5, summary="", chunk_ids=("c",))
    made = OperationHit.of(**fields, dense_score=None, bm25_score=1.0)
    assert made == OperationHit(**fields, bm25_score=1.0) and asdict(made) == asdict(OperationHit(**fields, bm25_score=1.0))


def test_summaries_filled_in_later_are_the_ones_aggregation_gives() -> None:
    def chunk(chunk_id: str, *ops: str, **metadata: object) -> Chunk:
        fields = dict(id=chunk_id, kind="endpoint", service="svc", embed_text=chunk_id, content="")
        return Chunk(**fields, operations=list(ops), metadata=dict(metadata))

    chunks = {
        c.id: c
        for c in [
            chunk("window", "GET /a", "GET /b", summaries={"GET /b": "Get b"}),  # none for GET /a
            chunk("a-own", "GET /a", summary="Get a"),
            chunk("c-own", "GET /c"),  # no summary anywhere
        ]
    }
    hits = [hit("window", 0.9, "GET /a", "GET /b"), hit("a-own", 0.5, "GET /a"), hit("c-own", 0.4, "GET /c")]
    now, _ = aggregate_operations(hits, chunks)
    later, _ = aggregate_operations(hits, chunks, summaries=False)
    assert [op.summary for op in now] == ["Get a", "Get b", ""]
    assert [op.summary for op in later] == ["", "", ""]
    assert with_summaries(later, chunks) == now
