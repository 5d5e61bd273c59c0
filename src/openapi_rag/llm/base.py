"""The LLM protocol: chat messages in, text or tool calls out.

Messages are OpenAI-style dicts (``{"role": "user", "content": "..."}``; assistant messages may
carry ``tool_calls``, tool results are ``{"role": "tool", "tool_call_id": ..., "content": ...}``)
and tools are OpenAI function specs, because every backend here (OpenAI-compatible servers and
llama.cpp through xllamacpp) speaks that format natively.
"""

from __future__ import annotations

import json
import threading
from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass, field
from typing import Any

from openapi_rag.errors import OpenAPIRagError

__all__ = [
    "LLM",
    "LLMError",
    "LLMResponse",
    "Message",
    "ToolCall",
    "Usage",
    "parse_chat_reply",
    "structured_output",
]

Message = dict[str, Any]


class LLMError(OpenAPIRagError):
    """An LLM could not be selected, reached or understood."""


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for; `arguments` already parsed from JSON."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)

    def to_message(self) -> dict[str, Any]:
        """The OpenAI wire form, for the assistant message that carried the call."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": json.dumps(self.arguments, ensure_ascii=False)},
        }


@dataclass
class Usage:
    """Tokens one call (or several, added up) consumed."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens
        )


@dataclass
class LLMResponse:
    """What a chat call returns: text, tool calls (possibly both), and token usage."""

    text: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cached: bool = False  # served from the on-disk cache: no tokens were spent on it

    def to_message(self) -> Message:
        """The assistant message to append to the conversation."""
        message: Message = {"role": "assistant", "content": self.text}
        if self.tool_calls:
            message["tool_calls"] = [call.to_message() for call in self.tool_calls]
        return message

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "tool_calls": [asdict(call) for call in self.tool_calls],
            "usage": asdict(self.usage),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LLMResponse:
        return cls(
            text=data.get("text", ""),
            tool_calls=[ToolCall(**call) for call in data.get("tool_calls", [])],
            usage=Usage(**data.get("usage", {})),
        )


class LLM(ABC):
    """A chat model. Subclasses implement `_chat`; `chat` adds usage accounting.

    Attributes:
        model_id: the name the model is known by in caches and reports (`local:smollm2-135m`).
        supports_tools: whether `tools=` reaches the model as native tool calling; agents fall
            back to a JSON protocol in the prompt when it does not.
        supports_json_schema: whether ``response_format={"type": "json_schema", ...}`` constrains
            the reply (llama.cpp turns it into a grammar: even a 135M model then writes valid JSON).
    """

    model_id: str = ""
    supports_tools: bool = False
    supports_json_schema: bool = False

    def __init__(self) -> None:
        self.usage = Usage()  # everything this object spent, for token reports
        self._usage_lock = threading.Lock()

    def chat(
        self,
        messages: list[Message],
        *,
        tools: list[dict[str, Any]] | None = None,
        max_tokens: int = 256,
        temperature: float = 0.0,
        **params: Any,
    ) -> LLMResponse:
        """One reply to `messages`. `params` are passed to the backend (e.g. `stop`, `seed`)."""
        response = self._chat(messages, tools=tools, max_tokens=max_tokens, temperature=temperature, **params)
        if not response.cached:
            with self._usage_lock:
                self.usage = self.usage + response.usage
        return response

    def complete(self, prompt: str, *, system: str | None = None, **params: Any) -> str:
        """The text reply to one user prompt (an optional system message first)."""
        messages: list[Message] = [{"role": "system", "content": system}] if system else []
        messages.append({"role": "user", "content": prompt})
        return self.chat(messages, **params).text

    @abstractmethod
    def _chat(
        self,
        messages: list[Message],
        *,
        tools: list[dict[str, Any]] | None,
        max_tokens: int,
        temperature: float,
        **params: Any,
    ) -> LLMResponse: ...

    def close(self) -> None:  # noqa: B027 - optional hook, most models hold nothing to release
        """Release the model or connection (no-op by default)."""

    def __enter__(self) -> LLM:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.model_id!r})"


def parse_chat_reply(data: Any, where: str) -> LLMResponse:
    """An `LLMResponse` from an OpenAI chat-completions reply body."""
    try:
        message = data["choices"][0]["message"]
        raw_calls = message.get("tool_calls") or []
        calls = []
        for i, call in enumerate(raw_calls):
            function = call["function"]
            arguments = function.get("arguments") or "{}"
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except ValueError:
                    arguments = {"_raw": arguments}  # keep what the model wrote; the caller decides
            if not isinstance(arguments, dict):
                arguments = {"_raw": arguments}
            calls.append(
                ToolCall(id=call.get("id") or f"call_{i}", name=function["name"], arguments=arguments)
            )
        usage = data.get("usage") or {}
        return LLMResponse(
            text=message.get("content") or "",
            tool_calls=calls,
            usage=Usage(int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0)),
        )
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise LLMError(f"{where}: unexpected reply shape ({exc!r})") from exc


def structured_output(llm: LLM, name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """The chat parameters that constrain a reply to `schema`, where the model honours them.

    ``{"response_format": {"type": "json_schema", ...}}`` for a model with `supports_json_schema`
    (llama.cpp turns it into a grammar; OpenAI-compatible servers into structured outputs), else
    nothing: the caller then parses the reply leniently.
    """
    if not getattr(llm, "supports_json_schema", False):
        return {}
    return {"response_format": {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}}
