"""The searchable index: build (incrementally) from files, save, open, search, show."""

from openapi_rag.index.index import DEFAULT_STRATEGY, Index, OperationNotFound
from openapi_rag.index.update import UpdateReport, build_index

__all__ = ["DEFAULT_STRATEGY", "Index", "OperationNotFound", "UpdateReport", "build_index"]
