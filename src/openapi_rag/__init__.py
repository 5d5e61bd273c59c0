"""openapi-rag: endpoint discovery over OpenAPI descriptions."""

__version__ = "0.1.0"
