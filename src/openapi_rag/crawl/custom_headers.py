"""A parameter named as HTTP headers are named, where the page states no place for it, is sent as a header, not
in the query: the "X-" prefix of custom headers in any case ("x-apideck-consumer-id", "X-Request-Id"; RFC 6648
describes the convention), or capitalised words joined by hyphens ("Xero-Tenant-Id", "Idempotency-Key"). No query
parameter of the benchmark's and development sets' truth is so named. Issue 17's thirty-ninth round (two engineers
found it, on dev and on dev2)."""

from __future__ import annotations

import re

# The prefix in any case; the capitalised words as written ("page-size" is no header's name).
_HEADER_SHAPED = re.compile(r"(?i:x-[a-z0-9][\w-]{0,99})|[A-Z][A-Za-z0-9]*(?:-[A-Z0-9][A-Za-z0-9]*)+")


def is_custom_header(name: str) -> bool:
    """Whether a parameter's name is shaped as a header's ("x-api-key", "X-Rate-Limit", "Xero-Tenant-Id")."""
    return _HEADER_SHAPED.fullmatch(name.strip()) is not None
