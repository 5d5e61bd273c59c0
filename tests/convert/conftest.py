from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from openapi_rag.convert import postman_to_openapi
from openapi_rag.model import Problem

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SCHEMA_V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

Converted = tuple[dict[str, Any], list[Problem]]


def _convert(collection: dict[str, Any], source: str | None = None) -> Converted:
    problems: list[Problem] = []
    doc = postman_to_openapi(collection, source=source, problems=problems)
    validate(doc)  # every converted document must be valid OpenAPI
    return doc, problems


@pytest.fixture
def fixture_path() -> Callable[[str], Path]:
    return lambda name: FIXTURES / name


@pytest.fixture
def convert_fixture() -> Callable[[str], Converted]:
    """Convert a collection from tests/convert/fixtures and check the result validates."""

    def run(name: str) -> Converted:
        return _convert(json.loads((FIXTURES / name).read_text(encoding="utf-8")), source=name)

    return run


@pytest.fixture
def convert_items() -> Callable[..., Converted]:
    """Convert a small v2.1 collection built in the test from its items (and extra top-level keys)."""

    def run(items: list[dict[str, Any]], **top: Any) -> Converted:
        collection = {"info": {"name": "T", "schema": SCHEMA_V21}, "item": items, **top}
        return _convert(collection)

    return run
