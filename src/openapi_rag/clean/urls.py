"""The `urls` step: remove URLs whose host is on a deny-list.

The default list drops link shorteners (they say nothing about the API) and Postman links (run
buttons, workspace and documenter pages, which a Postman-exported corpus repeats everywhere). A
deny entry is a host name, matching itself and its subdomains (`postman.com` also drops
`learning.postman.com`), optionally followed by a path prefix (`example.com/docs`). `"all"`
removes every URL. Structural URL fields (`servers[].url`, `externalDocs.url`, OAuth URLs) are
never passed to text steps, so only URLs written in prose and examples are removed.

A markdown link or autolink to a removed URL loses its brackets too: `[docs](https://bit.ly/x)`
becomes `docs`, `<https://bit.ly/x>` disappears.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

DEFAULT_URL_DENY: tuple[str, ...] = (
    # link shorteners
    "bit.ly",
    "bitly.com",
    "tinyurl.com",
    "goo.gl",
    "t.co",
    "ow.ly",
    "buff.ly",
    "is.gd",
    "rebrand.ly",
    "cutt.ly",
    "shorturl.at",
    "tiny.cc",
    "t.ly",
    "rb.gy",
    "lnkd.in",
    # Postman
    "postman.com",
    "getpostman.com",
    "postman.co",
    "pstmn.io",
)

UrlDeny = Iterable[str] | str  # a list of entries, or "all"

# Stops at whitespace, quotes, angle brackets and backticks; trailing punctuation is trimmed below.
_URL = r"(?:https?://|www\.)[^\s<>\"'`\]\[]+"
_FIND = re.compile(
    rf"\[(?P<text>[^\[\]\n]*)\]\((?P<link>{_URL}?)\)"  # markdown link
    rf"|<(?P<auto>{_URL})>"  # autolink
    rf"|(?P<bare>{_URL})",
    re.IGNORECASE,
)
_TRAIL = ".,;:!?*_~"
# A removed URL first becomes a NUL sentinel, so that only the brackets and spaces it leaves
# behind are tidied, never `()` or spacing elsewhere in the text.
_GONE = "\x00"
_GONE_PARENS = re.compile(r"\(\s*\x00\s*\)")
_GONE_BEFORE_END = re.compile(r"[ \t]*\x00(?:[ \t]*\x00)*[ \t]*(?=[.,;:!?)\n]|$)")
_GONE_LINE_START = re.compile(r"^[ \t]*\x00(?:[ \t]*\x00)*[ \t]*", re.MULTILINE)
_GONE_BETWEEN = re.compile(r"[ \t]*\x00(?:[ \t]*\x00)*[ \t]*")


def _split_bare(url: str) -> tuple[str, str]:
    """A bare URL without the punctuation that ends its sentence, and that punctuation."""
    end = len(url)
    unbalanced = url.count(")") - url.count("(")  # a `)` closing a parenthesis opened in the URL stays
    while end:
        last = url[end - 1]
        if last in _TRAIL:
            end -= 1
        elif last == ")" and unbalanced > 0:
            end -= 1
            unbalanced -= 1
        else:
            break
    return url[:end], url[end:]


def _denied_by(deny: UrlDeny) -> Callable[[str], bool]:
    if isinstance(deny, str):
        if deny.strip().lower() != "all":
            raise ValueError(f'URL deny-list must be "all" or a list of host names, got {deny!r}')
        return lambda url: True
    entries: list[tuple[str, str]] = []
    for entry in deny:
        host, _, path = entry.strip().lower().removeprefix("https://").removeprefix("http://").partition("/")
        if host:
            entries.append((host.removeprefix("www."), "/" + path if path else ""))

    def denied(url: str) -> bool:
        if url[:4].lower() == "www.":
            url = "http://" + url
        try:
            parts = urlsplit(url)
            host = (parts.hostname or "").removeprefix("www.")
        except ValueError:  # malformed (e.g. a bad IPv6 literal): not ours to judge
            return False
        path = parts.path.lower()
        return any(
            (host == h or host.endswith("." + h)) and (not p or path.startswith(p)) for h, p in entries
        )

    return denied


def make_url_cleaner(deny: UrlDeny = DEFAULT_URL_DENY) -> Callable[[str], str]:
    """A text function removing the URLs that `deny` names.

    Args:
        deny: host names (with optional path prefix), or `"all"` for every URL.

    Raises:
        ValueError: `deny` is a string other than `"all"`.
    """
    denied = _denied_by(deny)

    def replace(match: re.Match[str]) -> str:
        if match.group("link") is not None:
            link = match.group("link")
            return match.group("text") if link and denied(link) else match.group()
        if match.group("auto") is not None:
            return _GONE if denied(match.group("auto")) else match.group()
        url, tail = _split_bare(match.group("bare"))
        return _GONE + tail if denied(url) else match.group()

    def remove_urls(text: str) -> str:
        """`text` without the denied URLs (the same object if it named none)."""
        if "://" not in text and "www." not in text.lower():
            return text
        new = _FIND.sub(replace, text)
        if new == text:
            return text
        if _GONE in new:
            new = _GONE_PARENS.sub(_GONE, new)
            new = _GONE_BEFORE_END.sub("", new)
            new = _GONE_LINE_START.sub("", new)
            new = _GONE_BETWEEN.sub(" ", new)
        return new.strip()

    return remove_urls


remove_urls = make_url_cleaner()
