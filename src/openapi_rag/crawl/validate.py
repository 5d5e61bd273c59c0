"""Validation of a generated document with openapi-spec-validator."""

from __future__ import annotations

from typing import Any


def validation_findings(document: dict[str, Any], *, limit: int = 50) -> list[str]:
    """openapi-spec-validator findings (empty when the document is valid).

    Through `spec.validate.validate_document`, whose validators refuse every `$ref` that leaves the
    document: a crawled or LLM-drafted document must not make the tool fetch a URL or read a file.
    """
    from openapi_rag.spec.validate import validate_document

    return validate_document(document, "oas30", max_errors=limit)
