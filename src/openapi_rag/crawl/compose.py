"""Compose: find a needed service in the catalog, or draft an OpenAPI document for it.

After "Extending service composition with vector databases": the agent describes the service it
needs; the catalog's operations are matched against the description by embedding similarity
(dense search, so scores are cosines and a threshold means the same from one catalog to the next).
When nothing reaches the threshold, the configured LLM drafts an OpenAPI document for the service;
the model is asked for a service sketch (`crawl.sketch`: JSON under a schema, which a small local
model can write) and the document is built from it by rules; a model may also answer with a whole
OpenAPI document. Either is validated with openapi-spec-validator and sent back with the findings
to be repaired, up to `max_repairs` times, and marked as a draft (`info.x-draft: true`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from openapi_rag.crawl.sketch import (
    SKETCH_PROMPT,
    SKETCH_SCHEMA,
    is_sketch,
    sketch_problems,
    sketch_to_openapi,
)
from openapi_rag.crawl.validate import validation_findings

DEFAULT_THRESHOLD = 0.55  # scripts/compose_threshold.py on SOCBench-D instance 1: see the README
MAX_REPAIRS = 3
_FENCE = re.compile(r"```(?:ya?ml|json)?\s*\n(.*?)```", re.S | re.I)
# Words of a need that say nothing about which service it is.
_COMMON = {"service", "services", "that", "which", "returns", "return", "provides", "provide", "with", "from",
           "their", "them", "this", "these", "api", "apis", "allows", "allow", "lets", "data", "information",
           "some", "about", "given", "like", "want", "need", "needs", "able", "should"}  # fmt: skip
_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}

DRAFT_SYSTEM = "You design small REST APIs. " + SKETCH_PROMPT


@dataclass
class ComposeResult:
    need: str
    threshold: float
    matches: list[dict[str, Any]] = field(default_factory=list)  # services, best first
    draft: dict[str, Any] | None = None
    findings: list[str] = field(default_factory=list)  # validation findings left in the draft
    attempts: int = 0  # LLM calls made for the draft
    model: str = ""  # the LLM that drafted it

    @property
    def found(self) -> bool:
        return bool(self.matches)

    def as_dict(self) -> dict[str, Any]:
        return {
            "need": self.need,
            "threshold": self.threshold,
            "found": self.found,
            "matches": self.matches,
            "draft": self.draft,
            "valid": self.draft is not None and not self.findings,
            "findings": self.findings,
            "attempts": self.attempts,
            "model": self.model,
        }


def match_need(index: Any, need: str, *, threshold: float = DEFAULT_THRESHOLD, k: int = 10) -> list[dict]:
    """Services whose operations match the description at or above `threshold`, with those operations."""
    hits = index.search(need, k=k, mode="dense", threshold=threshold)
    services: dict[str, dict[str, Any]] = {}
    for hit in hits:
        entry = services.setdefault(
            hit.service, {"service": hit.service, "score": hit.score, "operations": []}
        )
        entry["score"] = max(entry["score"], hit.score)
        entry["operations"].append({"id": hit.id, "score": round(hit.score, 4), "summary": hit.summary})
    ranked = sorted(services.values(), key=lambda s: (-s["score"], s["service"]))
    for entry in ranked:
        entry["score"] = round(entry["score"], 4)
    return ranked


def compose(
    need: str,
    *,
    index: Any = None,
    llm: Any = None,
    threshold: float = DEFAULT_THRESHOLD,
    max_repairs: int = MAX_REPAIRS,
    k: int = 10,
) -> ComposeResult:
    """Catalog matches for `need`, or (none above the threshold and an LLM given) a validated draft."""
    result = ComposeResult(need, threshold)
    if index is not None:
        result.matches = match_need(index, need, threshold=threshold, k=k)
    if result.matches or llm is None:
        return result
    result.draft, result.findings, result.attempts = draft_service(need, llm, max_repairs=max_repairs)
    result.model = str(getattr(llm, "model_id", "") or type(llm).__name__)
    return result


def draft_service(
    need: str, llm: Any, *, max_repairs: int = MAX_REPAIRS
) -> tuple[dict | None, list[str], int]:
    """(document, findings, LLM calls): drafted, then repaired while the validator finds problems."""
    from openapi_rag.llm.base import structured_output

    messages = [
        {"role": "system", "content": DRAFT_SYSTEM},
        {"role": "user", "content": f"The service: {need}"},
    ]
    constrain = structured_output(llm, "service_sketch", SKETCH_SCHEMA)
    document: dict[str, Any] | None = None
    findings: list[str] = ["no document yet"]
    attempts = 0
    for _ in range(max_repairs + 1):
        reply = llm.chat(messages, max_tokens=2000, temperature=0.0, **constrain)
        attempts += 1
        text = reply.text or ""
        parsed, problem = parse_document(text)
        if parsed is None:
            findings = [problem]
        elif is_sketch(parsed):
            findings = sketch_problems(parsed)
            if not findings:
                document = normalize_draft(sketch_to_openapi(parsed), need)
                findings = validation_findings(document)
        else:
            document = normalize_draft(parsed, need)
            findings = validation_findings(document) or _no_operations(document)
        if not findings and document is not None:
            findings = off_topic(document, need)
        if not findings:
            break
        messages.append({"role": "assistant", "content": text[:4000]})
        messages.append(
            {
                "role": "user",
                "content": "The draft is not valid OpenAPI or not usable:\n"
                + "\n".join(f"- {f}" for f in findings[:10])
                + "\nAnswer again with the whole corrected answer.",
            }
        )
    return document, findings, attempts


def off_topic(document: dict[str, Any], need: str) -> list[str]:
    """A draft that shares no content word with the need describes some other service (a weak model
    copies the prompt's example or drifts): said plainly rather than passed off as the needed one."""
    words = {w[:5] for w in re.findall(r"[a-z]{4,}", need.lower()) if w not in _COMMON}
    if not words:
        return []
    text = json.dumps(
        {"title": document.get("info", {}).get("title"), "paths": document.get("paths")}, ensure_ascii=False
    ).lower()
    drafted = {w[:5] for w in re.findall(r"[a-z]{4,}", text)}
    if words & drafted:
        return []
    return [
        f"the draft names none of the need's words ({', '.join(sorted(words))}): it is about another service"
    ]


def _no_operations(document: dict[str, Any]) -> list[str]:
    paths = document.get("paths") or {}
    if any(isinstance(item, dict) and item.keys() & _METHODS for item in paths.values()):
        return []
    return ["the document describes no operation (paths is empty)"]


def parse_document(text: str) -> tuple[dict[str, Any] | None, str]:
    """The YAML/JSON mapping in a reply (a fenced block first, else the whole text), or a reason."""
    match = _FENCE.search(text)
    body = match.group(1) if match else text
    try:
        data = yaml.safe_load(body)
    except yaml.YAMLError as exc:
        try:
            data = json.loads(body)
        except ValueError:
            return None, f"the reply is not YAML or JSON ({str(exc).splitlines()[0]})"
    if not isinstance(data, dict):
        return None, "the reply holds no YAML mapping (an OpenAPI document is one)"
    return data, ""


def normalize_draft(document: dict[str, Any], need: str) -> dict[str, Any]:
    """Mechanical repairs that need no LLM (version, info, responses), and the draft mark."""
    doc = dict(document)
    doc["openapi"] = "3.0.3" if not str(doc.get("openapi", "")).startswith("3.0") else str(doc["openapi"])
    info = doc.get("info") if isinstance(doc.get("info"), dict) else {}
    info = dict(info)
    info.setdefault("title", need[:80])
    info["version"] = str(info.get("version") or "0.1.0-draft")
    info["x-draft"] = True
    info["description"] = (
        "DRAFT generated for: " + need + "\n\n" + str(info.get("description") or "")
    ).strip()
    doc["info"] = info
    paths = doc.get("paths") if isinstance(doc.get("paths"), dict) else {}
    for item in paths.values():
        if not isinstance(item, dict):
            continue
        for method, operation in item.items():
            if method in _METHODS and isinstance(operation, dict) and not operation.get("responses"):
                operation["responses"] = {"default": {"description": "Not described in the draft"}}
    doc["paths"] = paths
    return doc
