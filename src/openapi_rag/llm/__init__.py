"""LLM access behind one protocol: chat messages in, text or tool calls out.

>>> from openapi_rag.llm import get_llm
>>> llm = get_llm("local", cache=True)   # SmolLM2-135M, offline; replies cached on disk
>>> llm.complete("Say hi.")              # doctest: +SKIP
"""

from openapi_rag.llm.base import (
    LLM,
    LLMError,
    LLMResponse,
    Message,
    ToolCall,
    Usage,
    structured_output,
)
from openapi_rag.llm.cache import CachedLLM, LLMCache, default_llm_cache_path
from openapi_rag.llm.registry import DEFAULT_LLM, configured_llm_name, get_llm

__all__ = [
    "DEFAULT_LLM",
    "LLM",
    "CachedLLM",
    "LLMCache",
    "LLMError",
    "LLMResponse",
    "Message",
    "ToolCall",
    "Usage",
    "configured_llm_name",
    "default_llm_cache_path",
    "get_llm",
    "structured_output",
]
