"""`ask`: classify a request, then answer a read with SQL and a change with an API call.

A change request is answered by the API-call generator (`openapi_rag.generate.call.generate_call`)
over the index: the operation, the filled path, query and body.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from openapi_rag.generate.sql.answer import answer_sql
from openapi_rag.generate.sql.classify import classify
from openapi_rag.generate.sql.schema import DbSchema
from openapi_rag.llm.base import LLM


def ask(
    request: str,
    schema: DbSchema | None,
    connection: sqlite3.Connection | None = None,
    *,
    index: Any = None,
    generator: str = "offline",
    policy: str = "rag",
    context: str = "db",
    llm: LLM | None = None,
) -> dict[str, Any]:
    """`{"request", "classification", "answered_by", "sql"|"call", "problems"}` for one request."""
    kind, how = classify(request, llm if generator == "llm" else None)
    out: dict[str, Any] = {
        "request": request,
        "classification": kind,
        "classified_by": how["by"],
        "problems": [],
    }
    if kind == "read":
        out["answered_by"] = "sql"
        if schema is None:
            out["problems"].append(
                "a read request needs a database: give --db (or an --index holding tables, `schema index`)"
            )
            return out
        answer = answer_sql(
            request,
            schema,
            connection,
            generator=generator,
            policy=policy,
            context=context,
            index=index,
            llm=llm,
        )
        out["sql"] = answer.to_dict()
        out["problems"] += answer.problems
        return out
    out["answered_by"] = "api"
    if index is None:
        out["problems"].append("a change request needs the API index: give --index")
        return out
    out["call"], problems = _call(request, index, generator=generator, policy=policy, llm=llm)
    out["problems"] += problems
    return out


def _call(
    request: str, index: Any, *, generator: str, policy: str, llm: LLM | None
) -> tuple[dict[str, Any], list[str]]:
    from openapi_rag.generate.call import generate_call

    call = generate_call(request, index, generator=generator, policy=policy, llm=llm)
    data = call.to_dict()
    return data, list(data.get("problems") or [])
