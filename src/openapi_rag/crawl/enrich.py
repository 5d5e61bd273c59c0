"""LLM enrichment: request parameters described only in prose, as SpeCrawler's TSV stage.

For each operation, the LLM reads the smallest part of the page that holds it (its section,
bounded) and answers one TSV line per request parameter: name, location, type, required,
description. Three worked examples go first, chosen by the cosine of block-shape vectors (how
many headings, paragraphs, tables and code blocks a section has): the paper picks them by the
similarity of HTML tag-frequency vectors, and the block stream is this crawler's view of the tags.
What comes back is parsed leniently, and names that do not occur in the page are dropped later
by the hallucination filter, so a weak model can add little noise and no invented fields.
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from openapi_rag.crawl.build import Report
from openapi_rag.crawl.scrape import Evidence, Scraped
from openapi_rag.crawl.tables import LOCATIONS, FieldRow, normalize_type

logger = logging.getLogger(__name__)

MAX_SECTION_CHARS = 3_000
MAX_OPERATIONS = 500  # per page: bounds the LLM calls one hostile page can cause
_NAME = re.compile(r"^[A-Za-z_$@][\w.\-$@\[\]]{0,99}$")

SYSTEM = (
    "You extract API request parameters from documentation. Answer only TSV lines: "
    "name<TAB>location<TAB>type<TAB>required<TAB>description, where location is path, query, header, "
    "cookie or body, type is string, integer, number, boolean, array or object, and required is true "
    "or false. Use only names written in the text. No header line, no other words."
)

# Worked examples: (block-shape vector, section text, answer). Shapes: headings, texts, tables, codes.
EXAMPLES: list[tuple[tuple[int, int, int, int], str, str]] = [
    (
        (1, 3, 0, 1),
        "Create a customer\nPOST /v1/customers\nPass the customer's email (required) and an optional "
        "name. Set the Idempotency-Key header to retry safely.",
        "email\tbody\tstring\ttrue\tThe customer's email\n"
        "name\tbody\tstring\tfalse\tThe customer's name\n"
        "Idempotency-Key\theader\tstring\tfalse\tKey to retry safely",
    ),
    (
        (2, 2, 1, 1),
        "List orders\nGET /orders\nParameters\nName | Type | Description\nstatus | string | Filter by "
        "status\nlimit | integer | Page size, at most 100",
        "status\tquery\tstring\tfalse\tFilter by status\nlimit\tquery\tinteger\tfalse\tPage size, at most 100",
    ),
    (
        (1, 4, 0, 2),
        "Delete a file\nDELETE /files/{file_id}\nfile_id: the identifier of the file to delete. "
        "The call needs the force flag in the query string to delete shared files.",
        "file_id\tpath\tstring\ttrue\tThe identifier of the file to delete\n"
        "force\tquery\tboolean\tfalse\tDelete shared files",
    ),
    (
        (3, 6, 2, 3),
        "Update a user\nPATCH /users/{id}\nPath parameters\nid (integer, required): the user id\n"
        "Body\nDefinition list: display_name — new display name; tags — list of strings",
        "id\tpath\tinteger\ttrue\tThe user id\ndisplay_name\tbody\tstring\tfalse\tNew display name\n"
        "tags\tbody\tarray\tfalse\tList of strings",
    ),
]


def enrich(result: Scraped, llm: Any, report: Report) -> None:
    """Add the LLM's prose-derived parameters to each operation's evidence (source: prose)."""
    for evidence in result.operations[:MAX_OPERATIONS]:
        section = section_text(evidence)
        if not section.strip():
            continue
        try:
            reply = llm.chat(_messages(evidence, section), max_tokens=400, temperature=0.0)
        except Exception as exc:  # an LLM failure costs the enrichment of one operation, never the crawl
            report.warnings.append(f"{evidence.method} {evidence.path}: LLM enrichment failed ({exc})")
            continue
        rows = parse_tsv(reply.text or "")
        for kind, row in rows:
            evidence.params.append((kind, row))


def section_text(evidence: Evidence) -> str:
    lines: list[str] = []
    size = 0
    for block in evidence.blocks:
        if block.kind == "table":
            text = "\n".join(" | ".join(row) for row in block.rows)
        elif block.kind == "code":
            continue  # samples are read by rules already; prose and tables are what the LLM adds
        else:
            text = block.text
        lines.append(text)
        size += len(text)
        if size > MAX_SECTION_CHARS:
            break
    return "\n".join(lines)[:MAX_SECTION_CHARS]


def shape(evidence: Evidence) -> tuple[int, int, int, int]:
    kinds = [b.kind for b in evidence.blocks]
    return (kinds.count("heading"), kinds.count("text"), kinds.count("table"), kinds.count("code"))


def pick_examples(vector: tuple[int, ...], k: int = 3) -> list[tuple[str, str]]:
    """The k worked examples whose block shape is closest (cosine) to this section's."""

    def cosine(a: tuple[int, ...], b: tuple[int, ...]) -> float:
        dot = sum(x * y for x, y in zip(a, b, strict=True))
        norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
        return dot / norm if norm else 0.0

    ranked = sorted(EXAMPLES, key=lambda ex: -cosine(vector, ex[0]))
    return [(text, answer) for _, text, answer in ranked[:k]]


def _messages(evidence: Evidence, section: str) -> list[dict[str, str]]:
    messages = [{"role": "system", "content": SYSTEM}]
    for text, answer in pick_examples(shape(evidence)):
        messages.append({"role": "user", "content": text})
        messages.append({"role": "assistant", "content": answer})
    messages.append({"role": "user", "content": f"{evidence.method} {evidence.path}\n{section}"})
    return messages


def parse_tsv(text: str) -> list[tuple[str, FieldRow]]:
    """(kind, row) for each well-formed TSV line; anything else is ignored."""
    out = []
    for line in text.splitlines()[:200]:
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) < 2 or not _NAME.match(cells[0]):
            continue
        location = cells[1].lower()
        if location not in LOCATIONS:
            continue
        type_ = normalize_type(cells[2]) if len(cells) > 2 else None
        required = cells[3].lower() == "true" if len(cells) > 3 and cells[3] else None
        description = cells[4] if len(cells) > 4 else ""
        row = FieldRow(cells[0], 0, location, type_, required, description, source="prose")
        out.append(("body" if location in ("body", "form", "formData") else "param", row))
    return out
