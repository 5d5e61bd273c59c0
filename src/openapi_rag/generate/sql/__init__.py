"""SQL over schemas derived from APIs: derive, fill, generate (offline or LLM), run safely, evaluate."""

from openapi_rag.generate.sql.database import load_db_schema, open_database
from openapi_rag.generate.sql.derive import derive_schema
from openapi_rag.generate.sql.fill import fill_database
from openapi_rag.generate.sql.schema import Column, DbSchema, SqlError, Table

__all__ = [
    "Column",
    "DbSchema",
    "SqlError",
    "Table",
    "derive_schema",
    "fill_database",
    "load_db_schema",
    "open_database",
]
