"""The chunk and vector factories of the store tests, shared."""

from tests.store.conftest import chunks, make_chunk, unit_rows

__all__ = ["chunks", "make_chunk", "unit_rows"]
