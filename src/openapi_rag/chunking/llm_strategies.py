"""LLM-based endpoint strategies (Table I of Pesl et al.): `summary` and `query`.

Each embeds text an LLM wrote about the operation and returns the operation itself (`METHOD /path`
and its JSON) as the chunk content:

- `summary`: a one-sentence summary of what the endpoint does.
- `query`: a question a user might ask that the endpoint answers.

Replies are cached on disk (`openapi_rag.llm.cache`), so re-indexing pays nothing. A reply that is
empty or off-topic (it names no word of the path or of the summary) is replaced by the
operation's own summary/description: a small model's hallucination must not hide an endpoint.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

from openapi_rag.chunking.endpoint import EndpointStrategy, endpoint_json
from openapi_rag.llm.base import LLM, Message
from openapi_rag.llm.prompts import query_messages, summary_messages
from openapi_rag.llm.registry import get_llm
from openapi_rag.model import Operation, Service
from openapi_rag.tokens import Tokenizer

__all__ = [
    "LLMEndpointStrategy",
    "QueryStrategy",
    "SummaryStrategy",
    "clean_reply",
    "fallback_text",
    "on_topic",
]

logger = logging.getLogger(__name__)

_MAX_REPLY_CHARS = 400
_STOPWORDS = frozenset(
    "a an and are as at be by for from get gets in into is it of on or the this to with api apis "
    "endpoint endpoints operation returns return list lists".split()
)


def _words(text: str) -> set[str]:
    # camelCase and snake_case names become words, so `/userPlaylists` matches "user playlists".
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return {w for w in re.findall(r"[a-z0-9]+", spaced.lower()) if len(w) >= 3 and w not in _STOPWORDS}


def _stems(words: set[str]) -> set[str]:
    # A crude stem (the first five letters of longer words) lets "playlists" match "playlist".
    return {w[:5] if len(w) > 5 else w for w in words}


def on_topic(text: str, op: Operation) -> bool:
    """Whether `text` mentions something of `op`: a word of its path, summary or operationId."""
    anchors = _words(op.path) | _words(op.summary) | _words(op.operation_id or "")
    if not anchors:
        anchors = _words(op.description)
    if not anchors:
        return True  # nothing to check against
    return bool(_stems(_words(text)) & _stems(anchors))


def fallback_text(op: Operation) -> str:
    """The operation's own words: summary and description, else its `METHOD /path`."""
    parts = [" ".join(t.split()) for t in (op.summary, op.description) if t.strip()]
    text = ". ".join(dict.fromkeys(parts))
    return text[:_MAX_REPLY_CHARS] if text else op.id


def clean_reply(text: str) -> str:
    """The first paragraph of a reply, without a `Summary:`-style label or quotes, cut short."""
    text = text.strip().split("\n\n")[0].strip()
    text = re.sub(r"^(summary|question|answer|query)\s*:\s*", "", text, flags=re.IGNORECASE)
    text = " ".join(text.split()).strip("\"'` ")
    if len(text) > _MAX_REPLY_CHARS:
        text = text[:_MAX_REPLY_CHARS].rsplit(" ", 1)[0]
    return text


class LLMEndpointStrategy(EndpointStrategy):
    """One chunk per operation embedding an LLM's text about it; content is the operation JSON.

    Args:
        llm: a model name for `get_llm` (default: `OPENAPI_RAG_LLM`, else the local model) or
            an `LLM`; a name gets the on-disk reply cache.
        workers: operations asked about at once (remote servers; a local model runs one at a time).
        max_tokens: the longest reply asked for.
    """

    prompt: ClassVar[Callable[[Operation], list[Message]]]

    def __init__(
        self,
        *,
        size: int | None = None,
        overlap: int | None = None,
        tokenizer: Tokenizer | str | None = None,
        llm: str | LLM | None = None,
        workers: int = 4,
        max_tokens: int = 64,
    ) -> None:
        super().__init__(size=size, overlap=overlap, tokenizer=tokenizer)
        self._llm_spec = llm
        self._llm: LLM | None = llm if isinstance(llm, LLM) else None
        self.workers = max(1, workers)
        self.max_tokens = max_tokens
        self.fallbacks = 0  # replies replaced by the operation's own text, in the last run
        self._llm_lock = threading.Lock()

    @property
    def llm(self) -> LLM:
        # Loaded on first use (chunking may never need it), once: worker threads ask at the same time,
        # and each would otherwise load the model and open the reply cache (SQLite refuses the race).
        with self._llm_lock:
            if self._llm is None:
                self._llm = get_llm(self._llm_spec, cache=True)
            return self._llm

    @property
    def params(self) -> dict[str, Any]:
        model = self._llm.model_id if self._llm is not None else (self._llm_spec or "default")
        return {**super().params, "llm": model}

    def generate(self, op: Operation) -> str:
        """The LLM's text for `op`, or its fallback when the reply is empty or off-topic."""
        messages = type(self).prompt(op)
        # One line is all the prompts ask for; stopping there saves the rambling a small model adds.
        response = self.llm.chat(messages, max_tokens=self.max_tokens, temperature=0.0, stop=["\n"])
        reply = clean_reply(response.text)
        if reply and on_topic(reply, op):
            return reply
        logger.debug("%s: off-topic or empty reply %r; using the endpoint's own text", op.id, reply)
        self.fallbacks += 1
        return fallback_text(op)

    def embed_parts(self, service: Service, ops: list[Operation]) -> list[tuple[str, str]]:
        if self.workers == 1 or len(ops) == 1:
            texts = [self.generate(op) for op in ops]
        else:
            with ThreadPoolExecutor(self.workers) as pool:
                texts = list(pool.map(self.generate, ops))
        return [(op.id, text) for op, text in zip(ops, texts, strict=True)]

    def contents(self, service: Service, ops: list[Operation]) -> list[str] | None:
        return [endpoint_json(op) for op in ops]


class SummaryStrategy(LLMEndpointStrategy):
    """Embeds an LLM-written one-sentence summary of each operation."""

    name = "summary"
    prompt = staticmethod(summary_messages)


class QueryStrategy(LLMEndpointStrategy):
    """Embeds an LLM-written question that each operation answers."""

    name = "query"
    prompt = staticmethod(query_messages)


# Registered here, imported at the end of `chunking.registry`, so the names exist wherever the
# registry does (the model itself loads only when a strategy runs).
from openapi_rag.chunking.registry import register_strategy  # noqa: E402

for _cls in (SummaryStrategy, QueryStrategy):
    register_strategy(_cls.name, _cls)
