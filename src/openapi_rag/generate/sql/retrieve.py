"""Which tables a request is about: table chunks searched on their own (`db`), through the API
operations the index finds (`api`), or both (`hybrid`), the documentation contexts of the study.

A table chunk is one text per table (name, description, columns with types, descriptions and
enums): what an LLM generator reads, and what `db` retrieval matches. Matching is by the schema's
own words (a table's name counts most, then its columns' names, then descriptions), because a
table is named by few words and the request usually says them; `api` retrieval uses the index's
search over operations (`Index.search`) and maps each operation to the tables it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from openapi_rag.generate.sql.schema import DbSchema, SqlError, Table
from openapi_rag.generate.sql.words import content_words, same, split_name
from openapi_rag.model import Chunk

CONTEXTS = ("db", "api", "hybrid")
NAME_WEIGHT, COLUMN_WEIGHT, DESCRIPTION_WEIGHT = 3.0, 1.0, 0.3


@dataclass
class TableHit:
    table: Table
    score: float

    @property
    def id(self) -> str:
        return self.table.name

    @property
    def summary(self) -> str:
        return self.table.to_text()


def table_chunks(schema: DbSchema) -> list[Chunk]:
    """One chunk per table, to index or show beside the API's operation chunks."""
    return [
        Chunk(
            id=f"table:{t.name}",
            kind="table",
            service=str(t.source.get("service", "")),
            operations=list(t.source.get("operations", [])),
            embed_text=t.to_text(),
            content=t.to_text(),
        )
        for t in schema.tables
    ]


def _lexical(request: str, table: Table) -> float:
    asked = content_words(request)
    if not asked:
        return 0.0
    score = 0.0
    name = split_name(table.name)
    score += NAME_WEIGHT * sum(1 for w in asked if any(same(w, n) for n in name))
    column_words = {p for c in table.columns for p in split_name(c.name)}
    score += COLUMN_WEIGHT * sum(1 for w in asked if any(same(w, p) for p in column_words))
    described = set(content_words(table.description))
    score += DESCRIPTION_WEIGHT * sum(1 for w in asked if w in described)
    return score


def rank_tables(
    request: str, schema: DbSchema, *, context: str = "db", index: Any = None, k: int | None = None
) -> list[TableHit]:
    """Tables by relevance to the request, best first (ties by name); only those scoring above 0."""
    if context not in CONTEXTS:
        raise SqlError(f"unknown context {context!r}: use one of {', '.join(CONTEXTS)}")
    scores: dict[str, float] = {}
    if context in ("db", "hybrid"):
        lexical = {t.name: _lexical(request, t) for t in schema.tables}
        top = max(lexical.values(), default=0.0) or 1.0
        for name, value in lexical.items():
            scores[name] = scores.get(name, 0.0) + value / top
    if context in ("api", "hybrid"):
        if index is None:
            raise SqlError(f"--context {context} needs --index (the API operations to search)")
        for name, value in _through_operations(request, schema, index).items():
            scores[name] = scores.get(name, 0.0) + value
    ranked = sorted(
        (TableHit(t, scores.get(t.name, 0.0)) for t in schema.tables if scores.get(t.name, 0.0) > 0),
        key=lambda hit: (-hit.score, hit.table.name),
    )
    return ranked[:k] if k else ranked


def _through_operations(request: str, schema: DbSchema, index: Any) -> dict[str, float]:
    """Each table scored by the best-ranked operation that returns it (its path's nouns, lacking sources)."""
    hits = index.search(request, k=10)
    top = max((h.score for h in hits), default=0.0) or 1.0
    scores: dict[str, float] = {}
    for hit in hits:
        for table in schema.tables:
            operations = table.source.get("operations") or []
            if operations:
                match = hit.id in operations
            else:
                nouns = [s for s in hit.path.split("/") if s and not s.startswith("{")]
                match = any(same(n, split_name(table.name)[-1]) for n in nouns)
            if match:
                scores[table.name] = max(scores.get(table.name, 0.0), hit.score / top)
    return scores
