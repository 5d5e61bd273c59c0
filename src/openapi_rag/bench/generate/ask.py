"""One LLM question whose reply must be a JSON object of a given shape."""

from __future__ import annotations

from typing import Any

from openapi_rag.agents.policies import parse_json_object
from openapi_rag.bench.generate.log import GenerationLog
from openapi_rag.llm import LLM, LLMResponse, Message, structured_output


def ask_json(
    llm: LLM,
    messages: list[Message],
    schema: dict[str, Any],
    *,
    step: str,
    log: GenerationLog,
    max_tokens: int = 512,
    seed: int | None = None,
    **context: Any,
) -> tuple[dict[str, Any] | None, LLMResponse]:
    """The JSON object the model replies to `messages`, or None when the reply holds none.

    The reply is constrained by `schema` where the model honours ``response_format`` (llama.cpp turns
    it into a grammar; OpenAI-compatible servers with structured outputs), and parsed leniently
    otherwise. A `seed` makes a sampled reply reproducible and is part of the reply cache's key, so a
    redraw asks a new question while a resumed run asks the old ones again and hits the cache.
    """
    params = structured_output(llm, step, schema)
    if seed is not None:
        params["seed"] = seed
    response = llm.chat(
        messages, max_tokens=max_tokens, temperature=0.7 if seed is not None else 0.0, **params
    )
    log.call(step, response, **context)
    return parse_json_object(response.text), response
