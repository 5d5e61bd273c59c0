"""LLM-based endpoint strategies (Table I of Pesl et al.): `summary`, `query` and `craft`.

Each embeds text an LLM wrote about the operation and returns the operation itself (`METHOD /path`
and its JSON) as the chunk content:

- `summary`: a one-sentence summary of what the endpoint does.
- `query`: a question a user might ask that the endpoint answers.
- `craft`: three chunks per operation, one per CRAFT view (kinds `craft-summary`, `craft-name`,
  `craft-description`): the LLM summary (the `summary` prompt, so its cached replies are reused),
  the endpoint's name (`METHOD /path` and its operationId in words), and the operation's own
  summary and description (the LLM summary when it has none). An index of this strategy is
  searched view by view and the views vote (`openapi_rag.search.craft`).

The model is the one named to the strategy, else the one `default_llm` sets for a block of code
(`openapi-rag index --llm`), else `OPENAPI_RAG_LLM`, else the local SmolLM2.

Replies are cached on disk (`openapi_rag.llm.cache`), so re-indexing pays nothing. A reply that is
empty or off-topic (it names no word of the path or of the summary) is replaced by the
operation's own summary/description: a small model's hallucination must not hide an endpoint.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar

from openapi_rag.chunking.endpoint import EndpointStrategy, endpoint_json
from openapi_rag.chunking.llm_runtime import LazyLLM, map_ops
from openapi_rag.chunking.render import humanise
from openapi_rag.chunking.split import windows_with_header
from openapi_rag.llm.base import LLM, Message
from openapi_rag.llm.prompts import query_messages, summary_messages
from openapi_rag.llm.registry import configured_llm_name
from openapi_rag.model import Chunk, Operation, Service
from openapi_rag.tokens import Tokenizer

__all__ = [
    "CRAFT_VIEWS",
    "CraftStrategy",
    "LLMEndpointStrategy",
    "QueryStrategy",
    "SummaryStrategy",
    "clean_reply",
    "default_llm",
    "fallback_text",
    "humanise",
    "is_llm_strategy",
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


def own_text(op: Operation) -> str:
    """The operation's own summary and description, joined ("" when it has neither)."""
    parts = [" ".join(t.split()) for t in (op.summary, op.description) if t.strip()]
    return ". ".join(dict.fromkeys(parts))


def fallback_text(op: Operation) -> str:
    """The operation's own words: summary and description, else its `METHOD /path`."""
    text = own_text(op)
    return text[:_MAX_REPLY_CHARS] if text else op.id


_DEFAULT_LLM: ContextVar[str | None] = ContextVar("openapi_rag_default_llm", default=None)


@contextmanager
def default_llm(name: str | None) -> Iterator[None]:
    """Within the block, LLM strategies built without an `llm` use `name` (None: no change).

    How `openapi-rag index --llm` and `eval --llm` reach strategies that are built by name deep in
    the index code, without a process-wide environment variable.
    """
    token = _DEFAULT_LLM.set(name) if name else None
    try:
        yield
    finally:
        if token is not None:
            _DEFAULT_LLM.reset(token)


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
        # The name is fixed here, in the caller's thread: workers do not see `default_llm`'s context.
        self._llm_spec: str | LLM = llm if llm is not None else (_DEFAULT_LLM.get() or configured_llm_name())
        self._llm = LazyLLM(self._llm_spec, cache=True)
        self.workers = max(1, workers)
        self.max_tokens = max_tokens
        self.fallbacks = 0  # replies replaced by the operation's own text, in the last run

    @property
    def llm(self) -> LLM:
        return self._llm.get()

    @property
    def params(self) -> dict[str, Any]:
        # The name asked for, not the loaded model's id: an index update compares the params
        # before chunking (model not loaded) with those recorded after it.
        spec = self._llm_spec
        return {**super().params, "llm": spec.model_id if isinstance(spec, LLM) else spec}

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
        texts = map_ops(self.generate, ops, self.workers)
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


CRAFT_VIEWS: dict[str, str] = {
    "summary": "craft-summary",
    "name": "craft-name",
    "description": "craft-description",
}
"""CRAFT's views, in voting order, and the chunk kind of each (operation chunks for `search.aggregate`)."""


def name_text(op: Operation) -> str:
    """The endpoint-name view: the operationId and the method and path, in words."""
    words = [humanise(op.operation_id or ""), f"{op.method.lower()} {humanise(op.path)}".strip()]
    return "; ".join(dict.fromkeys(w for w in words if w))


class CraftStrategy(SummaryStrategy):
    """CRAFT's three views of each operation as three chunks (kinds in `CRAFT_VIEWS`).

    The summary view asks the LLM exactly as `summary` does (same prompt and parameters), so an
    index of either strategy fills the reply cache for the other, and their summary texts embed
    alike. An operation with no summary or description of its own gets the LLM summary as its
    description view too: that view then agrees with the summary view by construction.
    Every chunk returns the operation JSON, as `summary` does.
    """

    name = "craft"

    @property
    def params(self) -> dict[str, Any]:
        return {**super().params, "views": list(CRAFT_VIEWS)}

    def chunk_service(self, service: Service) -> list[Chunk]:
        ops = service.operations
        if not ops:
            return []
        summaries = dict(self.embed_parts(service, ops))
        views = {
            "summary": [summaries[op.id] for op in ops],
            "name": [name_text(op) for op in ops],
            "description": [own_text(op) or summaries[op.id] for op in ops],
        }
        texts = {
            view: [f"{op.id}\n{body}" for op, body in zip(ops, bodies, strict=True)]
            for view, bodies in views.items()
        }
        counts = {view: self.tokenizer.count_many(batch) for view, batch in texts.items()}
        chunks: list[Chunk] = []
        for i, op in enumerate(ops):
            content = endpoint_json(op)
            for view, kind in CRAFT_VIEWS.items():
                text, count = texts[view][i], counts[view][i]
                pieces = (
                    [(text, count)]
                    if count <= self.size
                    else windows_with_header(op.id, views[view][i], self.size, self.overlap, self.tokenizer)
                )
                metadata = {**self.operation_metadata(service, op), "view": view}
                chunks += self.parts(
                    service,
                    f"{view}:{op.id}",
                    pieces,
                    kind=kind,
                    operations=[op.id],
                    metadata=metadata,
                    content=content,
                )
        return chunks


def is_llm_strategy(name: str) -> bool:
    """Whether the registered strategy `name` asks an LLM for the texts it embeds."""
    from openapi_rag.chunking.registry import STRATEGIES

    factory = STRATEGIES.get(name)
    return isinstance(factory, type) and issubclass(factory, LLMEndpointStrategy)


# Registered here, imported at the end of `chunking.registry`, so the names exist wherever the
# registry does (the model itself loads only when a strategy runs).
from openapi_rag.chunking.registry import register_strategy  # noqa: E402

for _cls in (SummaryStrategy, QueryStrategy, CraftStrategy):
    register_strategy(_cls.name, _cls)
