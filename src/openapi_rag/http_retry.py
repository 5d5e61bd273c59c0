"""POST JSON to an OpenAI-compatible API with retries: one place for the embedding and chat clients.

Retries with exponential backoff and jitter on timeouts, connection errors and HTTP 408/409/429/5xx,
honouring `Retry-After`; refuses at once on 401/403 (a wrong key never gets better) and other 4xx.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

import httpx

logger = logging.getLogger(__name__)

RETRY_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504})
MAX_DELAY = 60.0


def post_json(
    client: httpx.Client,
    url: str,
    payload: dict[str, Any],
    *,
    api_key: str | None,
    timeout: float,
    max_retries: int,
    backoff: float,
    sleep: Callable[[float], None],
    error: type[Exception],
    key_hint: str,
    url_hint: str,
) -> Any:
    """The decoded JSON reply; raises `error` with a message naming the setting to check."""
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    failure = ""
    for attempt in range(max_retries + 1):
        delay = backoff * 2**attempt
        try:
            response = client.post(url, json=payload, headers=headers, timeout=timeout)
        except httpx.TimeoutException:
            failure = f"timed out after {timeout:g} s"
        except httpx.TransportError as exc:
            failure = f"could not connect ({exc}); check {url_hint} and the network"
        else:
            status = response.status_code
            if status < 400:
                try:
                    return response.json()
                except ValueError as exc:
                    raise error(f"{url}: reply is not JSON") from exc
            detail = error_detail(response)
            if status in (401, 403):
                raise error(f"{url} refused the API key (HTTP {status}: {detail}): check {key_hint}")
            if status not in RETRY_STATUS:
                raise error(f"{url} rejected the request (HTTP {status}): {detail}")
            failure = f"HTTP {status}: {detail}"
            delay = retry_after(response, default=delay)
        if attempt < max_retries:
            delay = min(delay, MAX_DELAY) * (1 + 0.1 * random.random())  # jitter spreads clients out
            logger.info("%s: %s; retry %d in %.1f s", url, failure, attempt + 1, delay)
            sleep(delay)
    raise error(f"{url} failed after {max_retries + 1} attempts: {failure}")


def error_detail(response: httpx.Response) -> str:
    """The server's error message: `{"error": {"message": ...}}`, `{"error": "..."}` or the body."""
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else error
    if isinstance(message, str) and message:
        return message
    return response.text[:200].strip() or response.reason_phrase


def retry_after(response: httpx.Response, *, default: float) -> float:
    try:
        return max(0.0, float(response.headers["retry-after"]))
    except (KeyError, ValueError):
        return default
