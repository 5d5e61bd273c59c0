"""What the words before a block say about it: its label, kind (request, response, param), status
and location, as a reader takes them from the nearest headings and short runs.
"""

from __future__ import annotations

import re

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import is_path, parse_curl, parse_json, parse_signature
from openapi_rag.crawl.tables import is_status_table

_STATUS_WORD = re.compile(r"\b([1-5]\d\d)\b")
_STATUS_ONLY = re.compile(r"[1-5]\d\d(?:\s+[a-z'-]+){0,4}")  # "200", "404 not found"
_TAB = re.compile(r"(?:status:?\s*)?([1-5]\d\d|default)")
# "Return type", "Returns", "Return value:" as a label of its own: what a successful call gives back.
_RETURNS = re.compile(r"returns?(?:\s+(?:type|value))?:?")
# What a piece says is a status's ("Headers for 302:", "Headers of the 200 response"): a response's part.
_FOR_STATUS = re.compile(r"\b(?:for|of)\s+(?:the\s+)?(?:status\s+)?(?:[1-5]\d\d|default)\b")
# An error status's reason phrase as HTTP words it ("Bad Request", "Not Found"), alone as a panel's caption: that
# response's, though it may say "request" (thirty-sixth round).
_REASON_STATUS = {
    "bad request": "400", "unauthorized": "401", "payment required": "402", "forbidden": "403", "not found": "404",
    "method not allowed": "405", "not acceptable": "406", "proxy authentication required": "407",
    "request timeout": "408", "conflict": "409", "gone": "410", "length required": "411",
    "precondition failed": "412", "payload too large": "413", "content too large": "413",
    "request entity too large": "413", "uri too long": "414", "request-uri too long": "414",
    "unsupported media type": "415", "range not satisfiable": "416", "expectation failed": "417",
    "misdirected request": "421", "unprocessable entity": "422", "unprocessable content": "422", "locked": "423",
    "failed dependency": "424", "too early": "425", "upgrade required": "426", "precondition required": "428",
    "too many requests": "429", "request header fields too large": "431", "unavailable for legal reasons": "451",
    "internal server error": "500", "not implemented": "501", "bad gateway": "502", "service unavailable": "503",
    "gateway timeout": "504", "http version not supported": "505",
}  # fmt: skip


def _reason_status(piece: str) -> str:
    """The status an error's reason phrase alone names, as a caption may end it ("Bad Request."); "" otherwise."""
    return _REASON_STATUS.get(piece.strip().rstrip(".:!").strip(), "")


# A heading drawn as a breadcrumb ("Send glance updates › Headers", "Pets » Request Body"): its last
# crumb labels what follows, the operation's title before it does not ("updates", "Responses").
_BREADCRUMB = re.compile(r"\s+[›»]\s+")


def label_before(blocks: list[Block], index: int) -> str:
    """The words that introduce block `index`: the texts and heading just before it, nearest first."""
    words: list[str] = []
    content_at = -1  # where the words reached a run that labels a part's content ("Content", "application/json")
    # Tables are stepped over (the parts of an allOf/oneOf continue the table before); code or a
    # heading ends the label. Bounded: at most 12 texts and 200 blocks back.
    for block in reversed(blocks[max(0, index - 200) : index]):
        if block.kind == "table":
            # A status list of one item ("default – unexpected error") introduces what follows it.
            if len(block.rows) == 1 + block.header and is_status_table(block.rows, block.header):
                words.append(" ".join(block.rows[-1]))
            continue
        if block.kind == "code":
            break
        if block.kind == "heading":
            words.append(_BREADCRUMB.split(block.text)[-1])
            break
        if block.caption:
            continue  # a form control's caption ("Show only required parameters"): it labels the control
        if _DESCRIPTION_RUN.match(block.text):
            # A description under its own label ("description: The query failed") describes and labels nothing:
            # its label stands in for its words (and still parts two status runs: no strip of tabs)
            words.append(_DESCRIBED)
            continue
        if _HEADERS_LABEL.fullmatch(block.text.strip()) and content_at >= 0:
            # "Headers", each header's name and description, then "Content" and what follows: the headers'
            # runs label nothing after the content
            del words[content_at + 1 :]
            continue
        if content_at < 0 and _CONTENT_LABEL.fullmatch(block.text.strip()):
            content_at = len(words)
        if len(block.text) > 80 and (status := _STATUS_CAPTION.match(block.text)):
            # A status and its caption, however long ("401 Bad or expired token. This can happen if …"):
            # its status labels what follows (its content), as a short one's does.
            block_text = status.group(1)
        elif len(block.text) <= 80:
            block_text = block.text
        else:
            continue
        words.append(block_text)
        if len(words) - words.count(_DESCRIBED) >= 12:
            break
    return " | ".join(words).lower()


# A run that opens with a status and then its caption's first word, capitalized ("401 Bad or expired …").
_STATUS_CAPTION = re.compile(r"([1-5]\d\d)\s+[A-Z][a-z]")


_DESCRIPTION_RUN = re.compile(r"description\s*:\s*\S", re.I)
_DESCRIBED = "description:"  # what stands in a label for a description's run (not counted among its texts)
_HEADERS_LABEL = re.compile(r"(?:response )?headers:?", re.I)
# A run that labels a part's content: "Content", or its media type alone ("application/json").
_CONTENT_LABEL = re.compile(r"content:?|(?:application|text|multipart)/[\w.+-]+", re.I)


# A label that names only a piece of a request or a response ("Body", "Schema"), not which one.
_PIECE = re.compile(r"(?:body|schema|example)s?\s*:?")  # "Example :" where a bold label meets its colon


def part_label(blocks: list[Block], index: int, label: str) -> str:
    """The label of the part a piece label belongs to: under "Response 201" (a short run) come "Headers",
    "Body" and "Schema" headings, so the body and schema are the response's, not a request body. The
    nearest earlier short run or heading that names a request or a response says, back to a request line
    (a console's "post /pets" after the responses, then "Body": the request's) or to a heading shallower
    than the piece's that labels nothing (the operation's title: what comes before it is another part);
    else the label stands (bounded: 60 blocks back)."""
    pieces = label.split(" | ")
    # The piece label is the nearest words, or the heading above a picker ("Examples", then
    # "Select example create").
    if not _PIECE.fullmatch(pieces[0].strip()) and not (len(pieces) == 2 and _PIECE.fullmatch(pieces[1].strip())):
        return label
    floor = 0  # the level of the heading the piece sits under
    for back in range(index - 1, max(-1, index - 61), -1):
        block = blocks[back]
        if _is_request_sample(block):
            break  # a request line ("post /pets", a console's) starts the request's own part: the piece is its
        if block.kind == "heading" and not floor and default_status_heading(blocks, back):
            return "default"  # the piece sits under the heading "default" among a response's statuses: that one's
        if block.kind == "heading":
            floor = floor or block.level
            if block.level < floor and not label_kind(block.text.lower()):
                break  # a shallower heading that labels nothing (the operation's title) ends the part
        # A heading that opens by saying its status labels its part however long its caption ("Status: 401
        # Bad or expired token. This can happen if …"); a long run otherwise labels nothing.
        long = len(block.text) > 80 and not (block.kind == "heading" and _SAYS_STATUS.match(block.text.strip()))
        if block.kind not in ("text", "heading") or long:
            continue
        words = block.text.lower()
        if not _PIECE.fullmatch(words.strip()) and label_kind(words) in ("request", "response"):
            # A caption right under a status ("200", then "a pull request object") is the status's.
            before = blocks[back - 1] if back else None
            if before is not None and before.kind in ("text", "heading") and _TAB.fullmatch(before.text.lower()):
                return f"{words} | {before.text.lower()}"
            return words
    return label


def default_status_heading(blocks: list[Block], index: int) -> bool:
    """Whether heading `index` is OpenAPI's keyword "default" alone, as written (lower case: "Default" and
    "DEFAULT" as often name a tag's group), among a response's statuses: the heading before it at its level
    names a status ("200"), or the one over it labels the responses ("Responses"). Bounded: 200 back."""
    if blocks[index].kind != "heading" or blocks[index].text.strip() != "default":
        return False
    level = blocks[index].level
    for block in reversed(blocks[max(0, index - 200) : index]):
        if block.kind != "heading" or block.level > level:
            continue
        words = block.text.lower()
        if block.level == level:
            return label_kind(words) == "response" and bool(label_status(words))
        return label_kind(words) == "response"
    return False


def example_before(blocks: list[Block], index: int) -> int | None:
    """The JSON example that only short runs ("object", "Schema") part from block `index`, if any."""
    for back in range(index - 1, max(-1, index - 12), -1):
        if blocks[back].kind == "code":
            if parse_json(blocks[back].text) is None:
                return None  # no example: an empty block, a sample request
            while back > 0 and blocks[back - 1].kind == "code":  # the same example drawn twice
                back -= 1
            return back
        if blocks[back].kind != "text" or len(blocks[back].text) > 80:
            return None
    return None


def panel_status(blocks: list[Block], index: int, *, first: bool = False) -> str:
    """The status of the k-th field table after a strip of status tabs ("200", "401", "404", then one
    schema panel per tab): its k-th tab. "" for the first panel (the label's status holds), unless
    `first` (the strip's own last tab is the nearest label, "429", where its first panel is "200's"),
    or when no strip comes before. Bounded: 200 blocks back."""
    panels = 0
    for back in range(index - 1, max(-1, index - 200), -1):
        block = blocks[back]
        if block.kind == "heading" or _is_request_sample(block):
            return ""  # a request line or sample command starts the operation's sample box: no panel of the strip
        if block.kind in ("table", "code"):  # a panel's example (code) comes with its schema (table)
            panels += block.kind == "table" and not is_status_table(block.rows, block.header)
            continue
        strip: list[str] = []
        end = back + 1  # where the panels start, if a strip ends here
        while back > index - 200 and back >= 0 and blocks[back].kind == "text":
            if (tab := _TAB.fullmatch(blocks[back].text.lower())) is None:
                break
            strip.insert(0, tab.group(1))
            back -= 1
        if len(strip) >= 2:
            if (shown := _example_per_tab(blocks, end, index, len(strip))) is not None:
                return strip[shown]
            panels = _captioned_panel(blocks, end, index, panels)
            return strip[panels] if (panels or first) and panels < len(strip) else ""
    return ""


def _example_per_tab(blocks: list[Block], start: int, index: int, tabs: int) -> int | None:
    """Which tab's the code block at `index` is where a strip of status tabs is followed at once by exactly
    one code block per tab ("200", "401", "404", then three examples: every panel drawn, each its tab's
    example); None where the code after the strip is not so (one block: the first tab's sample alone)."""
    end = start
    while end < len(blocks) and blocks[end].kind == "code":
        end += 1
    return index - start if end - start == tabs and start <= index < end else None


def _is_request_sample(block: Block) -> bool:
    """A run or code block that is a request line ("GET /pets") or a cURL command."""
    return block.kind in ("text", "code") and bool(parse_signature(block.text.strip()) or parse_curl(block.text))


def _captioned_panel(blocks: list[Block], start: int, index: int, counted: int) -> int:
    """Which panel (from 0) after a strip of tabs the field table at or after block `index` is in.
    Counted by tables, unless runs come before every table after the strip (its pickers:
    "application/json", "Schema", "Example (from schema)"): then each run before a table's first picker
    is one panel's caption, and a panel with no fields (a 204's "Playlist updated") is a caption alone,
    so "Playlist updated", "Bad or expired token", then the pickers and a table: the second tab's."""
    tables: list[tuple[int, list[str]]] = []
    runs: list[str] = []
    for at in range(start, min(len(blocks), start + 400)):
        block = blocks[at]
        if block.kind == "heading":
            break
        if block.kind == "table" and not is_status_table(block.rows, block.header):
            tables.append((at, runs))
            runs = []
        elif block.kind == "code":
            runs = []  # a panel's example ends it
        elif block.kind == "text":
            runs.append(block.text)
    if len(tables) < 2:
        return counted
    shared = set.intersection(*(set(before) for _, before in tables))  # the pickers every panel shows
    if not shared:
        return counted
    panel = -1
    for at, before in tables:
        # The runs before the first picker are captions, one per panel (at least this table's own).
        panel += max(1, next((k for k, run in enumerate(before) if run in shared), len(before)))
        if at >= index:
            return panel
    return counted


def example_panel(blocks: list[Block], index: int) -> int:
    """Where to count a response example's panel from: an example right after a field table (nothing
    between) shows what that table describes, so it is in the table's panel; else in the one it opens."""
    before = blocks[index - 1] if index else None
    if before is not None and before.kind == "table" and not is_status_table(before.rows, before.header):
        return index - 1
    return index


# A response's label whose status slot holds the word a template prints for a missing value ("Response:
# undefined", "Status: null"): a response documented with no status code, which is OpenAPI's default response.
_NO_STATUS = re.compile(r"(?:response|status)(?:\s+code)?\s*:\s*(?:undefined|null|none)", re.I)
# The responses no status names: "Other responses" (after each listed status's), "Response Example (default)"
# (thirty-fifth round).
_DEFAULT_SAID = re.compile(r"other responses?|[\w ]{0,40}\(\s*default\s*\)", re.I)
_SAYS_STATUS = re.compile(r"status:?\s*(?:[1-5]\d\d|default)\b", re.I)


# A picker's caption naming the example it shows ("Example: The request was found", then the name again as the
# picker's button): a name an author gave the example, which may say "request" of a response's.
_EXAMPLE_NAMED = re.compile(r"examples?\s*:\s*(\S.*)")


def label_kind(label: str) -> str:
    """request | response | param | "" from an introducing label (its nearest words decide). An example's name
    ("Example: Request was started", "Request was started") decides only where nothing farther does (thirty-ninth
    round)."""
    pieces = label.split(" | ")
    names = {named.group(1).strip() for piece in pieces if (named := _EXAMPLE_NAMED.fullmatch(piece.strip()))}
    if names:
        kept = [p for p in pieces if not _EXAMPLE_NAMED.fullmatch(p.strip()) and p.strip() not in names]
        if kept and (kind := _kind(kept)):
            return kind
    return _kind(pieces)


def _kind(pieces: list[str]) -> str:
    if len(pieces) > 1 and _STATUS_ONLY.fullmatch(pieces[-1].strip()):
        # The runs between a status heading ("200") and what follows are its caption and pickers
        # ("A pull request object", "Select media type …"): the status says.
        return "response"
    for index, piece in enumerate(pieces):
        if piece.endswith(".") and len(piece.split()) > 3 and not _SAYS_STATUS.match(piece.strip()):
            # A sentence describes ("Successfully submitted the parameters."); it labels nothing. Unless it
            # opens by saying which status it is ("Status: 401 Bad or expired token. …"): a response's.
            continue
        if is_path(piece.strip()):
            continue  # a path ("/incident-response", a request line's) names a resource, never a part
        if index + 1 < len(pieces) and _STATUS_ONLY.fullmatch(pieces[index + 1].strip()):
            # A caption right under a status ("200", "a pull request object", then the media type and
            # pickers before the example) is the status's, whatever it names.
            return "response"
        if len(piece.split()) >= 5 and ":" not in piece and not re.match(r"[1-5]\d\d\b", piece):
            continue  # so does a caption in five words or more ("An array of pull request objects")
        # A piece that starts with a status ("200", "Status: 200", "307 Temporary Redirect … Headers:")
        # is a response's.
        if re.search(
            r"\brespon[sd]|\bstatus code\b|^[1-5]\d\d\b|^status:?\s*([1-5]\d\d|default)\b", piece
        ) or _RETURNS.fullmatch(piece.strip()) or _FOR_STATUS.search(piece) or _reason_status(piece):
            return "response"
        if re.search(r"\b(request|body|payload|requestbody)\b", piece):
            return "request"
        if re.search(r"\b(param|parameters?|arguments?|path|query|header|headers|cookie)\b", piece):
            return "param"
    return ""


def label_status(label: str) -> str:
    """The status a label names: the nearest one, or the first of a strip of tabs ("200 | 401 | 429")."""
    pieces = label.split(" | ")
    for index, piece in enumerate(pieces):
        if (
            re.match(r"default\b", piece.strip())
            or _NO_STATUS.fullmatch(piece.strip())
            or _DEFAULT_SAID.fullmatch(piece.strip())
        ):
            status = "default"  # "default – unexpected error"; "Response: undefined", a response of no code
        elif found := _STATUS_WORD.search(piece):
            status = found.group(1)
        elif reason := _reason_status(piece):
            return reason  # "Bad Request" alone: a panel's caption, no tab strip's
        elif _RETURNS.fullmatch(piece.strip()):
            return "200"  # a return type is the successful response's
        else:
            continue
        # Pieces run nearest first; a tab strip ("200 | 401", "Status: 200 | Status: 401") shows its
        # first tab's sample.
        for earlier in pieces[index + 1 :]:
            tab = _TAB.fullmatch(earlier.strip())
            if tab is None:
                break
            if tab.group(1) != "default":
                status = tab.group(1)
        return status
    return ""


def response_label(label: str) -> str:
    """The pieces of a response's label up to the nearest that makes it a response's ("200"): what is farther
    ("Request headers" over a parameter table before "Response", "200") labels the request, not the response
    (thirty-fifth round)."""
    pieces = label.split(" | ")
    for index in range(len(pieces)):
        if label_kind(" | ".join(pieces[: index + 1])) == "response":
            return " | ".join(pieces[: index + 1])
    return label


def label_location(label: str) -> str | None:
    for piece in label.split(" | "):
        for word in ("path", "query", "header", "cookie"):
            if re.search(rf"\b{word}s?\b", piece):  # "Headers", "Query Parameters"
                return word
        if re.search(r"\b(body|payload|request|form|formdata)\b", piece):  # "Form parameters": the body's
            return "body"
    return None


def lists_scopes(label: str) -> bool:
    """Whether the nearest words introduce a list of OAuth scopes ("Scopes", "Required scopes"): their
    names are permissions to ask for, not fields."""
    # A label, not a sentence about scopes ("The scopes to request." describes a field "scope").
    return re.fullmatch(r"(?:[\w-]+\s+){0,2}scopes?:?", label.split(" | ")[0].strip()) is not None


_SECURITY = re.compile(r"\b(security|authenticat\w*|authori[sz]ations?)\b")


def credential_names(blocks: list[Block]) -> set[str]:
    """Names in the first column of tables a security heading introduces ("Security schemes":
    "api_key | apiKey"): the page's credentials. Only under a heading (a table of one operation's
    "Authorization" header parameter has a parameter heading), and only tables that name a scheme
    type in a row (apiKey, oauth2, http, basic, bearer, openIdConnect)."""
    names: set[str] = set()
    for index, block in enumerate(blocks):
        if block.kind != "table" or not block.rows:
            continue
        heading = next(
            (b.text for b in reversed(blocks[max(0, index - 5) : index]) if b.kind == "heading"), ""
        )
        if not _SECURITY.search(heading.lower()):
            continue
        for row in block.rows[1:] if block.header else block.rows:
            if len(row) > 1 and any(_SCHEME_TYPE.fullmatch(cell.strip().lower()) for cell in row[1:]):
                names.add(row[0].strip())
    return names


def scheme_headings(blocks: list[Block]) -> set[str]:
    """The names of the page's security schemes drawn as headings of their own (`_scheme_heading`)."""
    return {b.text.strip() for i, b in enumerate(blocks) if b.kind == "heading" and _scheme_heading(blocks, i)}


def _scheme_heading(blocks: list[Block], index: int) -> bool:
    """A heading that names a security scheme: right under a security heading one level up ("Security", then
    "accountSid_authToken"), a run stating a scheme type right after it ("Type: basic"). Thirty-sixth round."""
    heading = blocks[index]
    said = blocks[index + 1] if index + 1 < len(blocks) else None
    if said is None or said.kind != "text" or not (typed := _TYPE_SAID.fullmatch(said.text.strip().lower())):
        return False
    if not _SCHEME_TYPE.fullmatch(typed.group(1)):
        return False
    before = reversed(blocks[max(0, index - 200) : index])
    outer = next((b for b in before if b.kind == "heading" and b.level < heading.level), None)
    return outer is not None and bool(_SECURITY.search(outer.text.lower()))


_TYPE_SAID = re.compile(r"type\s*:\s*(.+)")
_SCHEME_TYPE = re.compile(r"apikey|api key|oauth2?|oauth 2\.0|http|basic|bearer|openidconnect")
