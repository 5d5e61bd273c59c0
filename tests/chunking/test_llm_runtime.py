"""The shared runtime of index-time LLM work: `LazyLLM` (load once, on first use) and `map_ops`."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from openapi_rag.chunking.llm_runtime import LazyLLM, map_ops
from openapi_rag.llm import CachedLLM, LLMError
from openapi_rag.llm.openai_chat import OpenAIChat
from tests.llm.doubles import ScriptedLLM

# A real OpenAI-compatible client; building it contacts nothing (no test here sends a request).
TINY = {"name": "openai:tiny", "base_url": "http://127.0.0.1:1/v1"}


def test_a_name_loads_once_even_when_threads_ask_together() -> None:
    lazy = LazyLLM(TINY, cache=True)
    with ThreadPoolExecutor(8) as pool:
        models = list(pool.map(lambda _: lazy.get(), range(32)))
    assert all(model is models[0] for model in models)
    assert isinstance(models[0], CachedLLM) and models[0].model_id == "openai:tiny"


def test_a_given_model_is_used_as_it_is_and_a_bad_name_fails_on_first_use() -> None:
    scripted = ScriptedLLM(["hi"])
    assert LazyLLM(scripted, cache=True).get() is scripted  # never wrapped in the reply cache
    assert isinstance(LazyLLM(TINY).get(), OpenAIChat)  # no cache unless asked
    unknown = LazyLLM("nonsense")  # building the holder loads nothing
    with pytest.raises(LLMError, match="Unknown LLM 'nonsense'"):
        unknown.get()


def test_map_ops_keeps_the_order_on_a_pool_and_one_worker_stays_in_this_thread() -> None:
    threads: set[int] = set()

    def square(n: int) -> int:
        time.sleep(0.01 * (5 - n))  # the first finish last: the order must still hold
        threads.add(threading.get_ident())
        return n * n

    assert map_ops(square, [0, 1, 2, 3, 4], 4) == [0, 1, 4, 9, 16]
    assert len(threads) > 1 and threading.get_ident() not in threads
    threads.clear()
    assert map_ops(square, [3, 4], 1) == [9, 16] and threads == {threading.get_ident()}
    assert map_ops(square, [], 4) == []
