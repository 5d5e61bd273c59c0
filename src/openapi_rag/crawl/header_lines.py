"""A request's header parameters drawn as lines of a code block under a "Headers" heading ("Authorization:",
"X-Request-Id: an id of the caller's"), one "Name: default or description" line each, as a raw request shows
its headers. Issue 17's twenty-seventh round."""

from __future__ import annotations

import re

from openapi_rag.crawl.tables import FieldRow

_HEADERS = re.compile(r"(?:request\s+)?headers?\s*:?", re.I)
_REQUEST = re.compile(r"(?:http\s+)?request\s*:?", re.I)
_LINE = re.compile(r"([A-Za-z][\w-]{0,99})\s*:(?:\s+(\S.{0,300}))?")
_MAX_LINES = 50


def is_headers_heading(text: str) -> bool:
    """A heading that is only a label of headers ("Headers", "Request headers")."""
    return _HEADERS.fullmatch(text.strip()) is not None


def is_request_heading(text: str) -> bool:
    """A heading that is only a label of the request ("Request", "HTTP request")."""
    return _REQUEST.fullmatch(text.strip()) is not None


def header_rows(code: str) -> list[FieldRow]:
    """One header parameter per line of a code block whose every line is "Name: value" (the value a default
    or a description, perhaps left out: "Authorization:"); none where a line is anything else (a request
    line, JSON, prose) or the block is no short list."""
    lines = [line.strip() for line in code.splitlines() if line.strip()]
    if not lines or len(lines) > _MAX_LINES:
        return []
    rows = []
    for line in lines:
        found = _LINE.fullmatch(line)
        if found is None:
            return []
        rows.append(FieldRow(found.group(1), location="header", type="string", description=found.group(2) or ""))
    return rows
