"""The `base64` step: replace data URIs and long base64 runs by the marker `<base64>`.

A run counts as base64 when it is at least 64 characters of the base64 alphabets (standard `+/`,
URL-safe `-_`), optionally `=`-padded, outside a URL, and has the letter mix of encoded bytes: base64 is about
40% upper case, 40% lower case and 5-15% digits, whatever it encodes. That keeps hex digests,
`----` rulers, CamelCase identifiers and slash-separated paths (about 10% upper case, few digits)
out. PEM bodies and blocks wrapped at 64 columns collapse into one marker.
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
# One alphabet for both variants (standard `+/`, URL-safe `-_`): the letter mix below is what tells
# a payload from a path. URLs are matched first and kept: their paths are the `urls` step's business.
_RUN = re.compile(
    r"(?P<url>(?:https?|ftp)://[^\s<>\"'`]+)"
    rf"|(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{{{MIN_RUN},}}(?:={{1,2}}|(?![A-Za-z0-9+/=_-]))"
)
# PEM armour: the body goes, the BEGIN/END lines (which say what it was) stay.
_PEM = re.compile(r"(-----BEGIN [A-Z0-9 ]+-----)[A-Za-z0-9+/=\s.]+?(-----END [A-Z0-9 ]+-----)")
_UPPER = re.compile(r"[A-Z]")
_LOWER = re.compile(r"[a-z]")
_DIGIT = re.compile(r"[0-9]")
_REPEATED = re.compile(rf"{re.escape(MARKER)}(?:\s+{re.escape(MARKER)})+")
_QUICK = re.compile(rf"data:|[A-Za-z0-9+/_-]{{{MIN_RUN}}}", re.IGNORECASE)


def _run(match: re.Match[str]) -> str:
    run = match.group()
    if match.group("url"):
        return run
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
    if "-----BEGIN " in new:
        new = _PEM.sub(rf"\1{MARKER}\2", new)
    new = _RUN.sub(_run, new)
    if new == text:
        return text
    return _REPEATED.sub(MARKER, new)
