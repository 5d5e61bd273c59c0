"""Loading API descriptions: discovery, parsing, Swagger 2 conversion, bundling, extraction."""

from openapi_rag.spec.discover import discover
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.load import FORMATS, LoadFailure, LoadResult, detect_format, load_service, load_services

__all__ = [
    "FORMATS",
    "LoadFailure",
    "LoadResult",
    "ReadLimits",
    "detect_format",
    "discover",
    "load_service",
    "load_services",
]
