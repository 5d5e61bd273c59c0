"""LLM skeleton repair: when the crawled document fails validation, the LLM fixes it.

The rule-based stages aim at valid documents; this stage only runs with an LLM and findings left.
The document and the validator's findings go to the LLM; a reply is kept only when it validates
and adds no operation the crawl did not find (a repair must not invent endpoints); else the next
try gets the new findings, up to `max_repairs` times.
"""

from __future__ import annotations

import json
from typing import Any

from openapi_rag.crawl.compose import _METHODS, parse_document
from openapi_rag.crawl.validate import validation_findings

MAX_REPAIRS = 2
MAX_DOCUMENT_CHARS = 60_000  # beyond this the document does not fit a small model's context anyway

SYSTEM = (
    "You repair OpenAPI 3.0.3 documents. Answer with the whole corrected document as JSON in a "
    "```json block. Fix only what the validator reports; keep every path and operation as it is."
)


def operations(document: dict[str, Any]) -> set[tuple[str, str]]:
    paths = document.get("paths") if isinstance(document.get("paths"), dict) else {}
    return {
        (method, path)
        for path, item in paths.items()
        if isinstance(item, dict)
        for method in item
        if method in _METHODS
    }


def repair_document(
    document: dict[str, Any], findings: list[str], llm: Any, *, max_repairs: int = MAX_REPAIRS
) -> tuple[dict[str, Any], list[str], int]:
    """(document, findings, LLM calls): the repaired document when a try validates, else the input."""
    text = json.dumps(document, ensure_ascii=False)
    if not findings or len(text) > MAX_DOCUMENT_CHARS:
        return document, findings, 0
    known = operations(document)
    current = findings
    calls = 0
    for _ in range(max_repairs):
        prompt = "Findings:\n" + "\n".join(f"- {f}" for f in current[:10]) + f"\n\nDocument:\n{text}"
        reply = llm.chat(
            [{"role": "system", "content": SYSTEM}, {"role": "user", "content": prompt}],
            max_tokens=4000,
            temperature=0.0,
        )
        calls += 1
        candidate, problem = parse_document(reply.text or "")
        if candidate is None:
            current = [problem]
            continue
        if not operations(candidate) <= known:
            current = ["the reply added operations the pages do not document; keep the paths as they are"]
            continue
        current = validation_findings(candidate)
        if not current:
            return candidate, [], calls
    return document, findings, calls
