"""The public names: every one in __all__ resolves, and importing the package stays light."""

from __future__ import annotations

import subprocess
import sys

import openapi_rag


def test_every_public_name_resolves():
    for name in openapi_rag.__all__:
        assert getattr(openapi_rag, name) is not None, name


def test_import_does_not_load_heavy_dependencies():
    heavy = "('faiss', 'onnxruntime', 'bm25s', 'scipy')"
    code = f"import sys, openapi_rag; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
