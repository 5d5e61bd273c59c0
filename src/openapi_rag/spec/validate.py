"""Validation report with `openapi-spec-validator`: findings are listed, never fatal.

Providers publish invalid descriptions (duplicate operationIds, `$ref` in tag descriptions) that are
still perfectly useful for discovery, so validation only reports.
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

from openapi_rag.spec.parse import load_file

_VALIDATORS: dict[str, Any] = {
    "swagger2": OpenAPIV2SpecValidator,
    "oas30": OpenAPIV30SpecValidator,
    "oas31": OpenAPIV31SpecValidator,
    "oas32": OpenAPIV32SpecValidator,
}


def validate_document(
    doc: dict[str, Any], format: str, *, base_uri: str = "", max_errors: int = 50
) -> list[str]:
    """Up to `max_errors` findings, each `message @ location`."""
    validator_cls = _VALIDATORS.get(format)
    if validator_cls is None:
        return []
    findings = []
    try:
        for error in validator_cls(doc, base_uri=base_uri).iter_errors():
            where = "/".join(str(p) for p in getattr(error, "path", []) or [])
            message = error.message if len(error.message) <= 200 else error.message[:197] + "..."
            findings.append(f"{message} @ {where or '/'}")
            if len(findings) >= max_errors:
                findings.append(f"... stopped after {max_errors} findings")
                break
    except RecursionError:
        findings.append("validator gave up: schema recursion too deep")
    except Exception as exc:  # the validator itself chokes on some real documents
        findings.append(f"validator failed: {type(exc).__name__}: {str(exc)[:200]}")
    return findings


def validate_file(path: str | Path, format: str, *, max_errors: int = 50) -> list[str]:
    """Validate the entry document at `path`, following its relative `$ref`s."""
    path = Path(path).resolve()
    return validate_document(load_file(path), format, base_uri=path.as_uri(), max_errors=max_errors)
