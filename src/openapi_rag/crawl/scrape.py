"""Find the operations a page documents and gather, for each, the evidence in its part of the page.

An operation shows itself by a request: a `METHOD /path` line (or a method badge followed by a
path), a cURL command or a raw HTTP request. Its part of the page is the largest heading section
around that request which documents no other operation: the pairing is by place, as in SpeCrawler,
and it holds whether a renderer puts samples before the prose (Slate) or after it (ReDoc).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from openapi_rag.crawl.anchors import linked_label, outer_label, row_refs
from openapi_rag.crawl.bracket_links import unbracket_links
from openapi_rag.crawl.code_blocks import as_declarations, join_json_runs
from openapi_rag.crawl.header_lines import header_rows, is_headers_heading, is_request_heading
from openapi_rag.crawl.heading_params import heading_parameters
from openapi_rag.crawl.label_values import join_label_values
from openapi_rag.crawl.labels import (
    credential_names,
    example_before,
    example_panel,
    label_before,
    label_kind,
    label_location,
    label_status,
    lists_scopes,
    panel_status,
    part_label,
    response_label,
    scheme_headings,
)
from openapi_rag.crawl.linked_sections import linked_sections
from openapi_rag.crawl.map_keys import map_entry_names, without_map_entries
from openapi_rag.crawl.page import Block, Page
from openapi_rag.crawl.regions import operation_regions
from openapi_rag.crawl.runs import field_runs
from openapi_rag.crawl.samples import (
    RequestSample,
    documented_colons,
    is_method,
    is_path,
    parse_curl,
    parse_example,
    parse_http_response,
    parse_named_signature,
    parse_signature,
    parse_titled_signature,
)
from openapi_rag.crawl.scalar_sections import retype_scalar_refs
from openapi_rag.crawl.schema_runs import POINTER_RUN, referenced_parameter, schema_runs
from openapi_rag.crawl.schema_sections import (
    FIELD_TERM,
    SCHEMA_HEADING,
    is_field_heading,
    schema_named,
    schema_sections,
    term_ref,
)
from openapi_rag.crawl.servers import shows_url, stated_servers, template_pattern
from openapi_rag.crawl.signatures import Signature, find_signatures, operation_keys, table_signatures
from openapi_rag.crawl.tables import (
    FieldRow,
    field_rows,
    is_status_table,
    normalize_type,
    status_rows,
    status_schemas,
)
from openapi_rag.crawl.yaml_bodies import parse_yaml_mapping

_BODY_METHODS = {"POST", "PUT", "PATCH"}
# One name of dotted parts ("iam.v1.account.VendorOauthAppCreateRequest", a namespaced schema's name)
_DOTTED_NAME = re.compile(r"[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+")
_STATUS_TABLE_REACH = 40  # blocks looked back over for a response's status table (bounded)
_LONE_LINK = re.compile(r"[A-Za-z_][\w.-]{0,99}")  # a run that is one name, shown as a link
# "default" as OpenAPI writes the keyword: a heading "Default" is as often a tag group's name.
_STATUS_HEADING = re.compile(r"([1-5]\d\d|default)(?:\s+(.{1,200}))?", re.S)
_RESPONSE_HEADING = re.compile(r"(?:response|status)(?:\s+code)?:?\s+([1-5]\d\d)(?:\s+(.{1,200}))?", re.I | re.S)
_NAMED_TEMPLATE = re.compile(r"\b(?:get|put|post|patch|delete|head|options)\s*(/[^\s()/][^\s()]*)", re.I)
_LONE_NAME = re.compile(r"\[?([A-Za-z_][\w.-]{0,99})\]?")  # "Pet", "[Pet]": a schema a link names
_NAMED_AT_END = re.compile(r":\s*\[?([A-Za-z_][\w.-]{0,99})\]?$")  # "…: PagingObject"
# One name, shown once or twice, perhaps marked: a reference drawn as a run, however long, is no prose.
_ONE_NAME = re.compile(r"(\S{1,100})(?:\s+\1(?:\s*\((?:required|optional)\))?|\s*\((?:required|optional)\))")
# A parameter drawn as one run: its name, its type (a schema's name) and whether it is required ("body
# metadata_template (required)"), however long the names: a declaration, no prose (thirty-sixth round); its type a
# list of a schema as a generator draws one, the link spaced apart ("Timesheet array[ Timesheet ] (required)", fortieth).
_NAME_TYPE_MARK = re.compile(
    r"[A-Za-z_$][\w.$-]{0,99}\s+(?:[A-Za-z_$][\w.$\[\]-]{0,99}|(?:array|list)?\s*[\[<]\s*[A-Za-z_$][\w.$-]{0,99}\s*[\]>])"
    r"\s*\((?:required|optional)\)",
    re.I,
)
_LABEL_ONLY = re.compile(
    r"(?:request|query|path|header|form|body|response)?\s*(?:parameters?|body|headers?|responses?)", re.I
)
# Headings that name a part of an operation's documentation, never the operation: its security, its
# samples, an interactive console, its tags ("Authorizations", "Code samples", "Playground", "Try it out", "Tags"),
# the label over its prose ("Description", since issue 17's thirty-first round).
_PART_HEADING = re.compile(
    r"(?:descriptions?|authori[sz]ations?|authentication|security|(?:code |request |response )?(?:samples?|examples?)|"
    r"playground|try it(?: out)?|console|tags)",
    re.I,
)


# A heading that names only a piece of a request or a response, not which one.
_PIECE_HEADING = re.compile(r"(?:body|schema|payload|content)s?\s*:?", re.I)
# A heading over an operation's metadata (RAML's annotations, OpenAPI's vendor extensions): the
# values shown under it, JSON among them, describe the documentation, not a request or a response.
_METADATA_HEADING = re.compile(r"(?:annotations?|(?:vendor |specification )?extensions?)\s*:?", re.I)
# A heading over what a security scheme takes ("Secured by api_key", "Security schemes"): its query or
# header parameters are the credential, not the operation's. Not "Security" alone: a tag may be named so.
_SECURITY_HEADING = re.compile(r"secured by\b.*|security schemes?:?", re.I | re.S)
# A run that only says what follows is headers ("Headers:", "Response headers:").
_HEADERS_RUN = re.compile(r"(?:response )?headers:", re.I)
_HEADERS_HEADING = re.compile(r"(?:response )?headers", re.I)
_HEADER_NAME = re.compile(r"[A-Za-z][\w-]{0,99}")  # "Access-Control-Allow-Origin", "X-Rate-Limit"
# A heading over the security an operation asks for ("Authentication", "Authorizations", "Security"): JSON
# drawn right under it defines a scheme (its type, flows, scopes), never a request or a response.
_SECURITY_PART = re.compile(r"(?:authori[sz]ations?|authentication|security)\s*:?", re.I)
# An operation's summary under OpenAPI's own label ("summary: List all pets"), short.
_SUMMARY_RUN = re.compile(r"summary\s*:\s*(\S.{0,199})", re.I | re.S)
_SCHEME_TYPE_SAID = re.compile(r"\btype:\s*(?:apiKey|oauth2|http|openIdConnect|mutualTLS)\b", re.I)


@dataclass
class Evidence:
    """What a page says about one operation."""

    method: str
    path: str
    title: str = ""
    prose: list[str] = field(default_factory=list)
    samples: list[RequestSample] = field(default_factory=list)
    params: list[tuple[str, FieldRow]] = field(default_factory=list)  # (kind: param|body, row)
    response_fields: dict[str, list[FieldRow]] = field(default_factory=dict)
    request_examples: list[Any] = field(default_factory=list)
    response_examples: dict[str, list[Any]] = field(default_factory=dict)
    statuses: list[tuple[str, str]] = field(default_factory=list)
    response_refs: dict[str, str] = field(default_factory=dict)  # status -> schema name shown
    lone_names: list[tuple[str, str]] = field(default_factory=list)  # (2xx status or "request", a lone word)
    request_ref: str = ""  # the page schema section a name alone before the responses gives the body
    param_refs: list[str] = field(default_factory=list)  # parameters referred to ("ref: #/components/parameters/…")
    # Sections inside the operation's part that a field's type links to ("results", its type a link to
    # the heading "movie-list-object" below, over a table): that schema's fields, by its heading.
    sections: dict[str, list[FieldRow]] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Scraped:
    title: str
    description: str
    servers: list[str]
    operations: list[Evidence]
    # Schemas documented in sections of their own (heading = schema name): their field tables.
    schemas: dict[str, list[FieldRow]] = field(default_factory=dict)


def scrape(page: Page) -> Scraped:
    """The operations of one page with the evidence paired to each."""
    blocks = join_label_values([as_declarations(b) for b in join_json_runs(page.blocks)])
    blocks = field_runs(schema_runs(heading_parameters(blocks)))
    blocks = unbracket_links(blocks)  # "[Address]" on a page of "List of [Address]": one (thirty-ninth round)
    signatures = sorted(find_signatures(blocks) + table_signatures(blocks), key=lambda s: s.position)
    # A heading that is only a path ("/pets/{id}") names a template that request URLs may fill in.
    # So does a code block that is only a path (`<pre><code>/pets/{id}</code></pre>`).
    headed = {
        path
        for b in blocks
        if b.kind in ("heading", "code") and (path := is_path(b.text)) and "://" not in path
    }
    # A code block of a path with no template in it that fills one an operation's request line documents
    # ("/emailed/1.json" under "Get most emailed articles for the last day:", the line "GET /emailed/{period}.json")
    # is an example call of that operation, no template of its own (thirty-sixth round).
    headed -= _example_calls(blocks, signatures)
    # So does a method and a path inside a short run ("Request Example for get/pets/{id}").
    headed |= {
        m.group(1)
        for b in blocks
        if b.kind == "text" and len(b.text) < 300
        for m in _NAMED_TEMPLATE.finditer(b.text)
    }
    servers, keyed = operation_keys(signatures, headed)
    if not servers:
        servers = stated_servers(blocks, {key[1] for _, key in keyed})
    regions = operation_regions(blocks, keyed)
    operations: list[Evidence] = []
    for key, spans in regions.items():
        evidence = Evidence(method=key[0], path=key[1])
        seen: set[int] = set()
        for start, end in spans:
            for block in blocks[start:end]:
                if block.position not in seen:
                    seen.add(block.position)
                    evidence.blocks.append(block)
        evidence.samples = [s.sample for s, k in keyed if k == key and s.sample is not None]
        _read_region(evidence, {s.position + w for s, k in keyed if k == key for w in range(s.width)})
        operations.append(evidence)
    title = page.title or next((b.text for b in blocks if b.kind == "heading"), "")
    first_text = next((b.text for b in blocks if b.kind == "text" and len(b.text) > 40 and _has_words(b.text)), "")
    taken = {p for spans in regions.values() for start, end in spans for p in range(start, end)}
    # A name the page lists among its security schemes is a credential, not a parameter, wherever an
    # operation's table repeats it ("api_key", query).
    credentials = credential_names(blocks)
    # The schemes drawn as headings of their own ("accountSid_authToken", then "Type: basic"), read before the runs
    # are turned into rows
    schemes = credentials | scheme_headings(page.blocks)
    for evidence in operations:
        evidence.params = [
            (k, row) for k, row in evidence.params if k != "param" or row.name not in credentials
        ]
        # A response's row named as a scheme that states no type is the operation's security requirement drawn
        # after its responses ("accountSid_authToken" alone in its table, thirty-sixth round), no field.
        evidence.response_fields = {
            status: [row for row in rows if row.type or row.name not in schemes]
            for status, rows in evidence.response_fields.items()
        }
    schemas = schema_sections(blocks, taken)
    for evidence in operations:
        for name, rows in evidence.sections.items():
            schemas.setdefault(name, rows)
    # Sections a link lands on that no heading's words name ("Type: Property" to "Property Model Structure")
    for name, rows in linked_sections(blocks, taken, schemas).items():
        schemas.setdefault(name, rows)
    for evidence in operations:
        # A parameter the operation refers to ("ref: #/components/parameters/QueryLimit") is the one its
        # section's table documents, when the page has that section.
        for name in evidence.param_refs:
            if section := schema_named(name, schemas):
                evidence.params.extend(("param", replace(row)) for row in schemas[section][:1] if row.location)
        documented = [row.name for kind, row in evidence.params if kind == "param" and row.location == "path"]
        evidence.path = documented_colons(evidence.path, documented)
        # A name alone under a success status ("200 OK", "pet response", "Pet") that heads a schema
        # section of the page is the response's schema, as a status table's "Schema" column is.
        # A name that heads a section as shown comes before a link's anchor that matches one only once
        # slugged ("oauth.v1.token" over "oauth-v1-token", which "OauthV1Token", a tag's section, matches).
        for status, shown in sorted(evidence.lone_names, key=lambda lone: lone[1] not in schemas):
            if (name := schema_named(shown, schemas)) and status == "request":
                evidence.request_ref = evidence.request_ref or name
            elif name:
                evidence.response_refs.setdefault(status, name)
        # A status table's schema column names a section as a link's anchor may ("[_pet_response]"
        # for the section "PetResponse", as generators rename schemas): the section it stands for.
        evidence.response_refs = {
            status: schema_named(name, schemas) or name for status, name in evidence.response_refs.items()
        }
    retype_scalar_refs(page.blocks, operations, schemas)  # "SocialSecurityNumber: string" (thirty-ninth round)
    return Scraped(title, first_text, servers, operations, schemas)


# A run that only states a media type ("application/x-www-form-urlencoded", "Content-Type: text/csv").
_MEDIA_TYPE = re.compile(
    r"(?:(?:media|content)[ -]type\s*:?\s*)?(?:application|text|multipart|image|audio|video)/[\w.+-]+", re.I
)


# A label before an operation's title that says what the section documents ("End-point: Find pets").
_TITLE_LABEL = re.compile(r"\s*(?:end-?point|operation|route)\s*:\s*(\S.*?)\s*", re.I)
# What JavaScript prints for an object a template meant to show as text (a description given as an object).
_PRINTED_OBJECT = re.compile(r"\[object (?:Object|Array)\]")


def _has_words(text: str) -> bool:
    """A run that says something: not a separator drawn in characters ("⁃ ⁃ ⁃ ⁃ …", "* * *"), nor what a
    template printed for an object it meant to show as text ("[object Object]")."""
    return any(ch.isalnum() for ch in text) and not _PRINTED_OBJECT.search(text)


def _is_prose(text: str) -> bool:
    """Words about the operation: a long run, or a short one that is a sentence ("Search for
    collections."); never a caption that names the request ("Request Example for get /pets")."""
    if len(text) < 100 and _NAMED_TEMPLATE.search(text):
        return False
    if _ONE_NAME.fullmatch(text):  # "_update_data_put_request _update_data_put_request (required)"
        return False
    if _NAME_TYPE_MARK.fullmatch(text):  # "body metadata_template (required)": a parameter's name, type, mark
        return False
    if shows_url(text):  # "Production server https://api.example.com/v1/pets": where, not what
        return False
    if parse_curl(text):  # a sample command drawn as a run of text: how to call it, not what it does
        return False
    if _MEDIA_TYPE.fullmatch(text):  # "application/x-www-form-urlencoded": how a body is sent, not what it does
        return False
    if POINTER_RUN.fullmatch(text):  # "ref: #/components/schemas/Pet": which schema, not what it does
        return False
    if not _has_words(text):
        return False
    return len(text) > 30 or (text.endswith(".") and len(text.split()) >= 3)


def _field_heading(evidence: Evidence, block: Block, outline: list[Block]) -> FieldRow | None:
    """A term that reads "name: type" ("genres: object[]") and holds more terms is a field whose
    fields follow, one level down for each such term above them. The row made, if any."""
    found = FIELD_TERM.fullmatch(block.text) if block.level > 6 else None  # `_is_field_heading`
    if found is None:
        return None
    kind, status = _enclosing(outline)
    if not kind and evidence.method in _BODY_METHODS and not (evidence.statuses or evidence.response_fields):
        kind = "request"  # terms before any response of an operation that takes a body: the body's
    if kind not in ("response", "request"):
        return None
    depth = sum(is_field_heading(h) for h in outline)
    row = FieldRow(found.group(1), depth, type=normalize_type(found.group(2)), ref=term_ref(found.group(2)))
    if kind == "response":
        evidence.response_fields.setdefault(status, []).append(row)
    else:
        evidence.params.append(("body", row))
    return row


# A heading that opens with a status and a dash before its caption ("401 - Bad or expired token. This
# can happen …", "default - unexpected error"): a response's, whatever the caption says.
_STATUS_CAPTION = re.compile(r"([1-5]\d\d|default)\s+[-–—]\s", re.I)


def _header_name_heading(block: Block) -> bool:
    """A heading that is one header's name ("Access-Control-Allow-Origin"), not a piece of a response ("Body")."""
    text = block.text.strip()
    return (
        block.kind == "heading"
        and _HEADER_NAME.fullmatch(text) is not None
        and not (_PIECE_HEADING.fullmatch(text) or _LABEL_ONLY.fullmatch(text) or _EXAMPLE_HEADING.fullmatch(text))
    )


def _enclosing(outline: list[Block]) -> tuple[str, str]:
    """(kind, status) the innermost heading that names one gives."""
    for heading in reversed(outline):
        words = heading.text.lower()
        if words.strip() == "default":  # a heading that is only "default" documents that response
            return "response", "default"
        if captioned := _STATUS_CAPTION.match(words):
            return "response", captioned.group(1)
        if kind := label_kind(words):
            return kind, label_status(words)
    return "", ""


def _under_request_params(outline: list[Block]) -> bool:
    """Whether the innermost heading names parameters or headers ("Headers", "Parameters") and one further out
    the request ("Request"): a part of the request's, no response's."""
    if not outline or label_kind(outline[-1].text.lower()) != "param":
        return False
    return _enclosing(outline[:-1])[0] == "request"


def _status_heading_over(outline: list[Block]) -> str:
    """The status the innermost heading that names a response's status gives ("Status: 401", "404 Not
    Found"); "" where none does."""
    heading = next((h for h in reversed(outline) if _names_status(h)), None)
    return label_status(heading.text.lower()) if heading is not None else ""


def _piece_under_response(outline: list[Block]) -> str:
    """The status of the response a piece heading ("Body", "Schema") sits under ("HTTP status code 201",
    a heading further out): a body there is that response's, not the request's. "" elsewhere."""
    if not outline or not _PIECE_HEADING.fullmatch(outline[-1].text.strip()):
        return ""
    kind, status = _enclosing(outline[:-1])
    return (status or "default") if kind == "response" else ""


def _status_over_piece(outline: list[Block]) -> str:
    """The status a heading further out names ("default", "204 No Content") over a piece heading ("Body");
    "" where none names one ("Responses" alone: the first status the page shows is meant)."""
    if not outline or not _PIECE_HEADING.fullmatch(outline[-1].text.strip()):
        return ""
    kind, status = _enclosing(outline[:-1])
    return status if kind == "response" else ""


_EXAMPLE_HEADING = re.compile(r"examples?(?:\s*\([^()]{1,40}\))?\s*:?", re.I)  # "Example (generated)"


def _status_beside(blocks: list[Block], outline: list[Block]) -> str:
    """The status of the heading before an example heading at the same level ("204 - pet deleted", then
    "default - unexpected error", its fields, then "Example" beside them): "" where the innermost
    heading is no example heading or the one before it at its level names no status (bounded: 200 back)."""
    if not outline or not _EXAMPLE_HEADING.fullmatch(outline[-1].text.strip()):
        return ""
    example = outline[-1]
    at = next((k for k, b in enumerate(blocks) if b is example), 0)
    for block in reversed(blocks[max(0, at - 200) : at]):
        if block.kind == "heading" and block.level <= example.level:
            if block.level < example.level or not _names_status(block):
                return ""
            captioned = _STATUS_CAPTION.match(block.text.lower())
            return captioned.group(1) if captioned else label_status(block.text.lower())
    return ""


# A run that shows a response's status, perhaps with its media type ("302", "201 application/json").
_STATUS_RUN = re.compile(r"([1-5]\d\d)(?:\s+[\w.+-]+/[\w.+-]+)?")


def _status_run(blocks: list[Block], index: int, outline: list[Block]) -> str:
    """The status that the first run under the responses' heading shows ("Response", then "302
    application/json", then the schema's title and its fields), for fields no nearer label gives one;
    "" when that run shows none."""
    heading = next((h for h in reversed(outline) if label_kind(h.text.lower()) == "response"), None)
    start = next((k for k, b in enumerate(blocks) if b is heading), None)
    if start is None:
        return ""
    shown = next((b for b in blocks[start + 1 : index] if b.kind == "text"), None)
    found = _STATUS_RUN.fullmatch(shown.text.strip()) if shown is not None else None
    return found.group(1) if found else ""


def _status_table_before(blocks: list[Block], index: int) -> str:
    """The status of the table of one status row that a response's field table follows under the same heading
    ("status | description", "default | unexpected error", then a media type over the fields, perhaps one
    table a media type): the fields are that response's; "" where no such table comes first (thirty-fifth
    round)."""
    for block in reversed(blocks[max(0, index - _STATUS_TABLE_REACH) : index]):
        if block.kind == "heading":
            return ""
        if block.kind == "table" and is_status_table(block.rows, block.header):
            shown = status_rows(block.rows, block.header)
            return shown[0][0] if len(shown) == 1 else ""
    return ""


# An HTTP header's name as HTTP spells them: capitalised words joined by hyphens ("Access-Control-Allow-Origin").
_HTTP_HEADER_NAME = re.compile(r"[A-Z][A-Za-z0-9]*(?:-[A-Z0-9][A-Za-z0-9]*)+")


def _header_names(rows: list[FieldRow]) -> bool:
    """Whether a table's rows, two or more, are all named as HTTP headers are: a response's headers, whatever
    label (none) the table has; no body's fields."""
    return len(rows) >= 2 and all(_HTTP_HEADER_NAME.fullmatch(row.name) for row in rows)


def _example_calls(blocks: list[Block], signatures: list[Signature]) -> set[str]:
    """Paths alone in code blocks, with no template in them, that fill in a template a request line on the page
    documents (a method and "/emailed/{period}.json"): example calls, not the page's templates."""
    documented = {path for s in signatures if (path := is_path(s.url)) and "{" in path}
    patterns = [template_pattern(template) for template in documented]  # each holds a "{"
    return {
        path
        for b in blocks
        if b.kind == "code"
        and (path := is_path(b.text))
        and "{" not in path
        and any(p is not None and p.fullmatch(path) for p in patterns)
    }


def _earlier_label(blocks: list[Block], index: int) -> tuple[str, str]:
    """(kind, status) of the nearest heading before block `index` that names one (bounded: 200 back)."""
    for block in reversed(blocks[max(0, index - 200) : index]):
        if block.kind == "heading" and (kind := label_kind(block.text.lower())):
            return kind, label_status(block.text.lower())
    return "", ""


def _names_status(heading: Block) -> bool:
    """A heading that names a response and its status ("302", "200 OK", "Response 201")."""
    words = heading.text.lower()
    if _STATUS_CAPTION.match(words):
        return True
    return label_kind(words) == "response" and bool(label_status(words))


def _status_said(evidence: Evidence, blocks: list[Block], index: int) -> str:
    """The status whose description the run at `index` is: a sentence of prose right under a heading that is a
    status code alone ("200"), whose response has no description yet; "" otherwise."""
    block = blocks[index]
    if index == 0 or block.control or block.caption or not _is_prose(block.text):
        return ""
    heading = blocks[index - 1]
    if heading.kind != "heading" or not (shown := _STATUS_HEADING.fullmatch(heading.text.strip())):
        return ""
    status = shown.group(1)
    return status if not shown.group(2) and dict(evidence.statuses).get(status) == "" else ""


def _under_status(outline: list[Block]) -> bool:
    """Whether one of these headings names a response's status ("302", "Status: 307") or labels the responses
    ("Responses", their statuses below it)."""
    return any(_names_status(h) or _names_responses(h) for h in outline)


def _names_responses(heading: Block) -> bool:
    """A heading (or a run) that is only a label of the responses ("Responses", "Response"), their statuses
    below it."""
    return bool(_LABEL_ONLY.fullmatch(heading.text.strip())) and label_kind(heading.text.lower()) == "response"


def _linked_section(evidence: Evidence, heading: Block) -> str:
    """The heading's name when a field read earlier for the operation links its type to it (a table
    row "results | Type: movie-list-object[]", the type a link to the heading "movie-list-object"); ""
    otherwise."""
    named = SCHEMA_HEADING.fullmatch(heading.text.strip())
    if named is None:
        return ""
    rows = [row for _, row in evidence.params] + [row for rows in evidence.response_fields.values() for row in rows]
    refs = {row.ref for row in rows if row.ref}
    return named.group(1) if schema_named(named.group(1), {ref: [] for ref in refs}) else ""


def _request_headers(outline: list[Block]) -> bool:
    """Whether the innermost heading labels headers ("Headers") right under one that labels the request alone
    ("Request"; not a title whose request line says "request": "Send POST /procurement/request"), none of them a
    response's (a status, "Responses")."""
    if len(outline) < 2 or not is_headers_heading(outline[-1].text) or not is_request_heading(outline[-2].text):
        return False
    return all(label_kind(h.text.lower()) != "response" for h in outline[:-1]) and not _under_status(outline[:-1])


def _linked_targets(evidence: Evidence) -> set[str]:
    """What the type cells of the fields read so far for the operation link to (their nested sections' too)."""
    rows = [row for _, row in evidence.params] + [row for rows in evidence.response_fields.values() for row in rows]
    return row_refs(rows + [row for rows in evidence.sections.values() for row in rows])


def _weak_title(title: str) -> bool:
    """No title, or one that only repeats the request: a path alone ("/pets") or a method alone ("get")."""
    return not title or bool(is_path(title)) or bool(is_method(title))


def _states_scheme_type(text: str) -> bool:
    """Whether a run states a security scheme's type as OpenAPI names them ("Security: api_key Type: apiKey",
    "Type: oauth2"): it describes the scheme the operation asks for, not the operation."""
    return _SCHEME_TYPE_SAID.search(text) is not None


def _has_heading(blocks: list[Block], start: int, end: int) -> bool:
    return any(b.kind == "heading" for b in blocks[start:end])


def _read_region(evidence: Evidence, signature_positions: set[int]) -> None:
    blocks = evidence.blocks
    previous_kind, previous_table, previous_status = "", 0, ""
    outline: list[Block] = []  # the headings the current block sits under, outermost first
    term_row: FieldRow | None = None  # the row the last heading made ("artists: object[]"), if any
    # The first request line's blocks: a line that repeats it further down (a sample box's "GET /pets",
    # then its language picker "cURL") is followed by the box, not by the operation's name.
    first_line: set[int] = set()
    if signature_positions:
        at = min(signature_positions)
        while at in signature_positions:
            first_line.add(at)
            at += 1
    headers_open = False  # inside a response's headers, after a run "Headers:" under its status
    # After a run that labels the responses ("Responses", their statuses as runs below it): no name alone
    # there gives the request's body
    responses_run = False
    # Right after a response's "Headers" heading: 1; 2 among the headers' own name headings that follow it at once
    header_names = 0
    for index, block in enumerate(blocks):
        label = part_label(blocks, index, label_before(blocks, index))
        if header_names == 1 or header_names and block.kind == "heading":
            header_names = 2 if _header_name_heading(block) else 0
        if header_names == 2:
            # "Headers", then a heading per header ("Access-Control-Allow-Origin") over its table, drawn at
            # any level (at its status's, so it would close it): the response's headers, up to the next
            # heading that is no header's name (its media type's, "application/json").
            continue
        if block.kind != "heading" and (
            headers_open
            or block.kind == "text"
            and _HEADERS_RUN.fullmatch(block.text.strip())
            and _under_status(outline)
        ):
            # "Status: 307", then "Headers:" over each header's name, description, type and example, up to
            # the next heading (its media type's): the response's headers, never fields of its body.
            headers_open = True
            continue
        headers_open = False
        if block.kind == "heading":
            while outline and outline[-1].level >= block.level:
                outline.pop()
            term_row = _field_heading(evidence, block, outline)
            outline.append(block)
            if _HEADERS_HEADING.fullmatch(block.text.strip()) and _under_status(outline[:-1]):
                header_names = 1
            # A heading that is a status ("200", "404 Not Found", "default") documents a response.
            # So does one that says it is a response's ("Response 204 No Content", thirty-fifth round).
            if (
                shown := _STATUS_HEADING.fullmatch(block.text) or _RESPONSE_HEADING.fullmatch(block.text.strip())
            ) and shown.group(1) not in dict(evidence.statuses):
                evidence.statuses.append((shown.group(1), shown.group(2) or ""))
            # A label heading ("Query Parameters:") introduces what follows; it names no operation.
            if (
                not evidence.title
                and parse_signature(block.text) is None
                and not block.text.endswith(":")
                and not _LABEL_ONLY.fullmatch(block.text)  # "Request Parameters" under an empty subtitle
                and not _PART_HEADING.fullmatch(block.text)
                # under a label heading ("Query parameters", then "limit") it names a part, not the operation
                and not any(_LABEL_ONLY.fullmatch(h.text) for h in outline[:-1])
            ):
                named = (  # "List pets GET /pets", "GET /pets List pets": its name part
                    parse_named_signature(block.text)
                    or parse_titled_signature(block.text)
                )
                # "End-point: Find pets": a heading that names the operation after a label saying what it is
                titled = _TITLE_LABEL.fullmatch(block.text)
                evidence.title = named[2] if named else titled.group(1) if titled else block.text
        elif block.kind == "text" and (said := _status_said(evidence, blocks, index)):
            # The paragraph right under a status heading that says no more than its code ("200", then
            # "Successfully created an alert."): that response's description, not the operation's.
            evidence.statuses = [(s, block.text if s == said else d) for s, d in evidence.statuses]
        elif block.kind == "text" and (referenced := referenced_parameter(block.text)):
            evidence.param_refs.append(referenced)  # "ref: #/components/parameters/QueryLimit"
        elif block.kind == "text" and term_row is not None and _LONE_LINK.fullmatch(block.text) and block.links:
            # A link alone under a term, perhaps after its description ("artists: object[]", then
            # "ArtistObject"): the field's schema, as under a schema section's term (followed, bounded).
            term_row.ref, term_row = term_row.ref or block.links[0], None
        elif block.kind == "text":
            responses_run = responses_run or _names_responses(block)
            after_signature = index > 0 and blocks[index - 1].position in first_line
            if _weak_title(evidence.title) and (summary := _SUMMARY_RUN.fullmatch(block.text)):
                # "summary: List all pets", OpenAPI's own field under its label, names the operation better than
                # a heading holding its path or its method alone ("/pets", "get")
                evidence.title = summary.group(1)
            elif (
                after_signature
                and block.position not in signature_positions
                and not evidence.title
                and len(block.text) <= 100
                and not block.text.endswith(":")
                # a button's label between a line drawn outside any control and the heading that titles it
                # ("GET /pets", "Copy link", then h1 "List pets") names nothing; a control holding the line
                # and its summary (a panel's toggle) is the operation's own
                and not (
                    block.control
                    and not blocks[index - 1].control
                    and index + 1 < len(blocks)
                    and blocks[index + 1].kind == "heading"
                    and blocks[index + 1].level <= 2
                )
            ):
                # No heading names the operation: the short line right under its signature does
                # ("GET /albums/{id}" then "Get Album").
                evidence.title = block.text
            elif (
                block.position not in signature_positions
                and not block.control
                and not block.caption  # a form control's caption ("Custom server URL") is the console's
                and _is_prose(block.text)
                and not _states_scheme_type(block.text)
            ):
                evidence.prose.append(block.text)
                # A response's short run that ends by naming a schema ("Refer to the common response
                # description: PagingObject"), as a lone name does.
                named = _LONE_NAME.fullmatch(block.text) or (
                    len(block.text) <= 150 and _NAMED_AT_END.search(block.text)
                )
                if named and label_kind(label) == "response" and label_status(label).startswith("2"):
                    evidence.lone_names.append((label_status(label), named.group(1)))
                # A namespaced schema's name alone under a request-body label, past the length that makes a run
                # prose ("iam.v1.account.VendorOauthAppCreateRequest" under "Request Body"): the body's schema,
                # as a shorter name alone is (thirty-fifth round).
                if (
                    (dotted := _DOTTED_NAME.fullmatch(block.text.strip()))
                    # or under words that name no part (a media type alone, "application/json"), before any response,
                    # as a shorter name alone is there too (thirty-sixth round)
                    and label_kind(label) in ("", "request")
                    and evidence.method in _BODY_METHODS
                    and not evidence.statuses
                    and not evidence.response_examples
                    and not responses_run
                ):
                    evidence.lone_names.extend(("request", target) for target in block.links[:1])
                    evidence.lone_names.append(("request", dotted.group(0)))
            elif block.control:
                continue  # a control's label, a table of contents' item: no schema named, no part given
            elif (lone := _LONE_NAME.fullmatch(block.text)) and label_kind(label) == "response":
                status = label_status(label)
                if status.startswith("2"):
                    # A name shown as a link ("List" -> Models/Pet.md): what it points to names the
                    # schema, when that is a section of the page; else the shown name.
                    evidence.lone_names.extend((status, target) for target in block.links[:1])
                    evidence.lone_names.append((status, lone.group(1)))
            elif (
                lone
                and label_kind(label) in ("", "request")
                # a part's label alone ("Parameters", "Tags") names no schema, even where a section of the page
                # is headed so (thirty-fifth round)
                and not _LABEL_ONLY.fullmatch(block.text.strip())
                and not _PART_HEADING.fullmatch(block.text.strip())
                and evidence.method in _BODY_METHODS
                and not evidence.statuses
                and not evidence.response_examples
                and not responses_run
            ):
                # A name alone before any response of an operation that takes a body: the body's schema
                # when it heads a schema section of the page (a link "PaymentRequest" under the media type).
                evidence.lone_names.extend(("request", target) for target in block.links[:1])
                evidence.lone_names.append(("request", lone.group(1)))
            elif (
                len(block.links) == 1
                and len(block.text) <= 100
                and label_kind(label) == "response"
                and label_status(label).startswith("2")
            ):
                # One link in a short run under a 2xx status ("Type Pet", "Item type Pet"): what it
                # points to is the response's schema, when a section of the page.
                evidence.lone_names.append((label_status(label), block.links[0]))
            elif (
                len(block.links) == 1
                and len(block.text) <= 100
                and label_kind(label) == "request"
                and evidence.method in _BODY_METHODS
                and not evidence.statuses
                and not responses_run
            ):
                # One link in a short run under a request-body label ("NewPet NewPet (required)" under
                # "Request body"): what it points to is the body's schema, when a section of the page.
                evidence.lone_names.append(("request", block.links[0]))
        elif block.kind == "code" and outline and _METADATA_HEADING.fullmatch(outline[-1].text.strip()):
            continue  # an annotation's value ("oas-tags", then '["Pets"]'): metadata, no example
        elif block.kind == "code" and outline and _SECURITY_PART.fullmatch(outline[-1].text.strip()):
            continue  # a scheme's definition under "Authentication" ('{"type": "oauth2", …}'): no example
        elif block.kind == "code" and _request_headers(outline) and (headers := header_rows(block.text)):
            # "Request", "Headers", then a code block of "Authorization:" lines: the request's header parameters
            evidence.params.extend(("param", row) for row in headers)
        elif block.kind == "code" and block.position not in signature_positions:
            value = parse_example(block.text)  # JSON, or XML (an API answering in XML draws that)
            if value is None and label_kind(label) == "request":
                value = parse_yaml_mapping(block.text)  # "Body parameter", then "trx: 8ef2…": a form body as YAML
            if value is None:
                shown = parse_http_response(block.text)  # "HTTP/1.1 200 OK", headers, then the JSON
                if shown is not None:
                    evidence.response_examples.setdefault(shown[0], []).append(shown[1])
                continue
            # "Map of {"key": "200-mapped"}" before it: the key the example gives the map's one entry is no field
            value = without_map_entries(value, map_entry_names(blocks, index))
            if (outer := outer_label(blocks, index, _linked_targets(evidence))) is not None:
                # An example after a nested object's label and table ("Parameters schema:", reached from its
                # field's type) is the example of the part that label sits in ("Body"), not the label's
                label = part_label(blocks, outer, label_before(blocks, outer))
            before = blocks[index - 1] if index else None
            if before is not None and before.kind == "code" and not before.editable and parse_example(before.text) == value:
                continue  # the same value drawn again right after it (highlighted, then as plain text): one example
            if block.editable or (index and blocks[index - 1].editable and parse_example(blocks[index - 1].text) == value):
                # What a reader writes in a text box (a console's body) is a request, whatever label is
                # nearest; code right after it that shows the same value is the box's own highlighting.
                if not block.editable:
                    continue
                evidence.request_examples.append(value)
            elif label_kind(label) == "request" and not _piece_under_response(outline):
                evidence.request_examples.append(value)  # not "Responses", "201", then a "Body" heading's
            elif not label_kind(label) and _enclosing(outline)[0] == "request" and not _piece_under_response(outline):
                # The nearest words say nothing ("Example: create"): a heading further out that names the
                # request ("Request Body", then its media type's heading) says, as it does for a table.
                evidence.request_examples.append(value)
            elif _under_request_params(outline) and not evidence.statuses and not responses_run:
                # "Request", then "Headers" (its header lines drawn as code), then a JSON value: no parameter is
                # drawn as JSON there, the request's body is (a list body given no heading of its own, fortieth round)
                evidence.request_examples.append(value)
            else:
                # In a strip's panels ("200", "default", then a schema and an example for each) the
                # example's panel names its status, as a field table's does.
                status = panel_status(blocks, example_panel(blocks, index), first=True) or label_status(label)
                # A "Body" heading's example under a status heading further out ("default", "Body", then
                # the example under its media type) is that status's, as the table after it is.
                status = status or _status_over_piece(outline)
                # An example under a status heading further out, past its media type's ("Status: 401", then
                # "Content-Type: application/json", then "Example:" and the code), is that status's.
                status = status or _status_heading_over(outline)
                # An example heading drawn beside the status headings ("200 - OK", its media type and
                # fields, then "Example" at the status's level) is the example of the status before it.
                status = status or _status_beside(blocks, outline)
                evidence.response_examples.setdefault(status, []).append(value)
        elif block.kind == "table":
            if is_status_table(block.rows, block.header):
                evidence.statuses.extend(status_rows(block.rows, block.header))
                evidence.response_refs.update(status_schemas(block.rows, block.header))
                continue
            if lists_scopes(label):
                continue
            kind = label_kind(label)
            rows = field_rows(block.rows, block.header, block.cell_links)
            if not rows:
                continue
            if outline and (section := _linked_section(evidence, outline[-1])):
                # The fields of a schema an earlier field's type links to, under its own heading: that
                # field's, nested where it names them, not fields of the nearest label's part.
                evidence.sections.setdefault(section, rows)
                continue
            if (at := linked_label(blocks, index, _linked_targets(evidence))) is not None:
                # A table after a label that an earlier field's type links to ("array of parts" to the label
                # "Parts schema:" carrying that anchor): that field's fields, nested where the link is.
                evidence.sections.setdefault(blocks[at].anchor, rows)
                continue
            status = label_status(label)
            if not kind and (example := example_before(blocks, index)) is not None:
                # A schema drawn right after an example describes what the example shows.
                label = label_before(blocks, example)
                kind, status = label_kind(label), label_status(label)
            if kind == "request" and (under := _piece_under_response(outline)):
                # "HTTP status code 201", then "Body" (and its example): the response's
                kind, status = "response", under
            continued = not kind and previous_kind and not _has_heading(blocks, previous_table, index)
            if continued:
                kind = previous_kind  # the next part of the same schema ("and", "allOf", "continued")
            if not kind:
                # The nearest words say nothing ("genres: object[]"): a heading further out may
                # ("200 OK" above a nested field list).
                kind, status = _enclosing(outline)
            if not kind:
                # Still nothing: a heading that names no part ("Properties", "Schema") sits beside the
                # label it continues ("Responses", "201", then "Properties" one level up): the
                # nearest earlier heading of the operation's part that names one says.
                kind, status = _earlier_label(blocks, index)
            if below := sum(is_field_heading(h) for h in outline):
                rows = [replace(row, depth=row.depth + below) for row in rows]
            previous_kind, previous_table = kind, index
            if kind == "response":
                status = (
                    panel_status(blocks, index, first=True)
                    or status
                    or _status_run(blocks, index, outline)
                    or _status_table_before(blocks, index)
                    # the heading the fields sit under says which ("Other responses", then "Schema of the
                    # response body"): the default response's, not the success's (thirty-fifth round)
                    or (enclosing[1] if (enclosing := _enclosing(outline))[0] == "response" else "")
                    # the next part of an error's schema, nothing saying whose: that error's, not the success's
                    # by default (an error panel after "Bad Request"'s, thirty-sixth round)
                    or (previous_status if continued and not previous_status.startswith("2") else "")
                )
                previous_status = status
                # "Response Headers:" are not body fields; nor is a table of header names alone, unlabelled
                # ("Access-Control-Allow-Origin", "X-Rate-Limit-Remaining": thirty-sixth round)
                if label_location(response_label(label)) != "header" and not _header_names(rows):
                    evidence.response_fields.setdefault(status, []).extend(rows)
                continue
            default_location = label_location(label)
            if default_location in ("query", "header") and any(
                _SECURITY_HEADING.fullmatch(h.text.strip()) for h in outline
            ):
                continue  # "Secured by api_key", then "Query Parameters": the scheme's key, no parameter
            if default_location == "header" and (
                _under_status(outline) or any(label_kind(h.text.lower()) == "response" for h in outline)
            ):
                # "Headers" under a status heading ("302", then "Headers") or a "Responses" heading (its
                # status a tab, "302", then "Headers"), or any heading of a response ("Response schema"):
                # the response's
                continue
            for row in rows:
                location = row.location or default_location
                if location in ("body", "formData", "form") or (location is None and kind == "request"):
                    evidence.params.append(("body", row))
                else:
                    row.location = location
                    evidence.params.append(("param", row))
