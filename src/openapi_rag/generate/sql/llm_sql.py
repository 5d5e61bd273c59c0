"""The LLM side of SQL: table retrieval policies (rag, self-rag, corag) and the `llm` generator.

Policies choose the tables the generator sees, as the study's policies choose documentation, and
they are the very policies of API search (`agents.policies`), told that their hits are tables:
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

from openapi_rag.agents.policies import CoRAG, PolicyResult, SelfRAGFilter, Subject, parse_json_object
from openapi_rag.generate.sql.retrieve import TableHit, rank_tables
from openapi_rag.generate.sql.schema import DbSchema, SqlError
from openapi_rag.llm.base import LLM, Usage, structured_output

POLICIES = ("rag", "self-rag", "corag")
TOP_TABLES = 5
SQL_SCHEMA = {
    "type": "object",
    "properties": {
        "sql": {"type": "string"},
        # Bounded: a small model under a grammar otherwise repeats table names until max_tokens.
        "tables": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
    },
    "required": ["sql", "tables"],
}
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
_SQL_VALUE = re.compile(r'"sql"\s*:\s*"((?:[^"\\]|\\.)*)"', re.S)


def table_name(text: str) -> str | None:
    """A table as an LLM names it (`"Albums"`, `main.albums`, `` `albums` ``) → the lower-case name."""
    name = text.strip().strip("`\"'[] ").rsplit(".", 1)[-1].strip("`\"'[] ")
    return name.lower() or None


TABLES = Subject("database table", "database tables", "tables", "table", table_name)
"""What the shared policies retrieve and judge for SQL."""


@dataclass
class LlmTrace:
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    parse_failures: int = 0
    stop: str = ""  # how the policy ended (`PolicyResult.stop`), when one ran

    def add(self, result: PolicyResult) -> None:
        self.usage = self.usage + result.usage
        self.calls += result.calls
        self.parse_failures += result.parse_failures
        self.stop = result.stop

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "calls": self.calls,
            "parse_failures": self.parse_failures,
            "tokens": self.usage.total_tokens,
        }
        if self.stop:
            out["policy_stop"] = self.stop
        return out


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
    """The tables the generator sees under `policy` (`agents.policies` over `rank_tables`)."""
    if policy not in POLICIES:
        raise SqlError(f"unknown policy {policy!r}: use one of {', '.join(POLICIES)}")

    def search(query: str, n: int) -> list[TableHit]:
        return rank_tables(query, schema, context=context, index=index, k=n)

    if policy == "rag":
        return search(request, k)
    if llm is None:
        raise SqlError(f"--policy {policy} needs an LLM (--llm NAME or OPENAPI_RAG_LLM)")
    if policy == "self-rag":
        result = SelfRAGFilter(llm, subject=TABLES).filter(request, search(request, k))
    else:
        result = CoRAG(llm, search, k=k, subject=TABLES).run(request)
    if trace is not None:
        trace.add(result)
    return list(result.hits)


def generate_llm(
    request: str, tables: list[TableHit], llm: LLM, trace: LlmTrace | None = None
) -> tuple[str, list[str]]:
    """(sql, tables named) from the LLM; ("", []) when it says no table answers."""
    trace = trace if trace is not None else LlmTrace()
    context = "\n\n".join(h.summary for h in tables) or "(no tables)"
    response = llm.chat(
        [
            {"role": "system", "content": SYSTEM},
            {
                "role": "user",
                "content": f"{EXAMPLE}Now the real request.\nTables:\n{context}\n\nRequest: {request}\n"
                'Answer as JSON: {"sql": "...", "tables": ["table", ...]}',
            },
        ],
        max_tokens=256,
        temperature=0.0,
        **structured_output(llm, "sql_query", SQL_SCHEMA),
    )
    trace.usage = trace.usage + response.usage
    trace.calls += 1
    reply = response.text
    obj = parse_json_object(reply)
    if obj is not None and isinstance(obj.get("sql"), str):
        named = [str(t) for t in obj.get("tables") or [] if isinstance(t, str)]
        return obj["sql"].strip(), named
    trace.parse_failures += 1
    # A reply cut off after its "sql" value (out of tokens) still holds the statement.
    value = _SQL_VALUE.search(reply)
    if value is not None:
        try:
            return json.loads(f'"{value.group(1)}"').strip(), []
        except ValueError:
            pass
    fenced = re.search(r"```(?:sql)?\s*(.+?)```", reply, re.S | re.I)
    text = fenced.group(1) if fenced else reply
    match = re.search(r"\b(SELECT|WITH)\b.*", text, re.S | re.I)
    return (match.group(0).strip() if match else ""), []
