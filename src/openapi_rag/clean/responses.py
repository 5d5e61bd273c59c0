"""Steps over operation responses: `errors` (drop 4xx/5xx) and `headers` (drop headers of 2xx).

`errors` also drops the `default` response, but only when the operation declares an explicit
success (1xx/2xx/3xx) response: `default` then stands for "any other status", i.e. the errors. When
nothing else describes success, `default` is usually the success response and is kept.

Only responses inside operations are touched (paths, webhooks, callbacks, `components.pathItems`);
`components.responses` holds named responses whose status is unknown, so it is left alone, and so
are the component schemas that only error responses used (the reference graph decides about those).
"""

from __future__ import annotations

from typing import Any

from openapi_rag.clean._walk import dump_member, iter_operations


def _status(code: Any) -> str:
    # YAML reads `200:` as an int; OpenAPI 3 also allows ranges such as "4XX".
    return str(code).strip().upper()


def _is_error(code: Any) -> bool:
    status = _status(code)
    return len(status) == 3 and status[0] in "45"


def _is_success(code: Any) -> bool:
    status = _status(code)
    return len(status) == 3 and status[0] in "123"


def drop_error_responses(doc: dict[str, Any]) -> list[str]:
    """Remove 4xx/5xx (and error-only `default`) responses in place; return the removed JSON members."""
    removed: list[str] = []
    for op in iter_operations(doc):
        responses = op.get("responses")
        if not isinstance(responses, dict):
            continue
        has_success = any(_is_success(code) for code in responses)
        for code in list(responses):
            if _is_error(code) or (has_success and _status(code) == "DEFAULT"):
                removed.append(dump_member(code, responses.pop(code)))
    return removed


def drop_success_headers(doc: dict[str, Any]) -> list[str]:
    """Remove `headers` from 2xx responses in place; return the removed JSON members."""
    removed: list[str] = []
    seen: set[int] = set()  # one response object may be shared through a YAML alias
    for op in iter_operations(doc):
        responses = op.get("responses")
        if not isinstance(responses, dict):
            continue
        for code, response in responses.items():
            if not isinstance(response, dict) or id(response) in seen:
                continue
            seen.add(id(response))
            if _status(code).startswith("2") and "headers" in response:
                removed.append(dump_member("headers", response.pop("headers")))
    return removed
