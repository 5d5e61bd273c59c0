"""A scripted LLM double: replies are given in advance (strings, responses, or a function)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from openapi_rag.llm import LLM, LLMResponse, Message, Usage


class ScriptedLLM(LLM):
    """Replies with the next scripted item; `reply_fn(messages)` answers when the script is empty."""

    def __init__(
        self,
        script: list[str | LLMResponse] | None = None,
        *,
        reply_fn: Callable[[list[Message]], str | LLMResponse] | None = None,
        supports_tools: bool = False,
        model_id: str = "scripted",
    ) -> None:
        super().__init__()
        self.script = list(script or [])
        self.reply_fn = reply_fn
        self.supports_tools = supports_tools
        self.model_id = model_id
        self.calls: list[dict[str, Any]] = []

    def _chat(
        self, messages: list[Message], *, tools: Any, max_tokens: int, temperature: float, **params: Any
    ) -> LLMResponse:
        self.calls.append({"messages": [dict(m) for m in messages], "tools": tools, **params})
        if self.script:
            item = self.script.pop(0)
        elif self.reply_fn is not None:
            item = self.reply_fn(messages)
        else:
            raise AssertionError("ScriptedLLM ran out of replies")
        if isinstance(item, LLMResponse):
            return item
        return LLMResponse(
            text=item,
            usage=Usage(sum(len(str(m.get("content") or "")) for m in messages) // 4, len(item) // 4),
        )
