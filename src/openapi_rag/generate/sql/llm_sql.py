"""The LLM side of SQL: table retrieval policies (rag, self-rag, corag) and the `llm` generator.

Policies choose the tables the generator sees, as the study's policies choose documentation:
- `rag`: the top tables of `rank_tables`.
- `self-rag`: those, each judged by the LLM (a 0–1 score); under 0.2 dropped, an unreadable reply
  keeps its table (a confused model never empties the context).
- `corag`: up to three rounds of an LLM-written sub-query, its top tables, and an LLM judgement of
  which are relevant and whether they suffice.

The generator asks for `{"sql": "...", "tables": [...]}`, constrained by a JSON schema where the
model takes one (llama.cpp makes even a 135M model answer in that form); the reply is then checked
like any other SQL (`safety.parse_select`) before anything runs.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.agents.policies import (
    CORAG_BUDGET,
    JUDGE_SCHEMA,
    QUERY_SCHEMA,
    SELF_RAG_THRESHOLD,
    parse_json_object,
    parse_score,
)
from openapi_rag.generate.sql.retrieve import TableHit, rank_tables
from openapi_rag.generate.sql.schema import DbSchema, SqlError
from openapi_rag.llm.base import LLM, Usage, structured_output

POLICIES = ("rag", "self-rag", "corag")
TOP_TABLES = 5
CORAG_ROUNDS = CORAG_BUDGET
SQL_SCHEMA = {
    "type": "object",
    "properties": {"sql": {"type": "string"}, "tables": {"type": "array", "items": {"type": "string"}}},
    "required": ["sql", "tables"],
}
SCORE_SCHEMA = {"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]}
SYSTEM = (
    "You write one SQLite SELECT statement that answers the user's request from the tables given. "
    "Use only those tables and columns. If none of them can answer the request, answer with an empty sql."
)
# One worked example in a domain of its own: small models copy the form, large ones ignore it.
EXAMPLE = (
    "Example.\nTables:\nTable books: Books in the catalog\n- id INTEGER\n- title TEXT\n- pages INTEGER\n"
    "Request: How many books have more than 300 pages?\n"
    'Answer: {"sql": "SELECT COUNT(*) FROM books WHERE pages > 300", "tables": ["books"]}\n\n'
)


@dataclass
class LlmTrace:
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    parse_failures: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"calls": self.calls, "parse_failures": self.parse_failures, "tokens": self.usage.total_tokens}


def _ask(
    llm: LLM, trace: LlmTrace, system: str, prompt: str, name: str, schema: dict[str, Any], max_tokens: int
) -> str:
    response = llm.chat(
        [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
        max_tokens=max_tokens,
        temperature=0.0,
        **structured_output(llm, name, schema),
    )
    trace.usage = trace.usage + response.usage
    trace.calls += 1
    return response.text


def select_tables(
    request: str,
    schema: DbSchema,
    *,
    policy: str = "rag",
    context: str = "db",
    index: Any = None,
    llm: LLM | None = None,
    k: int = TOP_TABLES,
    trace: LlmTrace | None = None,
) -> list[TableHit]:
    """The tables the generator sees under `policy`."""
    if policy not in POLICIES:
        raise SqlError(f"unknown policy {policy!r}: use one of {', '.join(POLICIES)}")
    trace = trace if trace is not None else LlmTrace()
    hits = rank_tables(request, schema, context=context, index=index, k=k)
    if policy == "rag":
        return hits
    if llm is None:
        raise SqlError(f"--policy {policy} needs an LLM (--llm NAME or OPENAPI_RAG_LLM)")
    if policy == "self-rag":
        kept = []
        for hit in hits:
            reply = _ask(
                llm,
                trace,
                "You judge whether database tables can answer a user's request.",
                f"Request: {request}\nTable:\n{hit.summary}\n\nCan this table help answer the request? "
                'Answer with a relevance score between 0 and 1 as JSON, for example {"score": 0.8}.',
                "relevance",
                SCORE_SCHEMA,
                32,
            )
            score = parse_score(reply)
            if score is None:
                trace.parse_failures += 1
            if score is None or score >= SELF_RAG_THRESHOLD:
                kept.append(hit)
        return kept
    return _corag(request, schema, llm, trace, context=context, index=index, k=k)


def _corag(
    request: str, schema: DbSchema, llm: LLM, trace: LlmTrace, *, context: str, index: Any, k: int
) -> list[TableHit]:
    found: list[TableHit] = []
    asked: list[str] = []
    for _ in range(CORAG_ROUNDS):
        have = ", ".join(h.table.name for h in found) or "nothing yet"
        reply = _ask(
            llm,
            trace,
            "You find the database tables a user's request needs.",
            f"Request: {request}\nTables found so far: {have}\nSearches done: {json.dumps(asked)}\n\n"
            'Write one short search query for the part of the request not covered yet. Answer as JSON: {"query": "..."}',
            "sub_query",
            QUERY_SCHEMA,
            64,
        )
        obj = parse_json_object(reply)
        query = obj.get("query") if obj else None
        if not isinstance(query, str) or not query.strip():
            trace.parse_failures += 1
            query = request if not asked else ""
        if not query.strip() or query in asked:
            break
        asked.append(query)
        round_hits = rank_tables(query, schema, context=context, index=index, k=k)
        listing = "\n\n".join(h.summary for h in round_hits) or "no tables"
        reply = _ask(
            llm,
            trace,
            "You find the database tables a user's request needs.",
            f"Request: {request}\nRetrieved tables:\n{listing}\n\nWhich of these tables does the request need, "
            'and do the tables found so far suffice? Answer as JSON: {"relevant": ["table", ...], "enough": true or false}',
            "judgement",
            JUDGE_SCHEMA,
            128,
        )
        obj = parse_json_object(reply)
        if obj is None or not isinstance(obj.get("relevant"), list):
            trace.parse_failures += 1
            relevant = {h.table.name.lower() for h in round_hits}
            enough = False
        else:
            relevant = {str(x).strip().lower() for x in obj["relevant"]}
            enough = obj.get("enough") is True
        for hit in round_hits:
            if hit.table.name.lower() in relevant and all(h.table is not hit.table for h in found):
                found.append(hit)
        if enough:
            break
    return found


def generate_llm(
    request: str, tables: list[TableHit], llm: LLM, trace: LlmTrace | None = None
) -> tuple[str, list[str]]:
    """(sql, tables named) from the LLM; ("", []) when it says no table answers."""
    trace = trace if trace is not None else LlmTrace()
    context = "\n\n".join(h.summary for h in tables) or "(no tables)"
    reply = _ask(
        llm,
        trace,
        SYSTEM,
        f"{EXAMPLE}Now the real request.\nTables:\n{context}\n\nRequest: {request}\n"
        'Answer as JSON: {"sql": "...", "tables": ["table", ...]}',
        "sql_query",
        SQL_SCHEMA,
        256,
    )
    obj = parse_json_object(reply)
    if obj is not None and isinstance(obj.get("sql"), str):
        named = [str(t) for t in obj.get("tables") or [] if isinstance(t, str)]
        return obj["sql"].strip(), named
    trace.parse_failures += 1
    fenced = re.search(r"```(?:sql)?\s*(.+?)```", reply, re.S | re.I)
    text = fenced.group(1) if fenced else reply
    match = re.search(r"\b(SELECT|WITH)\b.*", text, re.S | re.I)
    return (match.group(0).strip() if match else ""), []
