"""Parameters drawn as headings of their own, each followed by a run that states where it goes.

Some references give each parameter a small heading holding its name alone (perhaps marked "required"),
then a run "In: query" (or "Location: header"), then its description and a run that leads with its type
("integer, format: int64", "string — The market"): one parameter, whatever the heading's level. Such a
stretch becomes one table block with a header row, as the page's parameter tables are read.
"""

from __future__ import annotations

import re

from openapi_rag.crawl.page import Block
from openapi_rag.crawl.tables import LOCATIONS

_HEADER = ["name", "in", "type", "required", "description"]
# "limit", "X-Request-Id required", "id (required)", "fields[] optional": a name alone, perhaps marked.
_NAME_HEADING = re.compile(r"([A-Za-z_$@][\w.\-\[\]$@]{0,99})(?:\s+\(?(required|optional)\)?)?")
# "In: query", "Location: header", "in path": where the parameter goes, stated after a label.
_LOCATION_RUN = re.compile(r"(?:in|location)\s*:?\s*(\w+)", re.I)
# A run that leads with a JSON Schema type ("string", "integer , format: int64", "string | null — …").
_TYPE_RUN = re.compile(
    r"(string|integer|number|boolean|array|object)(?:\s*\|\s*(?:string|integer|number|boolean|array|object|null))*"
    r"(?=$|[\s,;—–(-])",
    re.I,
)
_MAX_RUNS = 6  # runs read after a parameter's location: its description and its type
# "deploymentId query required", "X-Trace-Id header": a name, then where it goes, perhaps marked, in one run.
_NAME_LOCATION_RUN = re.compile(
    r"([A-Za-z_$@][\w.\-\[\]$@]{0,99})\s+(query|path|header|cookie)((?:\s+(?:required|optional|deprecated))*)", re.I
)
_NOT_NAMES = {"in", "location", "located", "parameter", "parameters"}
# What may follow the type word in such a run: a format in brackets, then marks ("string (date-time) required").
_TYPE_DETAILS = re.compile(r"(?:\s*\([\w\s,:-]{1,40}\))?(?:\s+(?:required|optional|deprecated|nullable))*\s*", re.I)
_MAX_RUN_PARAMETER_RUNS = 4  # runs read after such a run, up to and with the one that leads with its type


def _location(block: Block) -> str | None:
    if block.kind != "text" or len(block.text) > 40:
        return None
    found = _LOCATION_RUN.fullmatch(block.text.strip())
    if found is None:
        return None
    return next((known for known in LOCATIONS if known.lower() == found.group(1).lower()), None)


def _parameter_at(blocks: list[Block], i: int) -> tuple[list[str], int] | None:
    """(row, index after it) for a parameter heading at `i` followed by its location run; None elsewhere."""
    heading = blocks[i]
    if heading.kind != "heading" or i + 1 >= len(blocks):
        return None
    named = _NAME_HEADING.fullmatch(heading.text.strip())
    location = _location(blocks[i + 1])
    if named is None or location is None:
        return None
    type_, words = "", []
    end = i + 2
    while end < len(blocks) and end < i + 2 + _MAX_RUNS and blocks[end].kind == "text":
        text = blocks[end].text.strip()
        if not type_ and (stated := _TYPE_RUN.match(text)):
            type_ = stated.group(1).lower()
            rest = text[stated.end() :].lstrip(" ,;—–-")
            if rest and not rest.lower().startswith(("format", "possible values", "minimum", "maximum", "default")):
                words.append(rest)
        else:
            words.append(text)
        end += 1
    required = "required" if (named.group(2) or "").lower() == "required" or location == "path" else ""
    return [named.group(1), location, type_, required, " ".join(words)], end


def _run_parameter_at(blocks: list[Block], i: int) -> tuple[list[str], int] | None:
    """(row, index after it) for a run that holds a parameter's name and location ("deploymentId query
    required"), followed by its description and a run that leads with its type ("string required"), which
    ends it, or by the next such run (a parameter whose type the page leaves out); None elsewhere."""
    block = blocks[i]
    if block.kind != "text" or len(block.text) > 140:
        return None
    named = _NAME_LOCATION_RUN.fullmatch(block.text.strip())
    if named is None or named.group(1).lower() in _NOT_NAMES:
        return None  # "in path" says where a parameter goes after its name, it names none
    location = next(known for known in LOCATIONS if known.lower() == named.group(2).lower())
    marks = named.group(3).lower().split()
    words: list[str] = []
    end = i + 1
    required = "required" if "required" in marks or location == "path" else ""
    while end < len(blocks) and end < i + 1 + _MAX_RUN_PARAMETER_RUNS and blocks[end].kind == "text":
        text = blocks[end].text.strip()
        if _NAME_LOCATION_RUN.fullmatch(text):
            # The next parameter's run: this one states no type (a Swagger 2 parameter's `type`, which the
            # page leaves out), its name and place alone.
            return [named.group(1), location, "", required, " ".join(words)], end
        if (stated := _TYPE_RUN.match(text)) and _TYPE_DETAILS.fullmatch(text[stated.end() :]):
            rest = text[stated.end() :]
            if "required" in rest.lower().split():
                marks.append("required")
            required = "required" if "required" in marks or location == "path" else ""
            return [named.group(1), location, stated.group(1).lower(), required, " ".join(words)], end + 1
        words.append(text)
        end += 1
    if end == i + 1 and end < len(blocks) and blocks[end].kind == "heading" and i and _after_parameter(blocks, i - 1):
        return [named.group(1), location, "", required, ""], end  # the last of a stretch, right before a heading
    return None


def _after_parameter(blocks: list[Block], i: int) -> bool:
    """Whether the run at `i` ends a parameter drawn as a name-and-place run: it is one, or its type run."""
    text = blocks[i].text.strip() if blocks[i].kind == "text" else ""
    typed = _TYPE_RUN.match(text)
    return bool(_NAME_LOCATION_RUN.fullmatch(text) or (typed and _TYPE_DETAILS.fullmatch(text[typed.end() :])))


def heading_parameters(blocks: list[Block]) -> list[Block]:
    """The blocks with each stretch of parameter headings and their runs replaced by one table block."""
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        rows: list[list[str]] = []
        while i < len(blocks) and (found := _parameter_at(blocks, i) or _run_parameter_at(blocks, i)) is not None:
            row, i = found
            rows.append(row)
        if rows:
            out.append(Block("table", rows=[_HEADER, *rows], header=True, cell_links=[[""] * 5] * (len(rows) + 1)))
            continue
        out.append(blocks[i])
        i += 1
    for index, block in enumerate(out):
        block.position = index
    return out
