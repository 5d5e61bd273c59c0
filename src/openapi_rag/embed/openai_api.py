"""``openai:<model>``: any OpenAI-compatible ``/v1/embeddings`` endpoint, over httpx.

Works with OpenAI itself and with local servers speaking the same protocol (vLLM, llama.cpp,
Ollama, LM Studio, text-embeddings-inference). Configuration, first found wins:

- base URL: ``base_url=`` option, ``OPENAPI_RAG_EMBED_BASE_URL``, ``OPENAI_BASE_URL``, OpenAI's.
- key: ``api_key=`` option, ``OPENAPI_RAG_EMBED_API_KEY``, ``OPENAI_API_KEY``; OpenAI's own host
  requires one, local servers usually do not.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
import numpy as np

from openapi_rag.embed.base import Embedder, normalize_rows
from openapi_rag.errors import EmbedderError, NeedsKey
from openapi_rag.http_retry import post_json

__all__ = ["OPENAI_BASE_URL", "OpenAIEmbedder", "register_embedders"]

logger = logging.getLogger(__name__)

OPENAI_BASE_URL = "https://api.openai.com/v1"


class OpenAIEmbedder(Embedder):
    """Embeddings from an OpenAI-compatible HTTP API.

    Args:
        model: the server's model name, e.g. ``text-embedding-3-small``.
        base_url: the API root that holds ``/embeddings`` (``.../v1``).
        api_key: sent as a bearer token.
        dimensions: ask for shorter vectors (models that support it); otherwise learned from the
            first reply.
        batch_size: texts per request.
        max_tokens: longest input the model takes (8191 for OpenAI's models).
        timeout: seconds per request.
        max_retries: retries after 429, 5xx, timeouts and connection errors.
        backoff: first retry delay in seconds, doubled each retry (a ``Retry-After`` header wins).
        client: an `httpx.Client` to send requests with (tests pass one with a mock transport);
            it is not closed by `close()`.
        transport: an httpx transport for a client built here.

    Example::

        with get_embedder("openai:text-embedding-3-small") as embedder:
            vectors = embedder.embed_many(texts)
    """

    key_env_var = "OPENAPI_RAG_EMBED_API_KEY"
    remote = True

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        dimensions: int | None = None,
        batch_size: int = 128,
        max_tokens: int = 8191,
        timeout: float = 60.0,
        max_retries: int = 5,
        backoff: float = 1.0,
        client: httpx.Client | None = None,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.model = model
        self.model_id = f"openai:{model}"
        self.base_url = (
            base_url
            or os.environ.get("OPENAPI_RAG_EMBED_BASE_URL")
            or os.environ.get("OPENAI_BASE_URL")
            or OPENAI_BASE_URL
        ).rstrip("/")
        self.api_key = (
            api_key or os.environ.get("OPENAPI_RAG_EMBED_API_KEY") or os.environ.get("OPENAI_API_KEY")
        )
        self.needs_key = urlsplit(self.base_url).hostname == urlsplit(OPENAI_BASE_URL).hostname
        if self.needs_key and not self.api_key:
            raise NeedsKey(
                f"No API key for {self.model_id} at {self.base_url}: set OPENAPI_RAG_EMBED_API_KEY "
                "(or OPENAI_API_KEY), or point OPENAPI_RAG_EMBED_BASE_URL at a local server"
            )
        self._requested_dimensions = dimensions
        self.dimensions = dimensions
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.backoff = backoff
        self._sleep = sleep
        self._owns_client = client is None
        self._client = client or httpx.Client(transport=transport, timeout=timeout)
        self._timeout = timeout

    @property
    def cache_key(self) -> str:
        # Shortened vectors are other vectors: keep them apart in the cache.
        if self._requested_dimensions:
            return f"{self.model_id}@{self._requested_dimensions}"
        return self.model_id

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        # The API rejects empty strings; a blank embeds as (nearly) the same nothing.
        payload: dict[str, Any] = {
            "model": self.model,
            "input": [t if t else " " for t in texts],
            "encoding_format": "float",
        }
        if self._requested_dimensions:
            payload["dimensions"] = self._requested_dimensions
        data = self._post(payload)
        try:
            rows = sorted(data["data"], key=lambda item: item["index"])
            vectors = np.array([row["embedding"] for row in rows], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(f"{self._url}: unexpected reply shape ({exc!r})") from exc
        if vectors.ndim != 2 or len(vectors) != len(texts):
            raise EmbedderError(f"{self._url}: {len(rows)} embeddings returned for {len(texts)} texts")
        if self.dimensions is None:
            self.dimensions = int(vectors.shape[1])
        # OpenAI's vectors are unit length already; other servers' may not be.
        return normalize_rows(vectors)

    @property
    def _url(self) -> str:
        return f"{self.base_url}/embeddings"

    def _post(self, payload: dict[str, Any]) -> Any:
        return post_json(
            self._client,
            self._url,
            payload,
            api_key=self.api_key,
            timeout=self._timeout,
            max_retries=self.max_retries,
            backoff=self.backoff,
            sleep=self._sleep,
            error=EmbedderError,
            key_hint="OPENAPI_RAG_EMBED_API_KEY (or OPENAI_API_KEY)",
            url_hint="OPENAPI_RAG_EMBED_BASE_URL",
        )

    def close(self) -> None:
        if self._owns_client:
            self._client.close()


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook."""
    register("openai", OpenAIEmbedder, family=True)
