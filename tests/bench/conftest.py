from __future__ import annotations

from pathlib import Path

import pytest

from openapi_rag.bench import Dataset, load_dataset

CATALOG = Path(__file__).parent / "fixtures" / "catalog"


@pytest.fixture
def catalog() -> Dataset:
    return load_dataset("jsonl", CATALOG)
