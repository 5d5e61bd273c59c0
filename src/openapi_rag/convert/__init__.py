"""Other API descriptions → OpenAPI: Postman collections (HTML documentation later)."""

from openapi_rag.convert.postman import is_postman_collection, postman_to_openapi

__all__ = ["is_postman_collection", "postman_to_openapi"]
