"""Where a page says its API lives: base URLs it states without a full request URL, and the
documented path templates that sample request URLs end with (the rest of such a URL is a server).
"""

from __future__ import annotations

import re

from openapi_rag.crawl.page import Block

_BARE_URL = re.compile(r"^\s*https?://[^\s/]+(/[^\s]*)?\s*$")
_TEMPLATED_SCHEME = re.compile(r"^\s*\{\w+\}://[^\s/{}]+(/[^\s]*)?\s*$")  # a server variable for its scheme
_URL_THEN_WORDS = re.compile(r"^\s*(https?://[^\s/]+(?:/\S*)?)\s+[-–—]\s+[^/]{1,80}$")
_URL_THEN_PATH = re.compile(r"^\s*(https?://\S+)\s+(/\S*)\s*$")
# A request URL shown whole, alone or after a few words that name it ("Production server https://…").
# The scheme may be left out ("api.example.com/v1/pets") or be a server variable ("{scheme}://…").
_WORDS_THEN_URL = re.compile(
    r"^\s*(?:[^\s/:][^/:]{0,60}\s)?((?:https?://|\{\w+\}://)?[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?::\d+)?/\S*"
    r"|https?://\S+)\s*$",
    re.I,
)
_SCHEME = re.compile(r"(?:https?|\{\w+\})://", re.I)
# A server listed under a "Servers" label: its URL (the scheme may be a server variable, "{scheme}://"),
# then a few words that describe it ("https://api.example.com/v1 Production server").
_LISTED_SERVER = re.compile(r"^\s*((?:https?|\{\w+\})://[\w.-]+(?::\d+)?(?:/\S*)?)(?:\s+[^/:]{1,80})?\s*$", re.I)
_SERVER_LABEL = re.compile(r"\b(base url|base urls|server|servers|endpoint|host|api url)\b")
# A label and its base URL in one run ("[ Base URL: api.example.com/v1 ]"), the scheme optional, or
# only the base path ("Base URL: /v1, Version: 1.0", "BasePath:/v2" as Swagger 2 names it), which a
# server URL may be (relative to the host).
_LABELLED_BASE = re.compile(
    r"^\W*base\s*(?:url|path)\s*:\s*((?:https?://)?[\w.-]+\.[a-z]{2,}(?::\d+)?(?:/[^\s,;\]]*)?|/[^\s,;\]]*)"
    r"\s*(?:[\]),;|].*)?$",
    re.I,
)
_RELATIVE_TO = re.compile(r"\brelative to:?\s+(https?://[^\s/]+(?:/[^\s]*)?)\s*$", re.I)
_BASE_IS = re.compile(r"\bbase (?:uri|url)\b[^.]{0,100}?\bis:?\s+(https?://[^\s/]+(?:/\S*)?)", re.I)
_SCHEMES = re.compile(r"^\s*schemes?\s*:?\s*(https?)\b", re.I)
_HOST = re.compile(r"(?:https?://)?([\w-]+(?:\.[\w-]+)+(?::\d+)?)/?")


def _host_and_base_path(table: Block) -> str | None:
    """The server a table of key/value rows states in Swagger 2's own terms: a "Host" row (a host
    name), with a "Base path" row ("/v2") and a "Schemes" row ("https, http") beside it."""
    if any(len(row) != 2 for row in table.rows) or len(table.rows) > 20:
        return None
    values = {re.sub(r"[\s_-]+", "", key.lower().rstrip(":")): value.strip() for key, value in table.rows}
    host = _HOST.fullmatch(values.get("host", ""))
    if host is None:
        return None
    base = values.get("basepath", "")
    base = base.rstrip("/") if base.startswith("/") else ""
    scheme = re.search(r"https?", values.get("schemes", values.get("scheme", "")).lower())
    return f"{scheme.group(0) if scheme else 'https'}://{host.group(1)}{base}"


def template_pattern(template: str) -> re.Pattern[str] | None:
    """A template's parameters as "any one segment" ("/pets/{id}" → /pets/[^/]+ at the end)."""
    if "{" not in template:
        return None
    parts = re.split(r"({[^}/]*})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts) + "$")


def template_start(path: str, template: str, pattern: re.Pattern[str] | None) -> int | None:
    """Where `template` ("/pets/{id}") matches the end of `path` ("/v2/pets/1"), else None."""
    if path.endswith(template):
        return len(path) - len(template)
    found = pattern.search(path) if pattern is not None else None
    return found.start() if found else None


def shows_url(text: str) -> bool:
    """Whether a run is a URL shown whole, alone or after a few words that name it."""
    return len(text) < 300 and _WORDS_THEN_URL.match(text) is not None


def _less_template(url: str, templates: set[str], patterns: dict[str, re.Pattern[str] | None]) -> str:
    """A request URL less the documented template that covers most of its end ("https://host/v1" of
    "https://host/v1/pets/{id}"), the literal one of two covering as much; "" when none does."""
    found = re.match(r"(https?://[^/\s?#]+)(/[^\s?#]*)?", url)
    if found is None:
        return ""
    origin, path = found.group(1), (found.group(2) or "/").rstrip("/") or "/"
    ends = [
        (start, not path.endswith(t), -len(t))
        for t in templates  # a template of parameters alone ("/{page}{ext}") would match any URL
        if re.search(r"\w", re.sub(r"{[^}]*}", "", t)) and (start := template_start(path, t, patterns[t])) is not None
    ]
    if not ends:
        return ""
    return (origin + path[: min(ends)[0]]).rstrip("/")


def stated_servers(blocks: list[Block], templates: set[str]) -> list[str]:
    """Base URLs a page states without a full request URL: a bare URL shown right before an operation's
    path (server + path displays), one after a "base URL" / "server" / "endpoint" label (in a run or
    alone in a code block) or in a servers table, or one the paths are said to be relative to."""
    counts: dict[str, int] = {}
    patterns = {t: template_pattern(t) for t in templates}
    schemes = [m.group(1).lower() for b in blocks if b.kind == "text" and (m := _SCHEMES.match(b.text))]
    scheme = schemes[0] if schemes else "https"  # the page's "Schemes" line, else https
    # The page's title: the first heading, when it is the top one (h1).
    title = next((k for k, b in enumerate(blocks) if b.kind == "heading"), -1)
    title = title if title >= 0 and blocks[title].level == 1 else -1
    for i, block in enumerate(blocks[:-1]):
        labelled = _LABELLED_BASE.match(block.text) if len(block.text) < 300 else None
        if labelled:
            # With no scheme shown, the page's "Schemes" line gives it, else https.
            url = labelled.group(1)
            if url.startswith("/"):
                if url.rstrip("/"):  # "/" alone says nothing
                    counts[url.rstrip("/")] = counts.get(url.rstrip("/"), 0) + 1
                continue
            url = url if "://" in url else f"{scheme}://{url}"
            counts[url.rstrip("/")] = counts.get(url.rstrip("/"), 0) + 1
            continue
        if block.kind == "table" and (url := _host_and_base_path(block)):
            counts[url] = counts.get(url, 0) + 1
            continue
        if block.kind == "table":
            # A servers table ("Servers" heading above it, or a "URL" column): its cells that are URLs.
            heading = blocks[i - 1].text.lower() if i and blocks[i - 1].kind == "heading" else ""
            columns = " ".join(block.rows[0]).lower() if block.header and block.rows else ""
            if _SERVER_LABEL.search(heading) or re.search(r"\burl\b", columns):
                for cell in (c for row in block.rows[1 if block.header else 0 :] for c in row):
                    if _TEMPLATED_SCHEME.match(cell):  # "{scheme}://host/base": the scheme the page names, else https
                        cell = _SCHEME.sub(f"{scheme}://", cell.strip(), count=1)
                    if _BARE_URL.match(cell):
                        counts[cell.strip().rstrip("/")] = counts.get(cell.strip().rstrip("/"), 0) + 1
            continue
        before = blocks[i - 1].text.lower() if i and blocks[i - 1].kind in ("text", "heading") else ""
        if block.kind == "code":  # a URL alone in a code block under a server label ("API Endpoint")
            url = block.text.strip()
            if _BARE_URL.match(url) and _SERVER_LABEL.search(before) and len(before) < 80:
                counts[url.rstrip("/")] = counts.get(url.rstrip("/"), 0) + 1
            continue
        if block.kind != "text":
            continue
        said = _BASE_IS.search(block.text[:5000])  # "The base URI for all requests is https://…/v1."
        if said:
            url = said.group(1).rstrip(".,;:)").rstrip("/")
            counts[url] = counts.get(url, 0) + 1
            continue
        relative = _RELATIVE_TO.search(block.text) if len(block.text) < 300 else None
        if relative:  # "All URIs are relative to https://petstore.example/v2"
            counts[relative.group(1).rstrip("/")] = counts.get(relative.group(1).rstrip("/"), 0) + 1
            continue
        requested = _WORDS_THEN_URL.match(block.text) if len(block.text) < 300 else None
        shown_url = requested.group(1) if requested else ""
        if _SCHEME.match(shown_url) is None or shown_url.startswith("{"):  # as the page's "Schemes" line says
            shown_url = f"{scheme}://{_SCHEME.sub('', shown_url, count=1)}"
        if requested and (url := _less_template(shown_url, templates, patterns)):
            counts[url] = counts.get(url, 0) + 1  # "Production server https://host/v1/pets/{id}"
            continue
        shown = _URL_THEN_PATH.match(block.text)
        if shown and shown.group(2) in templates:
            url = shown.group(1).rstrip("/")
            counts[url] = counts.get(url, 0) + 1
            continue
        if (listed := _listed_server(blocks, i)) is not None:
            url = listed if not listed.startswith("{") else _SCHEME.sub(f"{scheme}://", listed, 1)
            counts[url] = counts.get(url, 0) + 1
            continue
        if (paired := _one_server_two_schemes(block.text)) and _SERVER_LABEL.search(before) and len(before) < 80:
            counts[paired] = counts.get(paired, 0) + 1  # "Base URL", then "http://host/v1 https://host/v1"
            continue
        described = _URL_THEN_WORDS.match(block.text)  # "https://api.example.com/v1 - Production"
        if not _BARE_URL.match(block.text) and not described:
            continue
        url = (described.group(1) if described else block.text).strip().rstrip("/")
        after = blocks[i + 1].text.strip() if blocks[i + 1].kind == "text" else ""
        # A URL alone right under the page's title (the API's name, then where it lives) is its base URI.
        under_title = i - 1 == title and not described
        if after in templates or (_SERVER_LABEL.search(before) and len(before) < 80) or under_title:
            counts[url] = counts.get(url, 0) + 1
    return sorted(counts, key=lambda u: (-counts[u], u))


# A server's URL under a label of its own ("url: https://api.example.com/v1", as OpenAPI's Server object
# names it), and a server's other attributes so ("description: Production server").
_URL_LABEL = re.compile(r"\s*url\s*:\s*", re.I)
_ATTRIBUTE_RUN = re.compile(r"\s*[a-z][\w ]{0,30}:\s+\S.{0,100}", re.I)


def _listed_server(blocks: list[Block], i: int) -> str | None:
    """The server URL a run lists under a server label: the run is a URL, alone or with a few words
    after it, or a URL labelled "url:", and so is every run between it and the nearest heading, which
    names servers ("Servers", "Server information"), or a server's attribute ("description: Production")."""
    shown = _URL_LABEL.sub("", blocks[i].text, count=1) if _URL_LABEL.match(blocks[i].text) else blocks[i].text
    listed = _LISTED_SERVER.match(shown) if len(shown) < 200 else None
    if listed is None:
        return None
    k = i - 1
    while k >= 0 and blocks[k].kind == "text" and i - k < 10 and _listed_or_attribute(blocks[k].text):
        k -= 1
    if k < 0 or blocks[k].kind != "heading" or len(blocks[k].text) >= 80:
        return None
    return listed.group(1).rstrip("/") if _SERVER_LABEL.search(blocks[k].text.lower()) else None


def _one_server_two_schemes(text: str) -> str | None:
    """The server a run shows as the same host and base path under several schemes ("http://host/v1
    https://host/v1", each a link, as Swagger 2's `schemes` lists them): the https one, else the first; None
    for any other run (two different servers are no one server). Since issue 17's twenty-seventh round."""
    urls = text.split()
    if not 2 <= len(urls) <= 4 or not all(_BARE_URL.match(url) for url in urls):
        return None
    if len({_SCHEME.sub("", url, count=1).rstrip("/") for url in urls}) != 1:
        return None
    return next((u for u in urls if u.lower().startswith("https://")), urls[0]).rstrip("/")


def _listed_or_attribute(text: str) -> bool:
    """A run listing a server's URL, alone or labelled "url:", or stating one of its attributes."""
    return _LISTED_SERVER.match(text) is not None or _ATTRIBUTE_RUN.fullmatch(text) is not None
