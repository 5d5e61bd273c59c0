"""`inspect`: what a set of API descriptions holds, as one plain report (the CLI prints it)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from openapi_rag.model import Service
from openapi_rag.spec import load_services
from openapi_rag.spec.limits import ReadLimits

TOKENIZERS = ("minilm", "cl100k_base", "o200k_base")


def document_text(service: Service) -> str:
    """The text an LLM or embedder would be given for the whole description: compact JSON."""
    return json.dumps(service.document, ensure_ascii=False, separators=(",", ":"), default=str)


def service_report(service: Service) -> dict[str, Any]:
    return {
        "id": service.id,
        "file": service.file,
        "title": service.title,
        "version": service.version,
        "format": service.format,
        "operations": len(service.operations),
        "schemas": len(service.schemas),
        "files": len(service.files),
        "problems": [_located(p) for p in service.problems],
    }


def _located(problem: Any) -> str:
    """`where: message`; the file is the service's own and is reported once beside it."""
    return f"{problem.where}: {problem.message}" if problem.where else problem.message


def inspect_paths(
    paths: Iterable[str | Path],
    *,
    validate: bool = False,
    tokens: bool = False,
    clean: list[str] | None = None,
    limit: int = 8191,
    progress: Callable[[Path], None] | None = None,
    allow_refs: Iterable[str | Path] = (),
) -> dict[str, Any]:
    """Load everything under `paths` and report services, failures and totals.

    With `tokens`, each service gets token counts of its whole (bundled) document before and after
    cleaning (`clean`, default steps when None) with each tokenizer in `TOKENIZERS`.
    """
    paths = list(paths)
    limits = ReadLimits.for_paths(paths, allow_refs)
    result = load_services(paths, progress=progress, limits=limits)
    services = [service_report(s) for s in result.services]
    if validate:
        from openapi_rag.spec.validate import validate_document

        for report, service in zip(services, result.services, strict=True):
            if service.format == "postman":
                report["validation"] = validate_document(service.document, "oas30")
            else:
                from openapi_rag.spec.validate import validate_file

                report["validation"] = validate_file(service.file, service.format, limits=limits)
    totals: dict[str, Any] = {
        "services": len(services),
        "failed": len(result.failed),
        "operations": sum(s["operations"] for s in services),
        "schemas": sum(s["schemas"] for s in services),
    }
    if validate:
        totals["invalid"] = sum(1 for s in services if s["validation"])
    report: dict[str, Any] = {
        "services": services,
        "failed": [f.to_dict() for f in result.failed],
        "totals": totals,
    }
    if tokens:
        report["tokens"] = token_statistics(result.services, services, clean=clean, limit=limit)
    return report


def token_statistics(
    loaded: list[Service], reports: list[dict[str, Any]], *, clean: list[str] | None, limit: int
) -> dict[str, Any]:
    """Per-document token counts before/after cleaning and corpus statistics (adds to `reports`)."""
    from openapi_rag.clean import DEFAULT_STEPS, clean_document
    from openapi_rag.tokens import get_tokenizer

    steps = list(DEFAULT_STEPS) if clean is None else clean
    tokenizers = {name: get_tokenizer(name) for name in TOKENIZERS}
    before: dict[str, list[int]] = {n: [] for n in TOKENIZERS}
    after: dict[str, list[int]] = {n: [] for n in TOKENIZERS}
    removed_by_step: dict[str, int] = dict.fromkeys(steps, 0)
    minilm = tokenizers["minilm"]
    for service, report in zip(loaded, reports, strict=True):
        raw = document_text(service)
        cleaned_doc, removed = clean_document(service.document, steps, minilm.count)
        report["removed_by_step"] = removed
        for step, count in removed.items():
            removed_by_step[step] = removed_by_step.get(step, 0) + count
        cleaned = json.dumps(cleaned_doc, ensure_ascii=False, separators=(",", ":"), default=str)
        counts = {}
        for name, tok in tokenizers.items():
            b, a = tok.count(raw), tok.count(cleaned)
            before[name].append(b)
            after[name].append(a)
            counts[name] = {"before": b, "after": a}
        report["tokens"] = counts
    summary: dict[str, Any] = {
        "limit": limit,
        "clean_steps": steps,
        "documents": len(loaded),
        "removed_by_step": removed_by_step,  # minilm tokens each cleaning step removed, corpus total
    }
    for name in TOKENIZERS:
        b, a = before[name], after[name]
        summary[name] = {
            "total_before": sum(b),
            "total_after": sum(a),
            "mean_before": round(statistics.fmean(b), 1) if b else 0,
            "mean_after": round(statistics.fmean(a), 1) if a else 0,
            "max_before": max(b, default=0),
            "max_after": max(a, default=0),
            "over_limit_before": sum(1 for x in b if x > limit),
            "over_limit_after": sum(1 for x in a if x > limit),
        }
    return summary
