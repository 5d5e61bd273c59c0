"""User-phrased views written at index time by an LLM (`compact`'s `views_llm`, `index --views-llm`).

An API names things its own way; users say them in theirs. A language model knows both: asked once
per operation for a few short requests a user would type for it, in everyday words
(`llm.prompts.user_views_messages`), it writes words the spec does not hold. The replies become
extra views of the operation (`metadata["views"]`, embedded beside its line and read by the search
when `SearchSettings.view_weight` or `view_pool` is on, `search/views.py`) and, with
`views_llm_bm25`, words of its BM25 text.

Bounded and never fatal: at most `max_views` requests of at most `MAX_VIEW_WORDS` words each from a
reply of at most `max_tokens` tokens; the model's client enforces its own timeout (`get_llm`'s
options); a call that fails leaves that operation without views and logs one warning, and the index
goes on. Replies are cached on disk by content hash (`llm.cache`, through `get_llm(..., cache=True)`):
re-indexing asks nothing again. Works with the local SmolLM2 and, unchanged, with any
OpenAI-compatible server named by configuration (`openapi-rag llm check`).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable

from openapi_rag.chunking.llm_runtime import LazyLLM, map_ops
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm.base import LLM
from openapi_rag.llm.prompts import _VIEWS_SHOTS, user_views_messages
from openapi_rag.model import Operation

__all__ = ["MAX_VIEW_WORDS", "ViewWriter", "parse_views"]

logger = logging.getLogger(__name__)

MAX_VIEWS = 3
MAX_TOKENS = 96
MAX_VIEW_WORDS = 16
_BULLET = re.compile(r"^\s*(?:[-*•]+|\d+[.)]|request\s*\d*\s*:)\s*", re.IGNORECASE)
# A small model copies the prompt's worked examples; their lines are never an operation's views.
_SHOT_LINES = frozenset(line.lower() for _, reply in _VIEWS_SHOTS for line in reply.splitlines())


def parse_views(reply: str, limit: int = MAX_VIEWS) -> list[str]:
    """The requests in a reply: one per line, bullets and quotes dropped, each 2 to `MAX_VIEW_WORDS`
    words, no copy of the prompt's examples, no repeat (nor the cut-off start of an earlier line,
    which a small model writes when it runs out of tokens); at most `limit`."""
    views: list[str] = []
    for line in reply.splitlines():
        text = " ".join(_BULLET.sub("", line).split()).strip("\"'` ")
        words = text.split()
        if not 2 <= len(words) <= MAX_VIEW_WORDS or text.lower() in _SHOT_LINES:
            continue
        if not any(v.lower().startswith(text.lower()) for v in views):
            views.append(text)
        if len(views) >= limit:
            break
    return views


class ViewWriter:
    """Asks an LLM for each operation's user-phrased views.

    Args:
        llm: a model name for `get_llm` (with the on-disk reply cache), or an `LLM` used as given.
        max_views: requests kept per operation.
        max_tokens: the longest reply asked for.
        workers: operations asked about at once (a remote server; a local model runs one at a time).
    """

    def __init__(
        self, llm: str | LLM, *, max_views: int = MAX_VIEWS, max_tokens: int = MAX_TOKENS, workers: int = 4
    ) -> None:
        self._llm = LazyLLM(llm, cache=True)
        self._lock = threading.Lock()  # guards `failures` across worker threads
        self.max_views = max(1, max_views)
        self.max_tokens = max(8, max_tokens)
        self.workers = max(1, workers)
        self.failures = 0  # operations left without views in this writer's runs

    @property
    def llm(self) -> LLM:
        return self._llm.get()

    def views(self, op: Operation) -> list[str]:
        """`op`'s views; [] (and a warning) when the call fails or the reply holds none. A model that
        cannot be loaded at all (an unknown name, a missing runtime) raises: that is configuration."""
        llm = self.llm
        try:
            response = llm.chat(user_views_messages(op), max_tokens=self.max_tokens, temperature=0.0)
        except (OpenAPIRagError, OSError, TimeoutError, ValueError) as exc:
            # one operation without views is a small loss; an index stopped by one bad reply is not
            with self._lock:
                self.failures += 1
            logger.warning("Warning: %s: no user-phrased views (%s: %s)", op.id, type(exc).__name__, exc)
            return []
        return parse_views(response.text, self.max_views)

    def views_many(self, ops: Iterable[Operation]) -> dict[str, list[str]]:
        """Views of each operation by its id (in parallel for `workers` > 1)."""
        ops = list(ops)
        if not ops:
            return {}
        _ = self.llm  # loaded before any thread starts: a model that cannot load fails once, here
        return dict(zip((op.id for op in ops), map_ops(self.views, ops, self.workers), strict=True))
