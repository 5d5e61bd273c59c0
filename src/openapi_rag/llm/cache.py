"""On-disk cache of LLM replies, keyed by the sha256 of (model, messages, tools, parameters).

One SQLite file, ``$OPENAPI_RAG_HOME/cache/llm/replies.sqlite``. Each reply is committed as soon as
it arrives (WAL journal), so an interrupted indexing run keeps every reply it got and a rerun
pays only for the rest. Only deterministic calls are worth caching; `CachedLLM` caches whatever
it is asked, so callers use it where they want the same answer twice (indexing, evaluation).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from openapi_rag.llm.base import LLM, LLMResponse, Message
from openapi_rag.paths import openapi_rag_home

__all__ = ["CachedLLM", "LLMCache", "cache_key", "default_llm_cache_path"]


def default_llm_cache_path() -> Path:
    return openapi_rag_home() / "cache" / "llm" / "replies.sqlite"


def cache_key(model_id: str, messages: list[Message], params: dict[str, Any]) -> bytes:
    """The digest a call is stored under: the same model, conversation and parameters."""
    canonical = json.dumps(
        {"model": model_id, "messages": messages, "params": params},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).digest()


class LLMCache:
    """Replies stored by `cache_key`; safe to share between threads.

    Args:
        path: the SQLite file; `default_llm_cache_path()` when None.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_llm_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, timeout=30, check_same_thread=False, isolation_level=None)
        # WAL + NORMAL: every committed reply survives a crash of the process.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS replies"
            " (hash BLOB PRIMARY KEY, model TEXT NOT NULL, reply TEXT NOT NULL) WITHOUT ROWID"
        )

    def get(self, key: bytes) -> LLMResponse | None:
        with self._lock:
            row = self._db.execute("SELECT reply FROM replies WHERE hash = ?", (key,)).fetchone()
        if row is None:
            return None
        response = LLMResponse.from_dict(json.loads(row[0]))
        response.cached = True
        return response

    def put(self, key: bytes, model_id: str, response: LLMResponse) -> None:
        reply = json.dumps(response.to_dict(), ensure_ascii=False)
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?)", (key, model_id, reply))

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM replies").fetchone()[0])

    def clear(self, model_id: str | None = None) -> None:
        """Forget every reply, or those of one model."""
        with self._lock:
            if model_id is None:
                self._db.execute("DELETE FROM replies")
            else:
                self._db.execute("DELETE FROM replies WHERE model = ?", (model_id,))

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __repr__(self) -> str:
        return f"LLMCache({str(self.path)!r})"


class CachedLLM(LLM):
    """An LLM whose replies are looked up in (and stored to) an `LLMCache` first.

    Cached replies come back with ``cached=True`` and add nothing to `usage`.
    """

    def __init__(self, llm: LLM, cache: LLMCache | None = None) -> None:
        super().__init__()
        self.llm = llm
        self.cache = cache if cache is not None else LLMCache()
        self.model_id = llm.model_id
        self.supports_tools = llm.supports_tools
        self.supports_json_schema = llm.supports_json_schema

    def _chat(
        self,
        messages: list[Message],
        *,
        tools: list[dict[str, Any]] | None,
        max_tokens: int,
        temperature: float,
        **params: Any,
    ) -> LLMResponse:
        sent_tools = tools if self.supports_tools else None  # unsent tools do not change the reply
        key = cache_key(
            self.model_id,
            messages,
            {"tools": sent_tools, "max_tokens": max_tokens, "temperature": temperature, **params},
        )
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        response = self.llm.chat(
            messages, tools=tools, max_tokens=max_tokens, temperature=temperature, **params
        )
        self.cache.put(key, self.model_id, response)
        return response

    def close(self) -> None:
        self.llm.close()
        self.cache.close()
