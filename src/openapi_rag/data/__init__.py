"""Data shipped with the package: the example catalog used by `openapi-rag demo`."""

from pathlib import Path

CATALOG = Path(__file__).parent / "catalog"
