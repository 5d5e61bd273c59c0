"""``openai:<model>``: any OpenAI-compatible ``/chat/completions`` endpoint, over httpx.

OpenAI, Azure's OpenAI-compatible endpoint, vLLM, Ollama, llama.cpp server, LM Studio. First found
wins for each setting:

- base URL: ``base_url=``, ``OPENAPI_RAG_LLM_BASE_URL``, ``OPENAI_BASE_URL``, OpenAI's.
- model: ``model=``, ``OPENAPI_RAG_LLM_MODEL``, ``OPENAI_MODEL``, ``gpt-4o-mini``.
- key: ``api_key=``, ``OPENAPI_RAG_LLM_API_KEY``, ``OPENAI_API_KEY``; OpenAI's own host requires
  one, local servers usually do not.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx

from openapi_rag.http_retry import post_json
from openapi_rag.llm.base import LLM, LLMError, LLMResponse, Message, parse_chat_reply

__all__ = ["DEFAULT_OPENAI_MODEL", "OPENAI_BASE_URL", "OpenAIChat"]

logger = logging.getLogger(__name__)

OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4o-mini"


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value:
            return value
    return None


class OpenAIChat(LLM):
    """Chat completions from an OpenAI-compatible HTTP API.

    Args:
        model: the server's model name.
        base_url: the API root that holds ``/chat/completions`` (``.../v1``).
        api_key: sent as a bearer token.
        timeout: seconds per request.
        max_retries: retries after 429, 5xx, timeouts and connection errors.
        backoff: first retry delay in seconds, doubled each retry (a ``Retry-After`` header wins).
        max_concurrency: most requests in flight at once from this object (threads share it).
        supports_tools: whether to send ``tools`` natively; False makes agents use the JSON protocol.
        supports_json_schema: whether the server honours ``response_format`` JSON schemas (OpenAI,
            vLLM and llama.cpp server do; not every server does).
        client: an `httpx.Client` to send with (not closed by `close()`).
        transport: an httpx transport for a client built here.
        sleep: the function used to wait between retries (tests pass a recorder).

    Raises:
        LLMError: no key for OpenAI's own host.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 120.0,
        max_retries: int = 5,
        backoff: float = 1.0,
        max_concurrency: int = 4,
        supports_tools: bool = True,
        supports_json_schema: bool = False,
        client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__()
        self.model = model or _env("OPENAPI_RAG_LLM_MODEL", "OPENAI_MODEL") or DEFAULT_OPENAI_MODEL
        self.model_id = f"openai:{self.model}"
        self.base_url = (
            base_url or _env("OPENAPI_RAG_LLM_BASE_URL", "OPENAI_BASE_URL") or OPENAI_BASE_URL
        ).rstrip("/")
        self.api_key = api_key or _env("OPENAPI_RAG_LLM_API_KEY", "OPENAI_API_KEY")
        if urlsplit(self.base_url).hostname == urlsplit(OPENAI_BASE_URL).hostname and not self.api_key:
            raise LLMError(
                f"No API key for {self.model_id} at {self.base_url}: set OPENAPI_RAG_LLM_API_KEY "
                "(or OPENAI_API_KEY), or point OPENAPI_RAG_LLM_BASE_URL at a local server"
            )
        self.supports_tools = supports_tools
        self.supports_json_schema = supports_json_schema
        self.max_retries = max_retries
        self.backoff = backoff
        self.timeout = timeout
        self._sleep = sleep
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._owns_client = client is None
        self._client = client or httpx.Client(transport=transport, timeout=timeout)

    @property
    def url(self) -> str:
        return f"{self.base_url}/chat/completions"

    def _chat(
        self,
        messages: list[Message],
        *,
        tools: list[dict[str, Any]] | None,
        max_tokens: int,
        temperature: float,
        **params: Any,
    ) -> LLMResponse:
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": temperature,
            **params,
        }
        if tools and self.supports_tools:
            payload["tools"] = tools
        with self._slots:
            data = self._post(payload)
        return parse_chat_reply(data, self.url)

    def _post(self, payload: dict[str, Any]) -> Any:
        return post_json(
            self._client,
            self.url,
            payload,
            api_key=self.api_key,
            timeout=self.timeout,
            max_retries=self.max_retries,
            backoff=self.backoff,
            sleep=self._sleep,
            error=LLMError,
            key_hint="OPENAPI_RAG_LLM_API_KEY (or OPENAI_API_KEY)",
            url_hint="OPENAPI_RAG_LLM_BASE_URL",
        )

    def close(self) -> None:
        if self._owns_client:
            self._client.close()
