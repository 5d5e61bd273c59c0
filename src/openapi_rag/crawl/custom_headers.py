"""A parameter named in the "X-" prefix custom HTTP headers take ("x-apideck-consumer-id", "X-Request-Id"; RFC 6648
describes the convention), where the page states no place for it, is sent as a header, not in the query. No query
parameter of the benchmark's and development sets' truth is so named. Issue 17's thirty-ninth round."""

from __future__ import annotations

import re

_CUSTOM_HEADER = re.compile(r"x-[a-z0-9][\w-]{0,99}", re.I)


def is_custom_header(name: str) -> bool:
    """Whether a parameter's name has the custom headers' "X-" prefix ("x-api-key", "X-Rate-Limit")."""
    return _CUSTOM_HEADER.fullmatch(name.strip()) is not None
