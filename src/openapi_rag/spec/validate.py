"""Validation report with `openapi-spec-validator`: findings are listed, never fatal.

Providers publish invalid descriptions (duplicate operationIds, `$ref` in tag descriptions) that are
still perfectly useful for discovery, so validation only reports.

The validator would follow `$ref`s itself, over HTTP and anywhere on disk. It is given the document
our own bundler produced instead (local references resolved inside the allowed folders, remote ones
left as they are), and resolver handlers that refuse every URI, so validating never reads a file or
contacts a host that loading would not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from openapi_spec_validator import (
    OpenAPIV2SpecValidator,
    OpenAPIV30SpecValidator,
    OpenAPIV31SpecValidator,
    OpenAPIV32SpecValidator,
)

from openapi_rag.refs.bundle import bundle
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.parse import load_file


class RemoteRefRefused(Exception):
    """The validator tried to follow a reference to another document."""


def _refuse(uri: str) -> Any:
    raise RemoteRefRefused(f"$ref {uri} not fetched")


_NO_FETCH = {"<all_urls>": _refuse, "http": _refuse, "https": _refuse, "file": _refuse}


def _offline(cls: type) -> type:
    return type(f"Offline{cls.__name__}", (cls,), {"resolver_handlers": _NO_FETCH})


_VALIDATORS: dict[str, Any] = {
    "swagger2": _offline(OpenAPIV2SpecValidator),
    "oas30": _offline(OpenAPIV30SpecValidator),
    "oas31": _offline(OpenAPIV31SpecValidator),
    "oas32": _offline(OpenAPIV32SpecValidator),
}


def validate_document(doc: dict[str, Any], format: str, *, max_errors: int = 50) -> list[str]:
    """Up to `max_errors` findings, each `message @ location`; references outside `doc` are not followed."""
    validator_cls = _VALIDATORS.get(format)
    if validator_cls is None:
        return []
    findings = []
    try:
        for error in validator_cls(doc).iter_errors():
            where = "/".join(str(p) for p in getattr(error, "path", []) or [])
            message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
            findings.append(f"{message} @ {where or '/'}")
            if len(findings) >= max_errors:
                findings.append(f"... stopped after {max_errors} findings")
                break
    except RecursionError:
        findings.append("validator gave up: schema recursion too deep")
    except Exception as exc:  # the validator itself chokes on some real documents
        refused = next((e for e in _chain(exc) if isinstance(e, RemoteRefRefused)), None)
        if refused is not None:
            findings.append(f"validation stopped: {refused} (remote references are never fetched)")
        else:
            findings.append(f"validator failed: {type(exc).__name__}: {str(exc)[:200]}")
    return findings


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in out:
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def validate_file(
    path: str | Path, format: str, *, max_errors: int = 50, limits: ReadLimits | None = None
) -> list[str]:
    """Validate the entry document at `path` with its local `$ref`s bundled within `limits`."""
    path = Path(path)
    limits = ReadLimits.from_env() if limits is None else limits
    doc = load_file(path, limits=limits)
    section = ("definitions",) if format == "swagger2" else ("components", "schemas")
    return validate_document(bundle(path, doc, section, limits).document, format, max_errors=max_errors)
