"""Request samples in a page: cURL commands, raw HTTP requests, `METHOD /path` lines, JSON blocks.

Each parser takes text and returns a plain record or None; none of them raises on odd input.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE")
MAX_SAMPLE_CHARS = 100_000
MAX_JSON_CHARS = 2_000_000

_METHOD = "|".join(METHODS)
# "GET /pets/{id}" or "GET https://api.example.com/v1/pets" standing alone in a short run of text;
# the method may sit in brackets or take a colon ("[GET]/pets", "(GET) /pets", "GET: /pets"), and the
# path may be drawn as separate segments ("/pets /{id}"), a template variable in an element of its own too
# ("/lists. {format}": inline elements leave a space between them).
_SIGNATURE = re.compile(
    rf"^\s*(?:\[({_METHOD})\]|\(({_METHOD})\)|({_METHOD}):?(?=\s))\s*((?:https?://[^\s/]+)?/[^\s]*(?:\s+(?:/|\{{[\w?&])[^\s]*)*)\s*$",
    re.I,
)
# "List pets GET /pets": one heading that names the operation, then shows its request line (a summary
# and a method badge beside the path). The method in capitals, as a badge prints it, never prose's "get".
_NAMED_SIGNATURE = re.compile(rf"^\s*(\S.{{0,150}}?)\s+({_METHOD})\s+((?:https?://[^\s/]+)?/\S*)\s*$")
# "GET /pets/{id} Get a pet": one heading that shows its request line, then names the operation (the method in
# capitals, as a badge prints it; the summary a run of its own after the path, nothing between). The title
# starts with neither a slash nor a brace, which would continue a path drawn in pieces ("/pets /{id}").
_TITLED_SIGNATURE = re.compile(
    rf"^\s*({_METHOD})\s+((?:https?://[^\s/]+)?/[^\s]*(?:\s+(?:/|\{{[\w?&])[^\s]*)*)\s+(?![/{{])(\S.{{0,150}}?)\s*$"
)
# RFC 6570's form-style query expansion in a URI template ("/pets{?tags,limit}", "{&page}"): query
# parameters, not part of the path.
_QUERY_EXPANSION = re.compile(r"\{[?&]([^}]*)\}")
# A piece of a path drawn apart: a segment ("/{id}") or a template variable ("{format}"), not a "{}" body.
_PATH_PIECE = re.compile(r"/|\{[\w?&]")
_PATH_ONLY = re.compile(r"^\s*(/[^\s]*|https?://[^\s]+)\s*$")
_HTTP_LINE = re.compile(rf"^\s*({_METHOD})\s+(\S+)\s+HTTP/\d(?:\.\d)?\s*$", re.I | re.M)
_HTTP_STATUS = re.compile(r"^\s*HTTP/\d(?:\.\d)?\s+([1-5]\d\d)\b[^\n]*", re.I)
_SCHEME_VARIABLE = re.compile(r"^{[^}]*}://")
_COLON_PARAM = re.compile(r"/:([A-Za-z_][\w-]*)")
_ANGLE_PARAM = re.compile(r"/<([A-Za-z_][\w-]*)>")
# A variable standing for the server's base URL before a path, as API clients write their environments'
# variables ("{{baseUrl}}/pets/:id", "${BASE_URL}/pets"): the server, which such a page does not show, then
# the path. A double-braced variable inside the path ("/configuration{{extension}}") is a template variable.
_BASE_VARIABLE = re.compile(r"^\s*(?:\{\{\s*[A-Za-z_][\w.-]*\s*\}\}|\$\{[A-Za-z_][\w.-]*\})(?=/)")
_DOUBLE_BRACED = re.compile(r"\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}")
# A URL whose query string is long (a request line showing a value for each of many query parameters), one
# piece of no space with a short path before its "?": a URL all the same, where other text that long is none.
_LONG_QUERY_URL = re.compile(r"\s*[^\s?]{1,499}\?\S{1,10000}\s*")


@dataclass
class RequestSample:
    """What one request sample says about its operation."""

    method: str
    url: str  # as written: a full URL or a path
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None  # parsed JSON body, when there is one
    form: list[str] = field(default_factory=list)  # form field names (-F / --data-urlencode)
    user: bool = False  # -u user:password (basic auth)
    source: str = "curl"


def split_url(url: str) -> tuple[str, str, list[str]]:
    """(server "scheme://host" or "", path template, query names) of a URL or path."""
    url = url.strip().strip("'\"")
    url = _SCHEME_VARIABLE.sub("https://", url)  # "{scheme}://host": a server variable, not a path
    url = _DOUBLE_BRACED.sub(r"{\1}", _BASE_VARIABLE.sub("", url))  # "{{baseUrl}}/pets": a path
    expanded = [
        unquote(name.split(":")[0].rstrip("*").strip())  # "tags*", "q:3": modifiers; "%2d" a "-"
        for names in _QUERY_EXPANSION.findall(url)
        for name in names.split(",")
    ]
    url = _QUERY_EXPANSION.sub("", url)
    parts = urlsplit(url)
    server = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    path = unquote(parts.path) or "/"
    path = _COLON_PARAM.sub(r"/{\1}", path)
    path = _ANGLE_PARAM.sub(r"/{\1}", path)
    query = [name for name, _ in parse_qsl(parts.query, keep_blank_values=True) if name]
    return server, path, query + [name for name in expanded if name and name not in query]


def query_values(url: str) -> dict[str, str]:
    """Each query parameter's value as a sample URL shows it (the first where a name repeats)."""
    values: dict[str, str] = {}
    for name, value in parse_qsl(urlsplit(url.strip().strip("'\"")).query, keep_blank_values=True):
        values.setdefault(name, value)
    return values


def documented_colons(path: str, names: list[str]) -> str:
    """The path with each `:name` inside a segment ("/lists.:format", "/configuration:extension") as
    `{name}` where the operation documents a path parameter of that name: a renderer that writes
    templates as `:name` glues it to the segment's text. Undocumented, such a colon is part of the path
    (Google-style custom methods, "/v1/things/{id}:undelete")."""
    for name in sorted(set(names), key=len, reverse=True):
        path = re.sub(rf"(?<=[^/{{]):{re.escape(name)}(?![\w-])", "{" + name + "}", path)
    return path


def parse_signature(text: str) -> tuple[str, str] | None:
    """`("GET", "/pets/{id}")` for a run of text that is only a method and a path or URL."""
    if len(_QUERY_EXPANSION.sub("", text)) > 500:  # a long list of query names is no sentence
        return None
    match = _SIGNATURE.match(text)
    if match is None:
        return _drawn_url(text)
    method = match.group(1) or match.group(2) or match.group(3)
    return method.upper(), "".join(match.group(4).split())  # "/pets /{id}": segments drawn apart


def _drawn_url(text: str) -> tuple[str, str] | None:
    """A method and a URL drawn in pieces, each an element of its own ("GET https://api.example.com
    /v1/alerts/ id ? page= & limit=": host, path, a parameter's example value, query names): one URL,
    when each piece continues the URL (starts with "/", "?", "&", "=", "#", or follows a piece that
    ends with one), so a sentence after a URL is never taken in."""
    pieces = text.split()
    if len(pieces) < 3 or not re.fullmatch(rf"{_METHOD}", pieces[0]) or not re.match(r"https?://", pieces[1]):
        return None
    for before, piece in zip(pieces[1:], pieces[2:], strict=False):
        if not (piece[0] in "/?&=#" or before[-1] in "/?&="):
            return None
    return pieces[0], "".join(pieces[1:])


def parse_named_signature(text: str) -> tuple[str, str, str] | None:
    """`("GET", "/pets", "List pets")` for a heading that is an operation's name and then its request
    line; None for a request line alone (parse_signature's) or anything else."""
    if len(_QUERY_EXPANSION.sub("", text)) > 300 or parse_signature(text) is not None:
        return None
    match = _NAMED_SIGNATURE.match(text)
    if match is None or parse_signature(match.group(1)) is not None:
        return None
    return match.group(2), match.group(3), match.group(1).strip()


def parse_titled_signature(text: str) -> tuple[str, str, str] | None:
    """`("GET", "/pets/{id}", "Get a pet")` for a heading that is a request line and then the operation's name
    ("GET /pets/{id} Get a pet"); None for a request line alone (parse_signature's), a name then a request line
    (parse_named_signature's), or a title with no letter in it."""
    if len(_QUERY_EXPANSION.sub("", text)) > 300 or parse_signature(text) is not None:
        return None
    match = _TITLED_SIGNATURE.match(text)
    if match is None or not re.search(r"[A-Za-z]", match.group(3)):
        return None
    return match.group(1), "".join(match.group(2).split()), match.group(3).strip()


def parse_repeated_signature(text: str) -> tuple[str, str, str] | None:
    """`("GET", "/pets", "/pets")` for a heading that is a request line and then a title that is a path, apart
    ("GET /pets /pets": a renderer printing the path, or one like it, as the operation's title where it has no
    summary): the path drawn twice, or two paths of several segments each ("GET /transactions/delivery/search
    /transactions/search"; a path drawn in pieces splits at one segment, "/pets /{id}"). One path, never the
    two joined."""
    match = _SIGNATURE.match(text)
    if match is None or not match.group(3) or not match.group(3).isupper():
        return None
    pieces = match.group(4).split()
    if len(pieces) != 2 or split_url(pieces[0])[0] or split_url(pieces[1])[0]:
        return None
    if pieces[0] != pieces[1] and (
        pieces[1].startswith("/{") or not all(piece.strip("/").count("/") >= 1 for piece in pieces)
    ):
        return None
    return match.group(3), pieces[0], pieces[1]


def is_method(text: str) -> str | None:
    """The method a lone word names ("get", "DELETE"); badges often split method and path."""
    word = text.strip().upper()
    return word if word in METHODS else None


def is_path(text: str) -> str | None:
    """The path a lone run of text shows; a path drawn as separate segments ("/pets /{id}": each an
    element of its own, so the page's text has a space between them) is one path, and so is one whose
    slashes are drawn apart from its segments ("/ pets / {id}"): each piece starts a segment or a
    template variable, or follows a piece that ends with a slash."""
    if len(text) >= 500 and not _LONG_QUERY_URL.fullmatch(text):
        return None
    text = _BASE_VARIABLE.sub("", text)  # "{{baseUrl}}/pets": the path after the server's variable
    pieces = text.split()
    if (
        len(pieces) > 1
        and pieces[0].startswith("/")
        and all(
            _PATH_PIECE.match(piece) or before.endswith("/")
            for before, piece in zip(pieces, pieces[1:], strict=False)
        )
    ):
        text = "".join(pieces)
    match = _PATH_ONLY.match(text)
    return match.group(1) if match else None


def parse_curl(text: str) -> RequestSample | None:
    """The request a cURL command makes (line continuations and quoting as a shell reads them)."""
    text = text[:MAX_SAMPLE_CHARS]
    start = re.search(r"(?m)^\s*(?:\$\s*)?curl\b", text)
    if start is None:
        return None
    command = re.sub(r"\\\r?\n", " ", text[start.start() :])
    command = command.split("\n\n")[0]
    try:
        words = shlex.split(command, comments=False)
    except ValueError:
        words = command.split()
    method = ""
    url = ""
    headers: dict[str, str] = {}
    data: list[str] = []
    form: list[str] = []
    user = False
    i = 1
    while i < len(words):
        word = words[i]
        value = words[i + 1] if i + 1 < len(words) else ""
        if word in ("-X", "--request"):
            method, i = value.upper(), i + 2
        elif word.startswith("-X") and len(word) > 2:
            method, i = word[2:].upper(), i + 1
        elif word in ("-H", "--header"):
            name, _, val = value.partition(":")
            if name.strip():
                headers[name.strip()] = val.strip()
            i += 2
        elif word in ("-d", "--data", "--data-raw", "--data-binary", "--json"):
            data.append(value)
            i += 2
        elif word in ("-F", "--form", "--data-urlencode"):
            form.append(value.split("=", 1)[0])
            i += 2
        elif word in ("-u", "--user"):
            user, i = True, i + 2
        elif word == "--url":
            url, i = value, i + 2
        elif word.startswith("-"):
            i += 1
        else:
            if not url and ("/" in word or word.startswith("http")):
                url = word
            i += 1
    if not url:
        return None
    if not method:
        method = "POST" if data or form else "GET"
    if method not in METHODS:
        return None
    body = None
    for chunk in data:
        body = parse_json(chunk)
        if body is not None:
            break
        if "=" in chunk and "{" not in chunk:
            form.extend(name for name, _ in parse_qsl(chunk) if name)
    return RequestSample(method, url, headers, body, form, user, "curl")


def parse_http(text: str) -> RequestSample | None:
    """A raw HTTP request: request line, headers, blank line, body."""
    text = text[:MAX_SAMPLE_CHARS]
    match = _HTTP_LINE.search(text)
    if match is None:
        return None
    rest = text[match.end() :].lstrip("\r\n")
    head, _, body_text = rest.partition("\n\n")
    headers = {}
    for line in head.splitlines():
        name, sep, val = line.partition(":")
        if sep and re.fullmatch(r"[A-Za-z0-9-]+", name.strip()):
            headers[name.strip()] = val.strip()
    url = match.group(2)
    host = headers.get("Host")
    if url.startswith("/") and host:
        url = f"https://{host}{url}"
    return RequestSample(match.group(1).upper(), url, headers, parse_json(body_text.strip()), source="http")


def parse_http_response(text: str) -> tuple[str, Any] | None:
    """(status, JSON body) of a raw HTTP response shown as an example: status line, headers, blank
    line, body; None when the text is no such response or its body is not JSON."""
    match = _HTTP_STATUS.match(text[:MAX_SAMPLE_CHARS])
    if match is None:
        return None
    _, blank, body = text[match.end() :].replace("\r\n", "\n").partition("\n\n")
    value = parse_json(body) if blank else None
    return (match.group(1), value) if value is not None else None


# A comment after a JSON token (a member's description), on its line or on lines of its own below it, to its
# close: '"id": "string", /* The id. */'.
_CLOSING_COMMENT = re.compile(r'(["\d\]\[{},el])\s*/\*.*?\*/[ \t]*', re.S)
# A member's line ending in a value with no comma, the next line opening a member: '"tag": "string"' then
# '"id": "int64"'.
_MISSING_COMMA = re.compile(r'(?m)("|\d|true|false|null|[}\]])[ \t]*(\n[ \t]*"[^"\n]*"[ \t]*:)')


# A JSON media type alone on the first line, the example below it: "application/json" then "{".
_MEDIA_TYPE_LINE = re.compile(r"(?:application|text)/[\w.+-]*json[ \t]*\r?\n\s*(?=[{\[])", re.I)


def parse_json(text: str) -> Any:
    """A JSON value, or None: the text must be an object or array (a lone "0" is no example)."""
    text = text.strip()
    if (labelled := _MEDIA_TYPE_LINE.match(text)) is not None:
        text = text[labelled.end() :]  # the example's media type on a line of its own above it (since issue 17's
        # twenty-second round: a code block of the media type holding the example's own code block)
    if not text or text[0] not in "{[" or len(text) > MAX_JSON_CHARS:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        # Documentation often elides with "..." or leaves trailing commas: one lenient retry. Since issue 17's
        # twenty-second round, also a member's description as a comment after it ('"id": "string",
        # /* The id. */', on one line or more) and a comma left out between two members' lines (a template
        # that joins two schemas' fields, an allOf's, drops the one between them).
        cleaned = re.sub(r"(?m)^\s*(//.*|\.\.\.|…)\s*$", "", text)
        cleaned = _CLOSING_COMMENT.sub(r"\1", cleaned)
        cleaned = _MISSING_COMMA.sub(r"\1,\2", cleaned)
        cleaned = re.sub(r",\s*([}\]])", r"\1", cleaned)
        try:
            value = json.loads(cleaned)
        except (ValueError, RecursionError):
            return None
    return value if isinstance(value, dict | list) else None


# An XML example's root may be any name but one of HTML's (a page's HTML snippet is no example).
_HTML_ROOTS = frozenset(
    "html head body div span p a ul ol li dl dt dd table thead tbody tr td th form input button select option "
    "label script style meta link img pre code section article nav header footer iframe svg br hr h1 h2 h3 h4 "
    "h5 h6 em strong b i".split()
)
_XML_DEPTH = 32


def parse_xml(text: str) -> dict[str, Any] | None:
    """An XML example as the JSON value of the same fields, or None: the root element's attributes and
    child elements are its fields (a child repeated is a list), an element without children its text.
    The root itself is the schema's name, no field ('<application><sid>string</sid></application>' →
    {"sid": "string"}). Only text with an XML declaration, or one root element that is no HTML tag and
    holds child elements, is read; parsed with lxml without entities, DTDs or network (a page's
    stranger-written XML must not expand or fetch anything)."""
    text = text.strip()
    if not text.startswith("<") or len(text) > MAX_JSON_CHARS:
        return None
    try:
        from lxml import etree
    except ImportError:  # the `crawl` extra is not installed: no XML examples
        return None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    try:
        root = etree.fromstring(text.encode("utf-8"), parser=parser)
    except (etree.XMLSyntaxError, ValueError):
        return None
    children = [child for child in root if isinstance(child.tag, str)]
    declared = text.startswith("<?xml")
    if not declared and (_local(root.tag).lower() in _HTML_ROOTS or not children):
        return None
    value = _xml_value(root, 0)
    return value if isinstance(value, dict) and value else None


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]  # "{namespace}name" -> "name"


def _xml_value(element: Any, depth: int) -> Any:
    children = [child for child in element if isinstance(child.tag, str)]  # no comments or instructions
    if not children and not element.attrib:
        return _xml_scalar((element.text or "").strip())
    if depth >= _XML_DEPTH:
        return {}
    out: dict[str, Any] = {_local(str(name)): _xml_scalar(value) for name, value in element.attrib.items()}
    for child in children:
        name, value = _local(child.tag), _xml_value(child, depth + 1)
        if name in out:
            out[name] = [*out[name], value] if isinstance(out[name], list) else [out[name], value]
        else:
            out[name] = value
    return out


_XML_INTEGER = re.compile(r"-?\d{1,18}")
_XML_NUMBER = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")


def _xml_scalar(text: str) -> Any:
    """An element's text as the JSON scalar it writes (XML has no types: "0" is an integer, "true" a
    boolean, as the same example in JSON would be; anything else stays text)."""
    if _XML_INTEGER.fullmatch(text):
        return int(text)
    if _XML_NUMBER.fullmatch(text):
        return float(text)
    return {"true": True, "false": False}.get(text, text)


def parse_example(text: str) -> Any:
    """A code block's example: its JSON value (`parse_json`), else its XML's (`parse_xml`), else None."""
    value = parse_json(text)
    return value if value is not None else parse_xml(text)
