"""Splitting oversized texts at logical boundaries."""

from __future__ import annotations

import re

from openapi_rag.chunking import chunk_services
from openapi_rag.chunking.split import Block, fit_blocks, fitted_windows, measure, windows_with_header
from openapi_rag.model import Operation, Schema, Service
from openapi_rag.refs.graph import build_reference_graph

WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda omicron".split()


def big_schema_service(n: int = 60) -> Service:
    props = {
        f"field{i}": {
            "type": "string",
            "description": f"The {WORDS[i % len(WORDS)]} value number {i} of the record.",
        }
        for i in range(n)
    }
    body = {
        "type": "object",
        "description": "A very wide record.",
        "required": ["field0"],
        "properties": props,
    }
    raw = {
        "summary": "Create a record",
        "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Big"}}}},
        "responses": {"204": {"description": "Done."}},
    }
    op = Operation(service="wide", method="POST", path="/records", summary="Create a record", raw=raw,
                   request_body=raw["requestBody"], responses=raw["responses"])  # fmt: skip
    service = Service(id="wide", title="Wide API", version="1", file="wide.yaml", format="oas30",
                      operations=[op], schemas={"Big": Schema(name="Big", schema=body)})  # fmt: skip
    build_reference_graph(service)
    return service


def test_oversized_schema_is_split_between_properties() -> None:
    service = big_schema_service()
    chunks = [c for c in chunk_services([service], "ref-linked") if c.kind == "schema"]
    n = len(chunks)
    assert n >= 3
    parent = "wide:ref-linked:schema:Big"
    for i, c in enumerate(chunks, 1):
        assert c.id == f"{parent}#{i}"
        assert c.metadata["part"] == i and c.metadata["parts"] == n and c.metadata["parent"] == parent
        assert c.metadata["schema"] == "Big"
        assert c.embed_text.splitlines()[0] == f"Wide API – schema Big (object) (part {i} of {n})"
        assert c.tokens <= 254
    lines = [line for c in chunks for line in c.embed_text.splitlines()[1:]]
    fields = [line for line in lines if line.startswith("- field")]
    # Every property once, whole, in order: no property is cut between parts.
    assert [re.match(r"- (field\d+):", f).group(1) for f in fields] == [f"field{i}" for i in range(60)]
    assert fields[0] == "- field0: string, required — The alpha value number 0 of the record."
    assert lines[0] == "A very wide record." and lines[-1] == "used in: POST /records"


def test_oversized_request_body_flows_with_its_head_repeated() -> None:
    service = big_schema_service()
    chunks = chunk_services([service], "ref-inline", size=120)
    assert len(chunks) >= 3
    assert all(c.tokens <= 120 for c in chunks)
    assert all(c.embed_text.startswith("Wide API – POST /records: Create a record (part ") for c in chunks)
    bodies = [line for c in chunks for line in c.embed_text.splitlines() if line.startswith("requestBody: ")]
    assert len(bodies) == len(chunks)  # each part carries a group of properties under the same head
    assert all(b.startswith("requestBody: Big (object) — ") for b in bodies)
    items = [i for b in bodies for i in b.removeprefix("requestBody: Big (object) — ").split(", ")]
    assert items[:2] == ["field0: string", "field1: string"] and items[-1] == "required: field0"
    assert chunks[-1].embed_text.endswith("response 204 (Done)")


def test_a_single_oversized_item_is_cut_into_windows(tok) -> None:
    long_item = " ".join(WORDS * 30)
    blocks = [Block("fields: ", ["a: string", long_item, "b: string"], ", ")]
    (total,) = measure([("Head line", blocks)], tok)
    assert total == tok.count("Head line\n" + blocks[0].text())
    parts = fit_blocks("Head line", blocks, total, 100, tok)
    assert len(parts) >= 4
    assert all(count <= 100 and count == tok.count(text) for text, count in parts)
    assert all(text.startswith("Head line (part ") for text, _ in parts)
    assert all(text.splitlines()[1].startswith("fields: ") for text, _ in parts)


def test_a_text_that_fits_is_left_whole(tok) -> None:
    blocks = [Block("a: ", ["x", "y"]), Block(), Block("", ["One.", "Two."], " ")]
    (total,) = measure([("H", blocks)], tok)
    assert fit_blocks("H", blocks, total, 100, tok) == [
        ("H\na: x, y\nOne. Two.", tok.count("H\na: x, y\nOne. Two."))
    ]


def test_windows_never_exceed_their_size(tok) -> None:
    text = " ".join(f"internationalization{i} reorganization{i}" for i in range(300))
    for size, overlap in ((20, 0), (33, 7), (100, 20)):
        pieces = fitted_windows(text, size, overlap, tok)
        assert all(count <= size for _, count in pieces)
        assert pieces[0][0].startswith("internationalization0")
        assert pieces[-1][0].endswith("reorganization299")


def test_windows_with_header_name_their_part(tok) -> None:
    parts = windows_with_header("GET /x", " ".join(WORDS * 20), 50, 5, tok)
    n = len(parts)
    assert n > 3
    assert [t.splitlines()[0] for t, _ in parts] == [f"GET /x (part {i} of {n})" for i in range(1, n + 1)]
    assert all(c <= 50 for _, c in parts)
    assert windows_with_header("GET /x", "short", 50, 5, tok) == [
        ("GET /x\nshort", tok.count("GET /x\nshort"))
    ]


def test_a_paragraph_long_header_is_shortened(tok) -> None:
    header = "API – " + " ".join(WORDS * 10)
    blocks = [Block("", [" ".join(WORDS * 5)], " ")]
    (total,) = measure([(header, blocks)], tok)
    parts = fit_blocks(header, blocks, total, 60, tok)
    assert all(c <= 60 for _, c in parts)
    assert parts[0][0].split("\n")[0].endswith("… (part 1 of %d)" % len(parts))
