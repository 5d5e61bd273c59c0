"""Table chunks stored in an API index, beside its operation chunks (`index --db`, `schema index`).

An index directory gains `tables/schema.json`: the tables with their descriptions, enums and the
operations each came from (what `sql`/`ask --index` read instead of deriving again). The table
chunks (one `Chunk` of kind `table` per table, the text retrieval and an LLM read) are made from
it when read (`retrieve.table_chunks`), so they can never disagree with it; indexes written before
also hold a `chunks.jsonl` of them, which nothing reads. The tables live in their own folder
rather than in the vector store, so endpoint search never returns them and its BM25 statistics
do not change; `Index.save` carries the folder over when the API chunks are re-indexed. Written
under the index's writer lock and swapped in whole (`atomic_dir`).
"""

from __future__ import annotations

import json
from pathlib import Path

from openapi_rag.generate.sql.retrieve import table_chunks
from openapi_rag.generate.sql.schema import DbSchema, SqlError
from openapi_rag.index.manifest import MANIFEST_JSON
from openapi_rag.model import Chunk
from openapi_rag.store.atomic import atomic_dir, resolve_dir, resolve_optional_dir
from openapi_rag.store.lock import writer_lock

TABLES_DIR = "tables"
SCHEMA_JSON = "schema.json"


def save_tables(index_dir: str | Path, schema: DbSchema, *, wait: bool = False) -> int:
    """Store `schema`'s tables in the index at `index_dir`; returns the table count.

    Raises:
        IndexNotFound: no index there (build it with `openapi-rag index` first).
        IndexLocked: another process is writing the index (and `wait` is off).
    """
    directory = Path(index_dir)
    with writer_lock(directory, wait=wait):
        resolve_dir(directory, required=(MANIFEST_JSON,))
        with atomic_dir(directory / TABLES_DIR) as tmp:
            data = {"source": schema.source, **schema.to_dict()}
            (tmp / SCHEMA_JSON).write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    return len(schema.tables)


def _tables_dir(index_dir: str | Path) -> Path | None:
    """The index's `tables/`, or the previous one where a `save_tables` was cut off between the
    swap's two renames (None: the index holds no tables)."""
    directory = resolve_dir(index_dir, required=(MANIFEST_JSON,))
    return resolve_optional_dir(directory / TABLES_DIR, locked_by=index_dir)


def load_tables(index_dir: str | Path) -> DbSchema | None:
    """The tables stored in the index, or None when it holds none.

    Raises:
        IndexNotFound: no index there.
        SqlError: `tables/schema.json` cannot be read (the file is named).
    """
    tables = _tables_dir(index_dir)
    path = tables / SCHEMA_JSON if tables is not None else None
    if path is None or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return DbSchema.from_dict(data, str(data.get("source") or path))
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise SqlError(f"{path}: not the table records of `openapi-rag schema index` ({exc})") from exc


def load_table_chunks(index_dir: str | Path) -> list[Chunk]:
    """The stored tables' chunks (kind `table`), in table order; none when the index holds no tables.

    Raises:
        IndexNotFound: no index there.
        SqlError: `tables/schema.json` cannot be read (the file is named).
    """
    tables = load_tables(index_dir)
    return table_chunks(tables) if tables is not None else []


def with_index_tables(schema: DbSchema, tables: DbSchema) -> list[str]:
    """Give `schema` (the database that runs the SQL) the descriptions, enums and sources the index
    holds for its tables; returns the index's tables the database lacks (the SQL cannot use them)."""
    for table in schema.tables:
        stored = tables.table(table.name)
        if stored is None:
            continue
        table.description = stored.description or table.description
        table.source = stored.source or table.source
        for column in table.columns:
            match = stored.column(column.name)
            if match is not None:
                column.description = match.description or column.description
                column.enum = match.enum or column.enum
                column.format = match.format or column.format
    return [t.name for t in tables.tables if schema.table(t.name) is None]
