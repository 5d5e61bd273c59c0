"""Request lines on a page and the operations they name.

A request shows itself as a `METHOD /path` run or heading, a method badge followed by a path, a
request line alone in a code block, a cURL command or a raw HTTP request. A full URL names the
operation whose documented template covers most of its end; the rest of it is a server.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import (
    RequestSample,
    is_method,
    is_path,
    parse_curl,
    parse_http,
    parse_named_signature,
    parse_repeated_signature,
    parse_signature,
    parse_titled_signature,
    split_url,
)
from openapi_rag.crawl.servers import template_pattern, template_start

# A base URL alone in a run; its scheme may be a server variable ("{scheme}://api.example.com/v1").
_SERVER_RUN = re.compile(r"(?:https?|\{\w+\})://[^\s/]+(?:/\S*)?", re.I)


@dataclass
class Signature:
    position: int
    method: str
    url: str
    sample: RequestSample | None = None
    width: int = 1  # blocks it spans (a method badge and its path are two)
    template: str = ""  # the path, where the page draws it apart from the server's base URL


def find_signatures(blocks: list[Block]) -> list[Signature]:
    found = []
    for i, block in enumerate(blocks):
        if block.kind == "code":
            sample = parse_curl(block.text) or parse_http(block.text)
            if sample is not None:
                found.append(Signature(i, sample.method, sample.url, sample))
            elif signature := parse_signature(block.text.strip()):  # `<pre>get /pets</pre>`
                found.append(Signature(i, *signature))
        elif block.kind in ("text", "heading"):  # "GET /pets/{id}" may head its own section
            if block.kind == "heading" and (
                titled := parse_titled_signature(block.text) or parse_repeated_signature(block.text)
            ):  # "GET /pets/{id} Get a pet", "GET /pets /pets": a request line, then the operation's title
                found.append(Signature(i, titled[0], titled[1], _template_sample(titled[0], titled[1])))
                continue
            signature = parse_signature(block.text)
            if signature is not None:
                found.append(Signature(i, *signature, _template_sample(*signature)))
                continue
            if block.kind == "heading" and (named := parse_named_signature(block.text)):
                found.append(Signature(i, named[0], named[1], _template_sample(named[0], named[1])))
                continue
            if around := _line_around_title(blocks, i):
                found.append(Signature(i, *around, _template_sample(*around), width=2))
                continue
            if labelled := _labelled_request_line(blocks, i):
                found.append(Signature(i, *labelled, _template_sample(*labelled), width=2))
                continue
            if under := _method_under_path(blocks, i):
                found.append(Signature(i, *under))
                continue
            method = is_method(block.text)
            boxed = method or _labelled_method(block.text)  # "Method: GET" heads a URL box, no bare path
            if boxed and i + 1 < len(blocks) and url_block(blocks[i + 1]):
                # a method badge over a code block that shows only the request's URL, a box to copy it from
                # ("GET", then `https://api.example.com/v1/pets`): one request line drawn in two pieces; the
                # method may be stated after a label ("Method: GET") as a heading or a run
                url = blocks[i + 1].text.strip()  # its query string names query parameters
                found.append(Signature(i, boxed, url, _template_sample(boxed, url), width=2))
                continue
            if method and i + 1 < len(blocks) and blocks[i + 1].kind == "text":
                if drawn := _server_then_path(blocks[i + 1 : i + 3]):
                    path = is_path(blocks[i + 2].text) or ""
                    found.append(Signature(i, method, drawn, width=3, template=path))
                    continue
                if joined := _server_and_path(blocks[i + 1].text):
                    found.append(Signature(i, method, joined[0], width=2, template=joined[1]))
                    continue
                path = is_path(blocks[i + 1].text)
                if path:
                    found.append(Signature(i, method, path, width=2))
    return found


def _line_around_title(blocks: list[Block], i: int) -> tuple[str, str] | None:
    """(method, path) where a heading stands between a method badge alone and a path alone ("GET", the h3
    "findPets", "/pets/{id}"): an operation's header drawing its request line around its title. The line
    stands at the heading, so the title's section, the operation's part, holds it."""
    if blocks[i].kind != "heading" or not 0 < i < len(blocks) - 1:
        return None
    before, after = blocks[i - 1], blocks[i + 1]
    if before.kind != "text" or after.kind != "text" or not (method := is_method(before.text)):
        return None
    path = _bare_path(after.text)
    return (method, path) if path else None


def _method_under_path(blocks: list[Block], i: int) -> tuple[str, str] | None:
    """(method, path) where a heading holds an HTTP method alone, in any case ("get"), and the nearest heading
    above it at a shallower level holds a path template alone ("/pets"): a path's section whose methods each
    head a section of their own, one operation apiece, whose description and parameters that section holds."""
    if blocks[i].kind != "heading" or not (method := is_method(blocks[i].text)):
        return None
    level = blocks[i].level
    for k in range(i - 1, -1, -1):  # by index: a page of many method headings is not copied for each
        if blocks[k].kind == "heading" and blocks[k].level < level:
            path = _bare_path(blocks[k].text)
            return (method, path) if path else None
    return None


def _bare_path(text: str) -> str | None:
    """The path template a run holds alone, with no server before it ("/pets/{id}", not a whole URL)."""
    path = is_path(text)
    return path if path and not split_url(path)[0] else None


# "Method: GET", "HTTP method: post", "Verb: DELETE": a run that states an operation's method after a label;
# "Path: /pets/{id}", "Endpoint: /pets", "URL: https://api.example.com/v1/pets": one that states its path.
_METHOD_LABEL = re.compile(r"^\s*(?:http\s+)?(?:method|verb)\s*:\s*(\w+)\s*$", re.I)
_PATH_LABEL = re.compile(r"^\s*(?:path|endpoint|route|url)\s*:\s*(\S.*?)\s*$", re.I)


def _labelled_method(text: str) -> str | None:
    """The method a run states after a label ("Method: GET", "HTTP method: post")."""
    named = _METHOD_LABEL.match(text)
    return is_method(named.group(1)) if named else None


def _labelled_request_line(blocks: list[Block], i: int) -> tuple[str, str] | None:
    """(method, path) where a run states the method after a label and the next run the path after one
    ("Method: GET", then "Path: /energy-patterns": an operation's facts listed as labelled fields): one
    request line drawn as two fields (under a heading that is the same line, "GET /pets", one more line of
    the same operation)."""
    if i + 1 >= len(blocks) or blocks[i + 1].kind != "text":
        return None
    method, drawn = _labelled_method(blocks[i].text), _PATH_LABEL.match(blocks[i + 1].text)
    if not method or not drawn:
        return None
    url = drawn.group(1)
    path = is_path(url) or (url if _SERVER_RUN.fullmatch(url) else None)
    return (method, "".join(path.split())) if path else None


def url_block(block: Block) -> bool:
    """A code block the page shows (not a text area a reader writes in) holding one URL or path alone (its
    scheme perhaps a server variable, "{scheme}://api.example.com/v1/pets")."""
    text = block.text.strip()
    return block.kind == "code" and not block.editable and bool(is_path(text) or _SERVER_RUN.fullmatch(text))


def _server_then_path(after: list[Block]) -> str | None:
    """The URL a method badge's next two runs draw when the first is the server's base URL alone and
    the second the path template alone ("GET", "https://api.example.com/v2", "/pets"): one request
    line drawn in three pieces, whose server keeps its base path ("/v2"), never a path of its own."""
    if len(after) < 2 or any(block.kind != "text" for block in after):
        return None
    server, path = _SERVER_RUN.fullmatch(after[0].text.strip()), is_path(after[1].text)
    if not server or not path or split_url(path)[0]:
        return None
    return server.group(0).rstrip("/") + path


def _server_and_path(text: str) -> tuple[str, str] | None:
    """(URL, path) of a method badge's next run when it is the server's base URL and the path template,
    drawn as two elements, so the run has a space between them ("https://api.example.com/v2 /pets"):
    one request line whose path is the template and whose base URL is the server."""
    pieces = text.split()
    if len(pieces) < 2 or len(text) >= 500:
        return None
    server, path = _SERVER_RUN.fullmatch(pieces[0]), is_path(" ".join(pieces[1:]))
    if not server or not path or split_url(path)[0]:
        return None
    return server.group(0).rstrip("/") + path, path


def _template_sample(method: str, url: str) -> RequestSample | None:
    """A URI template's query expansion ("/pets{?tags,limit}"), or the query string of a URL the page shows as the
    request line, names the query parameters as a sample URL's query string would."""
    return RequestSample(method, url, source="template") if split_url(url)[2] else None


def operation_keys(
    signatures: list[Signature], headed: Collection[str]
) -> tuple[list[str], list[tuple[Signature, tuple[str, str]]]]:
    """(servers, each signature with its operation key): full URLs lose the server part."""
    templates = {(s.method, split_url(s.url)[1]) for s in signatures if split_url(s.url)[0] == ""}
    templates |= {("", t) for t in headed}  # any method
    # A path drawn apart from its server ("https://api.example.com/v2", then "/pets") is the template.
    templates |= {(s.method, split_url(s.template)[1]) for s in signatures if s.template}
    patterns = {t: template_pattern(t) for _, t in templates}  # compiled once per page
    servers: dict[str, int] = {}
    keyed: list[tuple[Signature, tuple[str, str]]] = []
    bases: list[str] = []  # each signature's base URL ("" for a path alone)
    untemplated: list[int] = []  # full URLs that no documented template split
    for sig in signatures:
        server, path, _ = split_url(sig.url)
        key = (sig.method, path)
        if server:
            # The documented template that covers most of the URL's end names the operation (a sample
            # URL may fill a template's parameters with example values); the rest is the server. Of two
            # covering the same part, the literal one ("/movie/top_rated" over "/movie/{movie_id}"),
            # as OpenAPI matches concrete paths before templated ones.
            ends = (
                (t, start)
                for m, t in templates
                if m in (sig.method, "") and (t != "/" or path != "/")
                if (start := template_start(path, t, patterns[t])) is not None
            )
            best = max(
                ends, key=lambda found: (-found[1], path.endswith(found[0]), len(found[0])), default=None
            )
            if best is not None:
                base = server + path[: best[1]]
                key = (sig.method, best[0])
            else:
                untemplated.append(len(keyed))
                base = server
            bases.append(base.rstrip("/"))
        else:
            bases.append("")
        keyed.append((sig, key))
    for index, base in _based(keyed, untemplated, set(bases)).items():
        sig, (method, path) = keyed[index]
        keyed[index] = (sig, (method, path[len(base) - len(split_url(base)[0]) :] or "/"))
        bases[index] = base
    for base in filter(None, bases):
        servers[base] = servers.get(base, 0) + 1
    ordered = sorted(servers, key=lambda s: (-servers[s], s))
    return ordered, keyed


# A path segment that versions an API ("v1", "v2.1", "3", "1.0"): what a base URL ends with.
_VERSION_SEGMENT = re.compile(r"v?\d+(?:\.\d+)*", re.I)


def _based(keyed: list[tuple[Signature, tuple[str, str]]], untemplated: list[int], known: set[str]) -> dict[int, str]:
    """The base URL of each full request URL that no documented template split (index -> base URL): one
    the page shows for another URL of the same host that this one lies under ("https://api.example.com/v3",
    where a template split "https://api.example.com/v3/autocomplete"), else the host and the segments that
    lead every such URL of the host up to the last that names a version ("/v1/pets", "/v1/pets/{id}";
    "/svc/books/v3/lists.json", "/svc/books/v3/reviews.json"): APIs version their base URL. A URL with
    neither keeps its whole path."""
    out: dict[int, str] = {}
    alone: dict[str, list[int]] = {}
    for index in untemplated:
        url = keyed[index][0].url
        server, path, _ = split_url(url)
        under = [b for b in known if split_url(b)[0] == server and path.startswith(split_url(b)[1].rstrip("/") + "/")]
        under = [b for b in under if split_url(b)[1] not in ("", "/")]
        if under:
            out[index] = max(under, key=len)
        else:
            alone.setdefault(server, []).append(index)
    for server, indexes in alone.items():
        paths = {split_url(keyed[i][0].url)[1] for i in indexes}
        if len(paths) > 1 and (prefix := _versioned_prefix(paths)):
            out.update((i, server + prefix) for i in indexes)
    return out


def _versioned_prefix(paths: set[str]) -> str:
    """The leading segments every path shares (never a path's last one), up to the last that names a
    version ("/svc/books/v3"); "" when none does."""
    dirs = [path.strip("/").split("/")[:-1] for path in paths]
    shared = []
    for segments in zip(*dirs, strict=False):  # as far as the shortest
        if len(set(segments)) != 1:
            break
        shared.append(segments[0])
    versions = [i for i, segment in enumerate(shared) if _VERSION_SEGMENT.fullmatch(segment)]
    return "/" + "/".join(shared[: versions[-1] + 1]) if versions else ""


def table_signatures(blocks: list[Block]) -> list[Signature]:
    """A table of operations names each in a row: one cell a request line ("POST /pets"), another the
    operation's name ("addPet"). Where a heading reads as that name, the operation's own section
    starts there, so its request stands at that heading (a generated reference may show the request
    line only in such a table, the section under it holding the parameters). A row that no heading
    names adds nothing: the table alone is a list, with no part of the page to pair."""
    headings: dict[str, int] = {}
    for block in blocks:
        if block.kind == "heading":
            headings.setdefault(block.text.strip(), block.position)
    found: dict[tuple[int, str, str], Signature] = {}
    for block in blocks:
        if block.kind != "table" or not headings:
            continue
        rows = block.rows[1:] if block.header else block.rows
        # A name that several rows share in its column is a group's ("PetApi", the tag), not an operation's.
        shared = Counter((column, cell.strip()) for row in rows for column, cell in enumerate(row))
        for row in rows:
            lines = [signature for cell in row if (signature := parse_signature(cell))]
            if len(lines) != 1:
                continue
            named = [
                headings[cell.strip()]
                for column, cell in enumerate(row)
                if cell.strip() in headings and shared[column, cell.strip()] == 1
            ]
            if named:
                found.setdefault((named[0], *lines[0]), Signature(named[0], *lines[0]))
    return list(found.values())
