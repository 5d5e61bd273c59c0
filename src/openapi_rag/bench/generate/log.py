"""The generation log: one JSON line per LLM call and per event (retry, repair, discard, failure).

The log is appended and flushed line by line, so an interrupted run keeps what it did; a resumed run
appends to the same file, and replies served from the cache are logged with ``cached: true`` and no
tokens, which is how a user sees that nothing already generated was paid for twice.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from openapi_rag.llm import LLMResponse, Usage

LOG_FILE = "generation-log.jsonl"


class GenerationLog:
    """Appends records to ``OUT/generation-log.jsonl`` and keeps running totals."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.tokens: dict[str, Usage] = defaultdict(Usage)
        self.events: dict[str, int] = defaultdict(int)
        self.calls = 0
        self.cached_calls = 0

    def call(self, step: str, response: LLMResponse, **context: Any) -> None:
        """One LLM call of `step` (t_s, t_e, t_o, judge, t_q, t_f, t_n)."""
        self.calls += 1
        self.cached_calls += response.cached
        usage = response.usage if not response.cached else None
        if usage is not None:
            self.tokens[step] = self.tokens[step] + usage
        self._write(
            {
                "kind": "call",
                "step": step,
                "cached": response.cached,
                "prompt_tokens": usage.prompt_tokens if usage else 0,
                "completion_tokens": usage.completion_tokens if usage else 0,
                **context,
            }
        )

    def event(self, event: str, **context: Any) -> None:
        """A retry, repair, discard or failure, with what caused it."""
        self.events[event] += 1
        self._write({"kind": "event", "event": event, **context})

    def summary(self) -> dict[str, Any]:
        """Calls, tokens per step and event counts of this process's run."""
        total = sum(self.tokens.values(), Usage())
        return {
            "llm_calls": self.calls,
            "cached_calls": self.cached_calls,
            "prompt_tokens": total.prompt_tokens,
            "completion_tokens": total.completion_tokens,
            "tokens_by_step": {
                step: {"prompt": u.prompt_tokens, "completion": u.completion_tokens}
                for step, u in sorted(self.tokens.items())
            },
            "events": dict(sorted(self.events.items())),
        }

    def _write(self, record: dict[str, Any]) -> None:
        record = {"time": round(time.time(), 3), **record}
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
