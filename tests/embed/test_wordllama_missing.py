"""Without the `static` extra, `wordllama` says how to install it (and listing embedders needs nothing)."""

from __future__ import annotations

import importlib.util

import pytest

from openapi_rag.embed import get_embedder, list_embedders
from openapi_rag.errors import MissingDependency


def test_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "wordllama" else real(name, *a)
    )
    assert "wordllama" in list_embedders()
    with pytest.raises(MissingDependency, match=r'pip install "openapi-rag\[static\]"'):
        get_embedder("wordllama")
