"""A request body drawn as YAML: renderers draw a form body's example (`application/x-www-form-urlencoded`) as YAML
lines under the request's label ("Body parameter", then `trx: 8ef2447e…`), one `name: value` line a field. Issue 17's
fortieth round."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from openapi_rag.crawl.custom_headers import is_custom_header
from openapi_rag.crawl.tables import is_request_header
from openapi_rag.errors import SpecError
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.shape import check_shape

MAX_YAML_CHARS = 50_000  # a body's example, not a document
# What its aliases may expand it to, and how deep it may nest: a 510-byte alias bomb expands to a billion nodes,
# and an alias may contain itself, both of which the example's schema would walk forever.
_LIMITS = ReadLimits(max_alias_nodes=MAX_YAML_CHARS)
# A mapping's line ("name: value", "name:" over its nested lines) or a list's item ("- value"), at any indentation.
_LINE = re.compile(r"\s*(?:[A-Za-z_$@][\w.$@-]{0,99}:(?:\s.*)?|-(?:\s.*)?)")
_TOP_KEY = re.compile(r"[A-Za-z_$@][\w.$@-]{0,99}:(?:\s|$)")


def parse_yaml_mapping(text: str) -> dict[str, Any] | None:
    """The mapping a code block of YAML lines writes, each top-level line a field's `name: value`; None for any other
    text, and for lines that are an HTTP message's headers ("Content-Type: application/json")."""
    text = text.strip()
    if not text or len(text) > MAX_YAML_CHARS or not _TOP_KEY.match(text):
        return None
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not all(_LINE.fullmatch(line) for line in lines):
        return None
    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    try:
        check_shape(value, Path("<yaml example>"), _LIMITS, aliased="*" in text)
    except SpecError:
        return None
    if not isinstance(value, dict) or not value or not all(isinstance(key, str) for key in value):
        return None
    if any(is_request_header(key) or is_custom_header(key) for key in value):
        return None
    return value
