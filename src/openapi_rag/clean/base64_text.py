"""The `base64` step: replace data URIs and long base64 runs by the marker `<base64>`.

A run counts as base64 when it is at least 64 characters of one base64 alphabet (standard `+/` or
URL-safe `-_`), optionally `=`-padded, and has the letter mix of encoded bytes: base64 is about
40% upper case, 40% lower case and 5-15% digits, whatever it encodes. That keeps hex digests,
`----` rulers, CamelCase identifiers and slash-separated paths (about 10% upper case, few digits)
out. PEM blocks wrapped at 64 columns collapse into one marker.
"""

from __future__ import annotations

import re

MARKER = "<base64>"
MIN_RUN = 64

# `data:[<media type>][;param=value]*[;base64],<payload>`; the payload ends at whitespace, a quote
# or a closing bracket, as it does when a data URI is quoted inside prose, markdown or HTML.
_DATA_URI = re.compile(
    r"(?<![\w-])data:(?:[\w.+-]+/[\w.+-]+)?(?:;[\w.+-]+(?:=[\w.+-]+)?)*,[^\s\"'`<>)\]]*",
    re.IGNORECASE,
)
_RUN = re.compile(
    rf"(?<![A-Za-z0-9+/=_-])(?:[A-Za-z0-9+/]{{{MIN_RUN},}}|[A-Za-z0-9_-]{{{MIN_RUN},}})={{0,2}}"
    r"(?![A-Za-z0-9+/=_-])"
)
_UPPER = re.compile(r"[A-Z]")
_LOWER = re.compile(r"[a-z]")
_DIGIT = re.compile(r"[0-9]")
_REPEATED = re.compile(rf"{re.escape(MARKER)}(?:\s+{re.escape(MARKER)})+")
_QUICK = re.compile(rf"data:|[A-Za-z0-9+/_-]{{{MIN_RUN}}}", re.IGNORECASE)


def _run(match: re.Match[str]) -> str:
    run = match.group()
    size = len(run)
    if (
        len(_UPPER.findall(run)) >= 0.2 * size
        and len(_LOWER.findall(run)) >= 0.2 * size
        and len(_DIGIT.findall(run)) >= max(2, 0.03 * size)
    ):
        return MARKER
    return run


def strip_base64(text: str) -> str:
    """`text` with data URIs and base64 payloads replaced by `<base64>` (the same object if none)."""
    if not _QUICK.search(text):
        return text
    new = _DATA_URI.sub(MARKER, text)
    new = _RUN.sub(_run, new)
    if new == text:
        return text
    return _REPEATED.sub(MARKER, new)
