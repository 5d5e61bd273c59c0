"""The Discovery Agent (Figure 2 of the OpenAPI-RAG study): an LLM that finds a task's endpoints.

The task goes to the LLM, which splits it into sub-tasks and, step by step, calls

- ``search(query)``: the top-k endpoints as short lines ``METHOD /path: summary`` (k=None: all),
- ``show(endpoint)``: one endpoint's full definition, only where it must check the fit,
- ``finish(endpoints)``: the final list.

Models with native tool calling get the tools as specs; the others (the small local default)
follow a JSON protocol in the prompt: one ``{"tool": ..., "args": {...}}`` object per reply, tool
results coming back as ``Observation: ...`` messages, constrained by a JSON-schema grammar where
the model supports one. Every LLM call is one step; at the step budget (or when the model
repeats an action a second time, told once that it did) the agent stops and
returns the endpoints it inspected, else the best of its searches, else a plain search for the
task, flagged ``finished=False``. Only endpoints that exist in the index are returned.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm.base import LLM, LLMError, LLMResponse, Message, ToolCall, Usage, structured_output
from openapi_rag.llm.prompts import ACTION_SCHEMA, AGENT_TOOLS, JSON_PROTOCOL_REMINDER, agent_messages

__all__ = ["DiscoveryAgent", "DiscoveryResult", "SearchIndex", "normalize_endpoint", "parse_json_action"]

_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE"
_ENDPOINT = re.compile(rf"\b({_METHODS})\s+(/[^\s\"'`,)\]]*)", re.IGNORECASE)
_SHOW_LIMIT = 3000  # characters of an endpoint definition shown: enough to judge it, bounded in tokens


class SearchIndex(Protocol):
    """What the agent needs of an index (`openapi_rag.index.Index` has both)."""

    def search(self, query: str, *, k: int | str = ...) -> Sequence[Any]: ...

    def show(self, operation: str) -> dict[str, Any]: ...

    def __len__(self) -> int: ...


@dataclass
class DiscoveryResult:
    """The agent's answer for one task, with its cost.

    Attributes:
        endpoints: `METHOD /path` ids, in the agent's order, each existing in the index.
        finished: the agent called `finish` (or, with native tools, answered in prose).
        stop: why it stopped: ``finish``, ``budget`` (out of steps), ``loop`` (repeated itself),
            ``error`` (the model failed after the first step; see the trace).
        steps: LLM calls made.
        usage: prompt and completion tokens over all steps.
        trace: one record per step (`tool`, `args`, `observation` or `error`) for debugging.
    """

    endpoints: list[str]
    finished: bool
    steps: int
    usage: Usage
    trace: list[dict[str, Any]] = field(default_factory=list)
    stop: str = "finish"

    def to_dict(self) -> dict[str, Any]:
        return {
            "endpoints": self.endpoints,
            "finished": self.finished,
            "stop": self.stop,
            "steps": self.steps,
            "prompt_tokens": self.usage.prompt_tokens,
            "completion_tokens": self.usage.completion_tokens,
            "trace": self.trace,
        }


def normalize_endpoint(text: str) -> str | None:
    """`METHOD /path` from text such as ``get /albums``, ``spotify GET /albums: ...``; None if absent."""
    match = _ENDPOINT.search(text)
    if match is None:
        return None
    return f"{match.group(1).upper()} {match.group(2).rstrip('.:;')}"


def parse_json_action(text: str) -> tuple[str, dict[str, Any]] | None:
    """The first ``{"tool": ..., "args": {...}}`` object in a reply, or None.

    Small models wrap JSON in prose or code fences and sometimes put the arguments at the top
    level; both are accepted.
    """
    decoder = json.JSONDecoder()
    for start in (m.start() for m in re.finditer(r"\{", text)):
        try:
            value, _ = decoder.raw_decode(text, start)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("tool"), str):
            args = value.get("args")
            if not isinstance(args, dict):
                args = {k: v for k, v in value.items() if k != "tool"}
            return value["tool"], args
    return None


class DiscoveryAgent:
    """Finds the endpoints a task needs by searching an index with an LLM in the loop.

    Args:
        llm: the model; its `supports_tools` picks native tool calls or the JSON protocol.
        index: anything with `search(query, k=)` and `show("METHOD /path")`.
        k: endpoints per search; None returns all of them.
        max_steps: the most LLM calls per task.
        max_tokens: the longest reply per step.

    Example::

        agent = DiscoveryAgent(get_llm("openai:gpt-4o-mini"), Index.open("idx/"), k=5)
        result = agent.run("Add the top tracks of an artist to a new playlist")
        result.endpoints, result.usage.prompt_tokens
    """

    def __init__(
        self, llm: LLM, index: SearchIndex, *, k: int | None = 10, max_steps: int = 10, max_tokens: int = 256
    ) -> None:
        self.llm = llm
        self.index = index
        self.k = k
        self.max_steps = max_steps
        self.max_tokens = max_tokens

    # ---- tools ----------------------------------------------------------------------------
    def _search(self, query: str, seen: dict[str, None]) -> str:
        k: int | str = self.k if self.k is not None else max(len(self.index), 1)
        hits = self.index.search(query, k=k)
        lines = []
        for hit in hits:
            seen.setdefault(hit.id, None)
            summary = " ".join(str(getattr(hit, "summary", "") or "").split())
            lines.append(f"{hit.id}: {summary}" if summary else hit.id)
        return "\n".join(lines) or "no endpoints found"

    def _show(self, endpoint: str) -> str:
        text = json.dumps(self.index.show(endpoint), ensure_ascii=False, default=str)
        return text if len(text) <= _SHOW_LIMIT else text[:_SHOW_LIMIT] + " ..."

    def _exists(self, endpoint: str, seen: dict[str, None]) -> bool:
        if endpoint in seen:
            return True
        try:
            self.index.show(endpoint)
        except OpenAPIRagError as exc:
            # `show` also refuses an id that several services of the index share: it exists.
            return "several services" in str(exc)
        return True

    # ---- the loop --------------------------------------------------------------------------
    def run(self, task: str) -> DiscoveryResult:
        """Run the agent on one task until it finishes or the step budget is spent."""
        native = self.llm.supports_tools
        messages: list[Message] = agent_messages(task, native_tools=native)
        usage = Usage()
        trace: list[dict[str, Any]] = []
        seen: dict[str, None] = {}  # endpoints returned by searches, in order
        shown: dict[str, None] = {}
        done: set[str] = set()  # actions taken, to notice a model going round in circles
        repeats = 0
        # Native tools, or a schema (a grammar keeps a small model's replies valid actions).
        params: dict[str, Any] = (
            {"tools": AGENT_TOOLS} if native else structured_output(self.llm, "action", ACTION_SCHEMA)
        )
        for step in range(1, self.max_steps + 1):
            try:
                response = self.llm.chat(messages, max_tokens=self.max_tokens, temperature=0.0, **params)
            except LLMError as exc:
                if step == 1:
                    raise  # no model at all: the caller must hear of it
                # Later on this is mostly a conversation outgrowing the context: keep what was found.
                trace.append({"step": step, "error": str(exc)})
                return self._budget_result(task, shown, seen, step - 1, usage, trace, "error")
            usage = usage + response.usage
            actions = self._actions(response, native)
            messages.append(
                response.to_message() if native else {"role": "assistant", "content": response.text}
            )
            if not actions:
                if native and response.text.strip():
                    # A tool-calling model that answers in prose has finished: read endpoints from it.
                    found = [
                        e for e in (normalize_endpoint(line) for line in response.text.splitlines()) if e
                    ]
                    trace.append(
                        {"step": step, "tool": "finish", "args": {"endpoints": found}, "prose": True}
                    )
                    return self._result(found, True, step, usage, trace, seen)
                trace.append({"step": step, "error": "no tool call", "reply": response.text[:200]})
                messages.append({"role": "user", "content": JSON_PROTOCOL_REMINDER})
                continue
            for call in actions:
                if call.name == "finish":
                    endpoints = call.arguments.get("endpoints") or []
                    if isinstance(endpoints, str):
                        endpoints = [endpoints]
                    found = [e for e in (normalize_endpoint(str(x)) for x in endpoints) if e]
                    trace.append({"step": step, "tool": "finish", "args": {"endpoints": found}})
                    return self._result(found, True, step, usage, trace, seen)
                key = json.dumps([call.name, call.arguments], sort_keys=True, default=str)
                if key in done:
                    repeats += 1
                    if repeats > 1:
                        # A model at temperature 0 that repeats itself twice will go on doing so:
                        # stop now rather than spend the rest of the budget.
                        trace.append(
                            {"step": step, "tool": call.name, "args": call.arguments, "error": "loop"}
                        )
                        return self._budget_result(task, shown, seen, step, usage, trace, "loop")
                    observation = (
                        "You already did exactly this. Search for another sub-task, or call finish "
                        "with the endpoints the task needs."
                    )
                else:
                    done.add(key)
                    observation = self._call(call, seen, shown)
                trace.append(
                    {"step": step, "tool": call.name, "args": call.arguments, "observation": observation}
                )
                if native:
                    messages.append({"role": "tool", "tool_call_id": call.id, "content": observation})
                else:
                    messages.append({"role": "user", "content": f"Observation: {observation}"})
        return self._budget_result(task, shown, seen, self.max_steps, usage, trace, "budget")

    def _budget_result(
        self,
        task: str,
        shown: dict[str, None],
        seen: dict[str, None],
        steps: int,
        usage: Usage,
        trace: list[dict[str, Any]],
        stop: str,
    ) -> DiscoveryResult:
        """The answer of an agent that did not finish: what it inspected, else what it found."""
        if not seen and not shown:
            # It never searched: fall back to plain retrieval for the task, so the answer is no
            # worse than a search (and the caller sees finished=False).
            self._search(task, seen)
        fallback = list(shown) or list(seen)[: self.k or len(seen)]
        result = self._result(fallback, False, steps, usage, trace, seen)
        result.stop = stop
        return result

    def _actions(self, response: LLMResponse, native: bool) -> list[ToolCall]:
        if native:
            return list(response.tool_calls)
        parsed = parse_json_action(response.text)
        return [ToolCall("json", parsed[0], parsed[1])] if parsed else []

    def _call(self, call: ToolCall, seen: dict[str, None], shown: dict[str, None]) -> str:
        try:
            if call.name == "search":
                query = str(call.arguments.get("query") or call.arguments.get("_raw") or "").strip()
                return self._search(query, seen) if query else "error: search needs a query"
            if call.name == "show":
                endpoint = normalize_endpoint(str(call.arguments.get("endpoint") or call.arguments))
                if endpoint is None:
                    return "error: show needs an endpoint `METHOD /path`"
                text = self._show(endpoint)
                shown.setdefault(endpoint, None)
                return text
        except OpenAPIRagError as exc:
            return f"error: {exc}"
        return f"error: no tool {call.name!r}; use search, show or finish"

    def _result(
        self,
        endpoints: list[str],
        finished: bool,
        steps: int,
        usage: Usage,
        trace: list[dict[str, Any]],
        seen: dict[str, None],
    ) -> DiscoveryResult:
        real = [e for e in dict.fromkeys(endpoints) if self._exists(e, seen)]
        return DiscoveryResult(real, finished, steps, usage, trace)
