"""HTML documentation pages → OpenAPI 3 (after SpeCrawler, Lazar et al.).

>>> from openapi_rag.crawl import crawl_pages
>>> result = crawl_pages(["docs/"])          # doctest: +SKIP
>>> result.document["paths"], result.report.as_dict(), result.findings

Stages: read pages (lxml, scripts dropped) → scrape requests and pair page sections with them →
skeleton (servers, methods, paths, path/query/header parameters, security) → schemas from the JSON
examples → fields from parameter tables → optional LLM enrichment from prose → hallucination
filter and merge → validation with openapi-spec-validator (→ LLM skeleton repair when findings are
left and an LLM is given). Offline with no LLM.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openapi_rag.crawl.build import Report, build_document
from openapi_rag.crawl.page import read_page
from openapi_rag.crawl.scrape import scrape
from openapi_rag.errors import ConvertError

PAGE_SUFFIXES = (".html", ".htm", ".xhtml")
MAX_PAGES = 10_000


@dataclass
class CrawlResult:
    document: dict[str, Any]
    report: Report
    findings: list[str]  # openapi-spec-validator findings (empty: valid)

    @property
    def empty(self) -> bool:
        return not self.document.get("paths")


def find_pages(paths: Iterable[str | Path]) -> list[Path]:
    """HTML files named or found under folders; links leading outside a folder are not followed."""
    pages: list[Path] = []
    for item in paths:
        path = Path(item)
        if not path.exists():
            raise ConvertError(f"{path}: no such file or folder")
        if path.is_file():
            pages.append(path)
            continue
        root = path.resolve()
        for candidate in sorted(path.rglob("*")):
            if candidate.suffix.lower() in PAGE_SUFFIXES and candidate.is_file():
                if candidate.resolve().is_relative_to(root):
                    pages.append(candidate)
            if len(pages) > MAX_PAGES:
                raise ConvertError(f"{path}: more than {MAX_PAGES} pages; crawl a smaller folder")
    return pages


def crawl_pages(paths: Iterable[str | Path], *, llm: Any = None) -> CrawlResult:
    """One OpenAPI document for the operations documented in the pages.

    Args:
        paths: HTML files or folders of them (local, pre-rendered pages).
        llm: an `openapi_rag.llm.LLM` for the enrichment stage; None keeps to the rule-based stages.

    Returns:
        The document, a report (operations, parameters per source, warnings) and validation findings.
    """
    from openapi_rag.crawl.enrich import enrich
    from openapi_rag.crawl.validate import validation_findings

    report = Report()
    scraped = []
    texts = []
    for file in find_pages(paths):
        page = read_page(file)
        report.pages += 1
        if page.truncated:
            report.warnings.append(f"{file}: page cut at its size limit; the rest was not read")
        result = scrape(page)
        if not result.operations:
            report.warnings.append(
                f"{file}: no API operations found (no request samples or METHOD /path lines)"
            )
        if llm is not None:
            enrich(result, llm, report)
        scraped.append(result)
        texts.append(" ".join(b.text or " ".join(" ".join(r) for r in b.rows) for b in page.blocks))
    document = build_document(scraped, "\n".join(texts), report)
    findings = validation_findings(document)
    if findings and llm is not None:
        from openapi_rag.crawl.repair import repair_document

        document, findings, calls = repair_document(document, findings, llm)
        if calls and not findings:
            report.warnings.append(f"the LLM repaired the document ({calls} calls)")
    return CrawlResult(document, report, findings)


__all__ = ["CrawlResult", "Report", "crawl_pages", "find_pages"]
