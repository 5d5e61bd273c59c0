"""Execution in the loop: send a generated call, and on a refusal repair it and try again.

Offline repair moves to the next candidate operation (the refusal says the operation, or the way
the request filled it, was wrong); the LLM generator first gets the server's reason back for the
same operation, then moves on. A real base URL is opt-in and read-only unless writes are allowed:
a call that would change something there is never sent by accident.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.generate.call.generator import Plan, call_of, generate_call, llm_for, plan_call
from openapi_rag.generate.call.mock import SERVICE_HEADER
from openapi_rag.generate.call.result import GeneratedCall

__all__ = ["ExecutionError", "Target", "execute_plan", "send"]

TIMEOUT_S = 10.0
MAX_BODY_CHARS = 2000  # of a server's answer kept in the result


class ExecutionError(OpenAPIRagError):
    """A call could not be sent (the target is unreachable or refused the connection)."""


class Target:
    """Where calls go: the mock (pinned to the call's service) or a real base URL.

    Args:
        base_url: the server's base URL.
        mock: it is our mock server (requests name the service; writes are harmless).
        allow_write: a real server may receive methods other than GET.
        client: the HTTP client (tests pass one with a mock transport).
    """

    def __init__(
        self, base_url: str, *, mock: bool, allow_write: bool = False, client: httpx.Client | None = None
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.mock = mock
        self.allow_write = allow_write or mock
        self.client = client or httpx.Client(timeout=TIMEOUT_S, trust_env=False)


def send(call: GeneratedCall, target: Target) -> dict[str, Any]:
    """Send `call` to `target`: {"status", "reason", "body"} (status None when it was not sent)."""
    if call.operation is None:
        return {"status": None, "reason": "no operation to call"}
    if call.method not in ("GET", "HEAD") and not target.allow_write:
        return {
            "status": None,
            "reason": f"not sent: {call.method} changes data on {target.base_url}; pass --allow-write to send it",
        }
    headers = dict(call.headers)
    if target.mock:
        headers[SERVICE_HEADER] = call.operation["service"]
    content = None
    if call.body is not None:
        content = json.dumps(call.body, ensure_ascii=False).encode()
        headers["Content-Type"] = (
            call.media_type if call.media_type and "json" in call.media_type else "application/json"
        )
    try:
        response = target.client.request(
            call.method, target.base_url + call.endpoint, headers=headers, content=content
        )
    except httpx.HTTPError as exc:
        raise ExecutionError(f"could not reach {target.base_url}: {exc}") from exc
    try:
        answer: Any = response.json() if response.content else None
    except ValueError:
        answer = response.text[:MAX_BODY_CHARS]
    reason = answer.get("reason", "") if isinstance(answer, dict) and response.status_code >= 400 else ""
    if response.status_code >= 400 and not reason:
        reason = response.text[:MAX_BODY_CHARS]
    return {"status": response.status_code, "reason": reason, "body": answer}


def execute_plan(
    plan: Plan, target: Target, *, repair: int = 0, generator: str = "offline", llm: Any = None
) -> GeneratedCall:
    """Execute the plan's best call; on a 4xx repair it up to `repair` times. The call returned carries
    `execution`: the final status, reason, and every attempt."""
    attempts: list[dict[str, Any]] = []
    choice, feedback = 0, None
    call = call_of(plan, choice, generator=generator, llm=llm)
    tokens = dict(call.llm_tokens)
    started = time.perf_counter()
    while True:
        outcome = send(call, target)
        attempts.append({"operation": call.operation, "endpoint": call.endpoint, "method": call.method,
                         "status": outcome["status"], "reason": outcome["reason"]})  # fmt: skip
        status = outcome["status"]
        if status is None or status < 400 or status >= 500 or len(attempts) > repair or not plan.candidates:
            break
        # Repair: the LLM first hears the refusal for the same operation, then the next operation is tried.
        if generator == "llm" and feedback is None:
            feedback = outcome["reason"] or f"HTTP {status}"
        else:
            choice, feedback = choice + 1, None
            if choice >= len(plan.candidates):
                break
        call = call_of(plan, choice, generator=generator, llm=llm, feedback=feedback)
        tokens = {
            k: tokens.get(k, 0) + call.llm_tokens.get(k, 0) - plan.tokens.get(k, 0)
            for k in ("prompt", "completion")
        }
    call.llm_tokens = tokens
    call.execution = {
        "status": attempts[-1]["status"],
        "reason": attempts[-1]["reason"],
        "response": outcome.get("body"),
        "attempts": attempts,
        "seconds": round(time.perf_counter() - started, 4),
    }
    return call


def call_request(
    request: str,
    index: Any,
    *,
    generator: str = "offline",
    policy: str = "rag",
    llm: Any = None,
    target: Target | None = None,
    repair: int = 0,
) -> GeneratedCall:
    """`generate_call`, then, with a `target`, execution with up to `repair` repairs."""
    if target is None:
        return generate_call(request, index, generator=generator, policy=policy, llm=llm)
    llm = llm_for(generator, policy, llm)
    plan = plan_call(request, index, policy=policy, llm=llm)
    return execute_plan(plan, target, repair=repair, generator=generator, llm=llm)
