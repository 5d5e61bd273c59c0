"""Fixtures for the chunking tests: a small hand-written spec and the MiniLM tokenizer."""

from __future__ import annotations

from pathlib import Path

import pytest

from openapi_rag.model import Service
from openapi_rag.spec import load_service
from openapi_rag.tokens import Tokenizer, get_tokenizer

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def tok() -> Tokenizer:
    return get_tokenizer("minilm")


@pytest.fixture
def campaigns() -> Service:
    """Three operations, four schemas (User refers to itself and to Campaign), two auth schemes."""
    return load_service(FIXTURES / "campaigns.yaml")
