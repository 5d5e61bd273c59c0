"""Load API descriptions into `Service` records: parse → detect format → bundle → convert → clean → extract."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.errors import ConvertError, SpecError, UnsupportedSpecVersion
from openapi_rag.model import Problem, Service
from openapi_rag.refs.bundle import bundle
from openapi_rag.spec.discover import discover_entries
from openapi_rag.spec.extract import extract_service, report_dropped_input
from openapi_rag.spec.limits import ReadLimits, roots_of
from openapi_rag.spec.parse import load_file, yaml_lines
from openapi_rag.spec.swagger2 import convert_swagger2

logger = logging.getLogger(__name__)

FORMATS = ("swagger2", "oas30", "oas31", "oas32", "postman")


@dataclass
class LoadFailure:
    file: str
    error: str
    where: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "error": self.error, "where": self.where}


@dataclass
class LoadResult:
    services: list[Service] = field(default_factory=list)
    failed: list[LoadFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failed


def detect_format(doc: Any, file: Path) -> str:
    """`swagger2`, `oas30`, `oas31`, `oas32` or `postman`; raises when it is none of them."""
    if not isinstance(doc, dict):
        raise UnsupportedSpecVersion(
            f"top level is a {type(doc).__name__}, not an object with an `openapi` or `swagger` key",
            file=file,
        )
    if "openapi" in doc:
        version = str(doc["openapi"])
        for prefix, name in (("3.0", "oas30"), ("3.1", "oas31"), ("3.2", "oas32")):
            if version.startswith(prefix):
                return name
        raise UnsupportedSpecVersion(
            f"OpenAPI version {version!r} is not supported (3.0–3.2 are)", file=file, where="/openapi"
        )
    if "swagger" in doc:
        if str(doc["swagger"]).startswith("2"):
            return "swagger2"
        raise UnsupportedSpecVersion(
            f"Swagger version {doc['swagger']!r} is not supported (2.0 is)", file=file, where="/swagger"
        )
    from openapi_rag.convert.postman import is_postman_collection

    if is_postman_collection(doc):
        return "postman"
    keys = ", ".join(list(doc)[:5]) or "none"
    raise UnsupportedSpecVersion(
        f"not an API description: no top-level `openapi` or `swagger` key (keys: {keys})", file=file
    )


# Titles that say nothing about the service; the file name is a better id then (TMDB's title is "API").
_GENERIC_TITLES = {"", "api", "apis", "openapi", "swagger", "rest-api", "web-api", "openapi-spec"}


def slugify(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:60].strip("-")


def default_service_id(title: str, path: Path) -> str:
    slug = slugify(title)
    if slug in _GENERIC_TITLES:
        stem = (
            path.stem if path.stem.lower() not in ("openapi", "swagger", "spec", "api") else path.parent.name
        )
        slug = slugify(stem) or "api"
    return slug


def load_service(
    path: str | Path,
    *,
    clean: Iterable[str] | None = None,
    count_tokens: Callable[[str], int] | None = None,
    service_id: str | None = None,
    limits: ReadLimits | None = None,
) -> Service:
    """Load one API description (any supported format) into a `Service`.

    Args:
        path: the entry document (JSON or YAML); relative `$ref`s are read from beside it.
        clean: names of cleaning steps to apply (see `openapi_rag.clean`), none by default.
        count_tokens: counts tokens for the cleaning report; a simple counter when omitted.
        service_id: the id to give the service; derived from the title when omitted.
        limits: sizes, depths and the folders `$ref`s may read (`ReadLimits`); by default
            `ReadLimits.from_env()`, with `$ref`s confined to the entry document's folder.

    Raises:
        SpecError: the file cannot be read, parsed, or is not an API description;
            `LimitExceeded` when it goes past one of `limits`.
    """
    path = Path(path)
    limits = ReadLimits.from_env() if limits is None else limits
    try:
        return _load_service(path, clean, count_tokens, service_id, limits)
    except (RecursionError, MemoryError) as exc:  # the bounds should stop these first; never a corpus
        raise SpecError(f"too large or too deep to load ({type(exc).__name__})", file=path) from exc


def _load_service(
    path: Path,
    clean: Iterable[str] | None,
    count_tokens: Callable[[str], int] | None,
    service_id: str | None,
    limits: ReadLimits,
) -> Service:
    problems: list[Problem] = []
    doc = load_file(path, problems, limits)
    fmt = detect_format(doc, path)
    if fmt == "postman":
        from openapi_rag.convert.postman import postman_to_openapi

        try:
            doc = postman_to_openapi(doc, source=str(path), problems=problems, limits=limits)
        except ConvertError as exc:
            raise SpecError(getattr(exc, "reason", str(exc)), file=path, where=getattr(exc, "where", None)) from exc
    if "paths" not in doc and not doc.get("webhooks"):
        raise SpecError("missing required top-level `paths`", file=path, where="/paths")
    section = ("definitions",) if fmt == "swagger2" else ("components", "schemas")
    bundled = bundle(path, doc, section, limits)
    problems += bundled.problems
    dropped: list[Problem] = []
    report_dropped_input(bundled.document, str(path), dropped)
    if dropped:  # say the line too, where the pointer is written in the entry document itself
        lines = yaml_lines(path, [p.where for p in dropped if p.where], limits)
        for problem in dropped:
            if problem.where in lines:
                problem.where = f"{problem.where} (line {lines[problem.where]})"
    problems += dropped
    document = convert_swagger2(bundled.document) if fmt == "swagger2" else bundled.document
    cleaning: dict[str, int] = {}
    steps = list(clean or [])
    if steps:
        from openapi_rag.clean import clean_document

        document, cleaning = clean_document(document, steps, count_tokens)
    info = document.get("info") if isinstance(document.get("info"), dict) else {}
    title = info.get("title") if isinstance(info.get("title"), str) else ""
    service = extract_service(
        document,
        service_id=service_id or default_service_id(title, path),
        file=str(path),
        format=fmt,
        problems=problems,
    )
    service.files = bundled.files
    service.cleaning = cleaning
    return service


def load_services(
    paths: Iterable[str | Path],
    *,
    clean: Iterable[str] | None = None,
    count_tokens: Callable[[str], int] | None = None,
    progress: Callable[[Path], None] | None = None,
    limits: ReadLimits | None = None,
    allow_refs: Iterable[str | Path] = (),
) -> LoadResult:
    """Load every API description under `paths` (files or folders, searched recursively).

    One bad document never stops the rest: it is recorded in `failed` with the reason, and so is
    a file the search skipped (not a regular file, too large, a link leading outside) or a folder
    holding no API description. Service ids are made unique across the result (`title-slug`,
    `title-slug-2`, ...). Local `$ref`s read only inside the folders given in `paths` (a file's own
    folder) and `allow_refs`, unless `limits.roots` names the folders.
    """
    paths = list(paths)
    limits = ReadLimits.from_env() if limits is None else limits
    if not limits.roots:
        limits = limits.with_roots(roots_of(paths, allow_refs))
    result = LoadResult()
    steps = list(clean or [])
    taken: set[str] = set()
    found = discover_entries(paths, limits)
    result.failed += [LoadFailure(str(s.path), s.reason) for s in found.skipped]
    for file in found.entries:
        try:
            service = load_service(file, clean=steps, count_tokens=count_tokens, limits=limits)
        except SpecError as exc:
            result.failed.append(LoadFailure(str(file), exc.reason, exc.where))
        except Exception as exc:  # one broken document must not stop a corpus
            if os.environ.get("OPENAPI_RAG_RAISE_ERRORS"):
                raise
            logger.exception("unexpected error loading %s", file)
            result.failed.append(LoadFailure(str(file), f"internal error: {type(exc).__name__}: {exc}"))
        else:
            service.id = unique_id(service.id, taken)
            for op in service.operations:
                op.service = service.id
            result.services.append(service)
        if progress is not None:
            progress(file)
    return result


def unique_id(name: str, taken: set[str]) -> str:
    """`name`, or `name-2`, `name-3`, ... whichever is not in `taken` (which it is added to)."""
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}-{n}", n + 1
    taken.add(candidate)
    return candidate
