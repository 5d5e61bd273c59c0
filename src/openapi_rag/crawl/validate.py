"""Validation of a generated document with openapi-spec-validator."""

from __future__ import annotations

from typing import Any


def validation_findings(document: dict[str, Any], *, limit: int = 50) -> list[str]:
    """openapi-spec-validator findings as `where: message` lines (empty when the document is valid)."""
    from openapi_spec_validator import OpenAPIV30SpecValidator

    findings = []
    for error in OpenAPIV30SpecValidator(document).iter_errors():
        where = "/".join(str(part) for part in getattr(error, "path", ()))
        message = str(error.message).splitlines()[0][:300]
        findings.append(f"{where}: {message}" if where else message)
        if len(findings) >= limit:
            break
    return findings
