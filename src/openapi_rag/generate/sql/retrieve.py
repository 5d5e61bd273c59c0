"""Which tables a request is about: table chunks searched on their own (`db`), through the API
operations the index finds (`api`), or both (`hybrid`), the documentation contexts of the study.

A table chunk is one text per table (name, description, columns with types, descriptions and
enums): what an LLM generator reads, and what `db` retrieval matches. Matching is by the schema's
own words (a table's name counts most, then its columns' names, then descriptions), because a
table is named by few words and the request usually says them; `api` retrieval uses the index's
search over operations (`Index.search`) and maps each operation to the tables it returns.

What a hit shows (`TableHit.summary`: what the policies judge and the LLM generator reads) follows
the context too, as the study's documentation contexts: `db` the table chunk, `api` the chunks of
the operations that return the table (their responses), `hybrid` both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.generate.sql.schema import DbSchema, SqlError, Table
from openapi_rag.generate.sql.words import content_words, same, split_name
from openapi_rag.model import Chunk

CONTEXTS = ("db", "api", "hybrid")
NAME_WEIGHT, COLUMN_WEIGHT, DESCRIPTION_WEIGHT = 3.0, 1.0, 0.3
OPERATION_DOC_CHARS = 900  # one operation's documentation in an `api` context, at most
OPERATIONS_PER_TABLE = 2


@dataclass
class TableHit:
    table: Table
    score: float
    context: str = "db"
    operations: list[str] = field(default_factory=list)  # the API documentation reaching it (api, hybrid)

    @property
    def id(self) -> str:
        return self.table.name

    @property
    def summary(self) -> str:
        """The table's documentation in its context: its chunk, its operations' chunks, or both."""
        if self.context == "db" or not self.operations:
            return self.table.to_text()
        api = f"Table {self.table.name} holds what these API operations return:\n" + "\n".join(
            self.operations
        )
        return api if self.context == "api" else f"{self.table.to_text()}\n{api}"


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
    docs: dict[str, list[str]] = {}
    if context in ("db", "hybrid"):
        lexical = {t.name: _lexical(request, t) for t in schema.tables}
        top = max(lexical.values(), default=0.0) or 1.0
        for name, value in lexical.items():
            scores[name] = scores.get(name, 0.0) + value / top
    if context in ("api", "hybrid"):
        if index is None:
            raise SqlError(f"--context {context} needs --index (the API operations to search)")
        for name, (value, texts) in _through_operations(request, schema, index).items():
            scores[name] = scores.get(name, 0.0) + value
            docs[name] = texts
    ranked = sorted(
        (
            TableHit(t, scores.get(t.name, 0.0), context, docs.get(t.name, []))
            for t in schema.tables
            if scores.get(t.name, 0.0) > 0
        ),
        key=lambda hit: (-hit.score, hit.table.name),
    )
    return ranked[:k] if k else ranked


def _through_operations(request: str, schema: DbSchema, index: Any) -> dict[str, tuple[float, list[str]]]:
    """Each table scored by the best-ranked operation that returns it (its path's nouns, lacking
    sources), with the documentation of the best of those operations."""
    hits = index.search(request, k=10)
    top = max((h.score for h in hits), default=0.0) or 1.0
    scores: dict[str, float] = {}
    docs: dict[str, list[str]] = {}
    for hit in hits:
        doc = None  # the hit's documentation, read once however many tables it returns
        for table in schema.tables:
            operations = table.source.get("operations") or []
            if operations:
                match = hit.id in operations
            else:
                nouns = [s for s in hit.path.split("/") if s and not s.startswith("{")]
                match = any(same(n, split_name(table.name)[-1]) for n in nouns)
            if match:
                scores[table.name] = max(scores.get(table.name, 0.0), hit.score / top)
                texts = docs.setdefault(table.name, [])
                if len(texts) < OPERATIONS_PER_TABLE:
                    doc = doc if doc is not None else operation_documentation(index, hit)
                    texts.append(doc)
    return {name: (score, docs[name]) for name, score in scores.items()}


def operation_documentation(index: Any, hit: Any) -> str:
    """An operation as its index chunk documents it: the line, summary and the success responses
    (what a table is derived from), cut to `OPERATION_DOC_CHARS`; the chunk text as it is otherwise."""
    chunks = index.store.get(list(hit.chunk_ids[:1])) if getattr(hit, "chunk_ids", ()) else []
    text = chunks[0].content if chunks else f"{hit.id}: {getattr(hit, 'summary', '')}"
    head, _, body = text.partition("\n")
    try:
        operation = json.loads(body)
    except ValueError:
        operation = None
    if isinstance(operation, dict):
        about = " ".join(str(operation.get(k) or "") for k in ("summary", "description")).split()
        responses = operation.get("responses") if isinstance(operation.get("responses"), dict) else {}
        success = {code: r for code, r in responses.items() if str(code).startswith("2")}
        text = f"{head}: {' '.join(about)[:200]}\nresponses: {json.dumps(success, ensure_ascii=False)}"
    text = " ".join(text.split()) if len(text) > OPERATION_DOC_CHARS else text
    return text if len(text) <= OPERATION_DOC_CHARS else text[: OPERATION_DOC_CHARS - 1] + "…"
