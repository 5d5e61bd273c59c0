"""Which parts of a page belong to which operation: for each request line found, the page spans
that document it (the largest heading section around it that documents no other operation, or, where
label headings follow the line rather than head it, the stretch up to the next operation).
Moved out of scrape.py unchanged.
"""

from __future__ import annotations

import bisect
import re

from openapi_rag.crawl.labels import label_kind
from openapi_rag.crawl.page import Block
from openapi_rag.crawl.samples import is_path
from openapi_rag.crawl.signatures import Signature, url_block

_WORD_AND_PATH = re.compile(r"[A-Za-z]{2,20}\s+/\S{0,300}")  # "PARAMETERS /pets/{id}"


def operation_regions(
    blocks: list[Block], keyed: list[tuple[Signature, tuple[str, str]]]
) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """For each operation, the page spans that belong to it."""
    headings = [(b.position, b.level) for b in blocks if b.kind == "heading"]
    ends = []
    for index, (pos, level) in enumerate(headings):
        end = next((p for p, lv in headings[index + 1 :] if lv <= level), len(blocks))
        ends.append((pos, end))
    section = dict(ends)
    level = dict(headings)
    positions = sorted((sig.position, key) for sig, key in keyed)
    # Request lines drawn as lines (not sample commands, which end their part): where they span.
    width = {sig.position: sig.width for sig, _ in keyed if sig.sample is None or sig.sample.source == "template"}
    # A sample command (cURL, a raw HTTP request) ends its operation's part: the next operation's line
    # right after it makes no list with it.
    listed = _listed(sorted((s.position, k) for s, k in keyed if s.sample is None or s.sample.source == "template"))
    out: dict[tuple[str, str], list[tuple[int, int]]] = {}
    span_at: dict[int, tuple[int, int]] = {}
    heading_positions = [p for p, _ in headings]  # in page order
    titled: list[tuple[int, int]] = []  # parts of operations whose heading stands over shallower labels
    for number, (pos, key) in enumerate(positions):
        if pos in listed:  # a line of a list of operations names one; what follows the list is not its
            out.setdefault(key, []).append((pos, pos + 1))
            continue
        span = None
        nxt = next((p for p, k in positions[number + 1 :] if k != key), len(blocks))
        if titled_span := _over_shallower_labels(blocks, pos, nxt, level, heading_positions):
            span_at[pos] = titled_span
            titled.append(titled_span)
            out.setdefault(key, []).append(titled_span)
            continue
        cut = False
        cut_at = -1  # the heading of the first section the line's part ran past
        cut_starts: list[int] = []  # the headings of every section it ran past, smallest first
        prev = max((p for p, k in positions[:number] if k != key), default=-1)
        closes = False  # the line is the last thing of the sections around it (see `_closes`)
        # The levels of the label headings inside the previous operation's part ("Responses").
        before = span_at.get(prev, (0, 0))
        label_levels = {lv for p, lv in headings if before[0] < p < before[1]}
        for start, end in sorted(ends, key=lambda se: se[1] - se[0]):
            if not start <= pos < end:
                continue
            others = {k for p, k in positions if start <= p < end and k != key}
            # A section whose heading lies in an earlier operation's part is that part's ("201" over
            # the next operation's heading, drawn at a shallower rank): never this operation's.
            if others or any(a <= start < b and start < pos for a, b in titled):
                break
            # A response's label heading between the previous operation's line and this one ("Responses", "200"
            # drawn after the previous line, this line under them where no heading heads an operation) is the
            # previous operation's: a response comes after its request line, never this operation's part, where the
            # heading it sits under (past other response headings) comes before that line (a title after it, "Get
            # Popular" over "Responses", heads the next operation's part, whose sample may follow). Fortieth round.
            if (
                prev < start < pos
                and not any(prev < p < start for p, k in positions if k == key)  # this operation's own line before it
                and _response_after(blocks, headings, level, start, prev)
            ):
                break
            # The section ends at a heading that heads no request of its own, before the next operation,
            # at a level the operations' label headings have (a sibling of the section, or a shallower
            # label when the line sat under the previous operation's last label): the operation's line
            # may sit among label headings ("Parameters", "Responses") that follow it rather than head
            # it, so its part runs on past this section (a larger section around it, when one
            # documents no other operation, is its part as usual).
            if (
                end < nxt
                and (level.get(end) == level[start] or level.get(end) in label_levels)
                and not any(end <= p < section[end] for p, _ in positions)
                # A heading that names a path under another word ("PARAMETERS /pets/{id}", what a
                # path's operations share) starts that path's part; it is no label of this one.
                and not (end < len(blocks) and _WORD_AND_PATH.fullmatch(blocks[end].text))
                and not _word_over_url(blocks, end, section.get(end, end))
            ):
                cut = True
                cut_at = start if cut_at < 0 else cut_at
                cut_starts.append(start)
                continue
            # A request line (not a sample command) with nothing after it in the section but controls
            # ("Copy link") closes the section (an overview's last heading, "Servers", then the line heading
            # the view of the operation, its title a heading after it): it heads what follows, that
            # section is not its part.
            if (
                start < pos
                and pos in width
                # after other words of the section's (its heading right over the line alone captions the line:
                # a table of contents' "OauthV1Token", then "post /v1/token")
                and any(not (b.kind == "text" and b.control) for b in blocks[start + 1 : pos])
                and _closes(blocks, pos + width[pos], end)
                # the first of its operation's lines (a console's line after the part ends nothing), and no
                # line of it follows before the next one's (a list's line, "GET /", then its own part with
                # its own line: that one heads it)
                and _run_start(positions, pos) == pos
                and not any(pos < p < nxt and p in width for p, k in positions if k == key)
            ):
                closes = True
                break
            span = (start, end)
        if span is None:
            # No heading section of its own: from this request to the next one of another operation
            # (and back to the one before, unless label headings showed the part starts here).
            # Never back past the heading it sits under (a group heading starts a fresh part).
            above = max((start for start, end in ends if start < pos < end), default=-1)
            # Label headings between the previous operation's first line and this one ("Request",
            # "Responses" after a line that no title heads, then its sample box's cURL command) were that
            # operation's, when no other heading stands between (a group's "Site"): this part starts at
            # its own line.
            first = _run_start(positions, prev)
            grouped = max(
                (start for start, end in ends if start < pos < end and not label_kind(blocks[start].text.lower())),
                default=-1,
            )
            labelled = grouped <= first and any(
                first < p < pos and label_kind(blocks[p].text.lower()) for p, _ in headings
            )
            span = (max(prev + 1, above) if prev >= 0 and not cut and not labelled and not closes else pos, nxt)
            # The section it ran past is headed by the operation's title (its summary, then its
            # description, then the line), not by the previous operation's last label: it starts there. Where
            # the first such section is no title's, a larger one's may be (an h1 title over the h2 "Request").
            titles = (at for at in cut_starts if prev < at < pos and _titles(blocks, headings, at, pos, nxt))
            if cut and (titled_at := next(titles, -1)) >= 0:
                span = (titled_at, nxt)
            if not cut and (end := _after_labels(blocks, headings, pos, nxt)) is not None:
                span = (span[0], end)
            if cut:  # its label headings follow it: a shallower heading after them ends its part ("Models")
                # (the shallowest label level seen so far: a description's own "Recent Changes" h4 over
                # "Path parameters" h3 ends nothing)
                labels = [lv for p, lv in headings if pos < p < nxt]
                first = min(label_levels | set(labels[:1]), default=0)
                # Where the line sits under a heading that labels its request ("Request" h2), a heading of
                # its responses at that heading's level ("Responses", "201 Created" h2s, after its "Query
                # parameters" h3) is still its own: the request's sibling half.
                request = max((level[s] for s, e in ends if s < pos < e and _of_request(blocks[s])), default=0)
                own = {p for p, lv in headings if request and lv >= request and _of_responses(blocks[p])}
                shallower = (p for p, lv in headings if pos < p < nxt and lv < first and p not in own)
                span = (span[0], next(shallower, nxt))
        span_at[pos] = span
        out.setdefault(key, []).append(span)
    return {key: [_before_schema_list(blocks, span) for span in spans] for key, spans in out.items()}


# A heading over the page's list of schemas ("Models", "Definitions"): what follows documents no operation.
_SCHEMA_LIST = re.compile(r"\s*(?:models|definitions|data models|data types)\s*", re.I)


def _response_after(
    blocks: list[Block], headings: list[tuple[int, int]], level: dict[int, int], start: int, prev: int
) -> bool:
    """Whether the heading at `start` labels a response and sits, past the response headings over it ("Responses"
    over "200"), under a heading that comes before `prev` (or under none): in the part `prev` opened."""
    if prev < 0:
        # No operation before: no part of one to be in. (Without this, a response label under no heading
        # climbed to "block -1" and, were the page's last block a response label too, forever: a held-out
        # page hung the crawl.) Every climb below ends: a parent comes before its child, or is -1 < prev.
        return False
    at = start
    while label_kind(blocks[at].text.lower()) == "response":
        parent = next((p for p, lv in reversed(headings) if p < at and lv < level[at]), -1)
        if parent < prev:
            return True
        at = parent
    return False


def _before_schema_list(blocks: list[Block], span: tuple[int, int]) -> tuple[int, int]:
    """A part up to the heading of the page's schema list inside it (the last operation of a tag's section,
    which a "Models" heading one level down ends): the schemas are no operation's (thirty-fifth round)."""
    start, end = span
    cut = next(
        (p for p in range(start + 1, end) if blocks[p].kind == "heading" and _SCHEMA_LIST.fullmatch(blocks[p].text)),
        end,
    )
    return start, cut


def _closes(blocks: list[Block], after: int, end: int) -> bool:
    """Whether the blocks from `after` to a section's `end` are controls' labels alone (none at all
    counts too): nothing of the section follows a request line there."""
    return all(b.kind == "text" and b.control for b in blocks[after:end])


# A word alone over a code block of a URL alone ("PARAMETERS", then `https://api.example.com/v3/lists`).
_ONE_WORD = re.compile(r"[A-Za-z]{2,20}")


def _word_over_url(blocks: list[Block], start: int, end: int) -> bool:
    """Whether a section draws a word over a URL alone near its top, as a request line drawn in two pieces
    for what is not a method ("PARAMETERS", what a path's operations share): that path's part, as a
    heading "PARAMETERS /pets/{id}" starts one, never a label of the operation before it."""
    near = range(start, min(end, start + 8, len(blocks) - 1))
    return any(
        blocks[i].kind == "text" and _ONE_WORD.fullmatch(blocks[i].text.strip()) and url_block(blocks[i + 1])
        for i in near
    )


def _labels(heading: Block) -> bool:
    return bool(label_kind(heading.text.lower()))


def _of_responses(heading: Block) -> bool:
    return label_kind(heading.text.lower()) == "response"


def _of_request(heading: Block) -> bool:
    return label_kind(heading.text.lower()) == "request"


def _titles(blocks: list[Block], headings: list[tuple[int, int]], at: int, pos: int, nxt: int) -> bool:
    """Whether the heading at `at` is the title of the request line at `pos`: it labels nothing, its
    description (a run of text) and no other heading but labels ("Request") stand between it and the line, and
    label headings deeper than it follow the line ("Path Parameters", "Response"). A tag's heading right
    over the line, or over a list of its operations whose own titles follow, is none."""
    level = dict(headings)
    after = [(p, lv) for p, lv in headings if pos < p < nxt]
    return (
        not label_kind(blocks[at].text.lower())
        and bool(after)
        and level[at] < after[0][1]
        and bool(label_kind(blocks[after[0][0]].text.lower()))
        and not any(b.kind == "heading" and not _labels(b) for b in blocks[at + 1 : pos])
        and any(b.kind == "text" and not b.control for b in blocks[at + 1 : pos])
    )


def _after_labels(blocks: list[Block], headings: list[tuple[int, int]], pos: int, nxt: int) -> int | None:
    """Where the part of a request line that label headings follow ("Request", "Responses", right after
    it) ends before the next operation: at the first heading that labels nothing and is shallower than
    every label heading before it (the page's "Schemas" h1 after the last operation). None where no
    label heading comes first or none such follows."""
    after = [(p, lv) for p, lv in headings if pos < p < nxt]
    if not after or not label_kind(blocks[after[0][0]].text.lower()):
        return None
    shallowest = after[0][1]
    for p, lv in after:
        if label_kind(blocks[p].text.lower()):
            shallowest = min(shallowest, lv)
        elif lv < shallowest:
            return p
    return None


def _run_start(positions: list[tuple[int, tuple[str, str]]], at: int) -> int:
    """The first of the request lines, each naming the operation the one at `at` names, that run up
    to it with no other operation's between (its line, then its sample's)."""
    keys = dict(positions)
    if at not in keys:
        return at
    start = at
    for p, k in reversed(positions):
        if p < at:
            if k != keys[at]:
                break
            start = p
    return start


def _listed(positions: list[tuple[int, tuple[str, str]]]) -> set[int]:
    """Request lines that stand next to each other naming different operations ("get /albums/{id}",
    "delete /me/albums", "put /me/albums"): a list of the operations, as a table of contents or a
    tag's overview draws it, not requests with parts of their own."""
    listed: set[int] = set()
    for (pos, key), (nxt, other) in zip(positions, positions[1:], strict=False):
        if nxt == pos + 1 and other != key:
            listed |= {pos, nxt}
    return listed


def _over_shallower_labels(
    blocks: list[Block], pos: int, nxt: int, level: dict[int, int], positions: list[int]
) -> tuple[int, int] | None:
    """The part of an operation whose request line is a heading drawn deeper than the label headings
    under it (a dialog's title, h4 "post /pets", over h3 "Body" and h2 "HTTP status code 201"): from the
    line to the next operation, a heading that names a path (a resource group) or a sibling of the line
    that labels nothing (the next operation's summary panel), when the heading
    right after the line is shallower than it and a label heading is among the shallower ones before
    that end (`positions`: the headings' positions, in order). None for any other line."""
    if pos not in level:
        return None
    after = positions[bisect.bisect_right(positions, pos) : bisect.bisect_left(positions, nxt)]
    if not after or level[after[0]] >= level[pos]:
        return None
    # It ends at a heading that names a path (a resource group), or at one as deep as the line that
    # labels nothing (the next operation's summary panel, "/pets/{id} get", a sibling of the line).
    stop = next(
        (
            p
            for p in after
            if is_path(blocks[p].text) or (level[p] >= level[pos] and not label_kind(blocks[p].text.lower()))
        ),
        nxt,
    )
    shallower = [p for p in after if p < stop and level[p] < level[pos]]
    if not any(label_kind(blocks[p].text.lower()) for p in shallower):
        return None
    return pos, stop
