"""`eval-sql`: SQL cases (and mixed read/change cases for `ask`) scored as the study scores them.

Per case: exact match and component match per clause (`compare`), execution (the generated query
runs without error on the prepared database), result accuracy (it returns the gold's rows on a
database where every gold query returns at least one, `plant`), and for cases with an
`output.kind`, whether the request was classified right (read → SQL, change → API call). Means
come with a 95% bootstrap interval over cases (`bench.bootstrap`); configurations (generator ×
policy × context) are compared with paired t-tests over the same cases (scipy, extra `eval`).
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.bench.stats import paired_t_test
from openapi_rag.generate.sql.answer import answer_sql
from openapi_rag.generate.sql.classify import classify
from openapi_rag.generate.sql.compare import CLAUSES, component_match, same_rows
from openapi_rag.generate.sql.database import load_db_schema, open_database
from openapi_rag.generate.sql.plant import prepare_database
from openapi_rag.generate.sql.safety import run_select
from openapi_rag.generate.sql.schema import DbSchema, SqlError
from openapi_rag.generate.sql.table_index import with_index_tables

METRICS = ("exact", "execution", "result", "classification", "operation")


@dataclass
class SqlCase:
    case_id: str
    request: str
    difficulty: str = ""
    gold_sql: str = ""
    kind: str = ""  # "sql" or "api" for mixed cases; "" for SQL-only cases
    db: str = ""  # the database file, resolved
    operation: str = ""  # the gold `METHOD /path` of a change case


def load_cases(path: str | Path, db: str | None = None) -> list[SqlCase]:
    """Cases from JSONL; a case's `db` is read relative to the cases file, `db` given here wins."""
    path = Path(path)
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            output = raw.get("output") or {}
            case_db = db or (str(path.parent / raw["db"]) if raw.get("db") else "")
            cases.append(
                SqlCase(
                    str(raw.get("id", number)),
                    raw["input"],
                    raw.get("difficulty", ""),
                    output.get("sql", "") or "",
                    output.get("kind", ""),
                    case_db,
                    output.get("operation", "") or "",
                )
            )
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise SqlError(f"{path}:{number}: not a case ({exc})") from exc
    missing = [c.case_id for c in cases if not c.db]
    if missing:
        raise SqlError(f"{path}: cases {', '.join(missing[:5])} name no database: give --db")
    return cases


@dataclass
class Config:
    generator: str = "offline"
    policy: str = "rag"
    context: str = "db"

    @property
    def name(self) -> str:
        return f"{self.generator}/{self.policy}/{self.context}"


@dataclass
class CaseResult:
    case: SqlCase
    config: Config
    sql: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    kind: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.case.case_id,
            "config": self.config.name,
            "input": self.case.request,
            "difficulty": self.case.difficulty,
            "gold": self.case.gold_sql,
            "sql": self.sql,
            "classified": self.kind,
            "scores": self.scores,
            "problems": self.problems,
        }


class PreparedDatabases:
    """Per database file: its schema and a prepared copy where every gold query returns rows."""

    def __init__(self, cases: Sequence[SqlCase], workdir: Path, tables: DbSchema | None = None) -> None:
        self.schemas: dict[str, DbSchema] = {}
        self.connections: dict[str, Any] = {}
        self.empty_golds: list[str] = []
        for db in dict.fromkeys(c.db for c in cases):
            schema = load_db_schema(db)
            if (
                tables is not None
            ):  # the documentation an index holds (`schema index`), as `sql --index` reads it
                with_index_tables(schema, tables)
            golds = [c.gold_sql for c in cases if c.db == db and c.gold_sql]
            prepared = workdir / f"{len(self.schemas)}-{Path(db).stem}.sqlite"
            self.empty_golds += prepare_database(schema, golds, prepared)
            self.schemas[db] = schema
            self.connections[db] = open_database(prepared)


def evaluate_case(
    case: SqlCase, config: Config, dbs: PreparedDatabases, *, index: Any = None, llm: Any = None
) -> CaseResult:
    result = CaseResult(case, config)
    schema, connection = dbs.schemas[case.db], dbs.connections[case.db]
    if case.kind:
        kind, _ = classify(case.request, llm if config.generator == "llm" else None)
        result.kind = kind
        result.scores["classification"] = float((kind == "read") == (case.kind == "sql"))
        if kind != "read" or not case.gold_sql:
            if case.gold_sql:  # a read sent to the API: no SQL, every SQL metric 0
                result.scores.update({"exact": 0.0, "execution": 0.0, "result": 0.0})
            elif case.operation and index is not None:
                # eval-sql scores whether the change reaches the right operation through the call
                # generator `ask` answers with, not the call's values: those are eval-calls' to measure.
                chosen = _operation_of_call(case.request, index, config, llm) if kind == "change" else ""
                result.sql = chosen
                result.scores["operation"] = float(chosen == case.operation)
            return result
    if not case.gold_sql:
        return result
    answer = answer_sql(
        case.request,
        schema,
        connection,
        generator=config.generator,
        policy=config.policy,
        context=config.context,
        index=index,
        llm=llm,
    )
    result.sql, result.problems = answer.sql, answer.problems
    parts = component_match(answer.sql, case.gold_sql, schema)
    result.scores["exact"] = parts.pop("exact")
    result.scores.update({f"clause:{k}": v for k, v in parts.items()})
    result.scores["execution"] = float(answer.executed)
    gold = run_select(connection, case.gold_sql, max_rows=10_000)
    ordered = " order by " in case.gold_sql.lower()
    result.scores["result"] = float(answer.executed and same_rows(answer.rows, gold.rows, ordered=ordered))
    return result


def _operation_of_call(request: str, index: Any, config: Config, llm: Any) -> str:
    """`METHOD /path` of the call `ask` would make for a change request ("" when none)."""
    from openapi_rag.generate.call import generate_call

    call = generate_call(request, index, generator=config.generator, policy=config.policy, llm=llm)
    return f"{call.operation['method']} {call.operation['path']}" if call.operation else ""


def evaluate(
    cases: Sequence[SqlCase],
    configs: Sequence[Config],
    *,
    index: Any = None,
    llm: Any = None,
    progress: Callable[[int, int], None] | None = None,
    tables: DbSchema | None = None,
) -> tuple[list[CaseResult], list[str]]:
    """Every case under every configuration; also the gold queries no planting made non-empty.

    `tables`: the table records an index holds, documenting the cases' databases.
    """
    with tempfile.TemporaryDirectory(prefix="openapi-rag-eval-sql-") as workdir:
        dbs = PreparedDatabases(cases, Path(workdir), tables)
        results = []
        total = len(cases) * len(configs)
        for config in configs:
            for case in cases:
                results.append(evaluate_case(case, config, dbs, index=index, llm=llm))
                if progress:
                    progress(len(results), total)
        for connection in dbs.connections.values():
            connection.close()
    return results, dbs.empty_golds


def summarize(results: Sequence[CaseResult]) -> list[dict[str, Any]]:
    """One row per configuration × difficulty (and "all"): mean, 95% CI and n per metric."""
    rows = []
    configs = list(dict.fromkeys(r.config.name for r in results))
    for config in configs:
        mine = [r for r in results if r.config.name == config]
        levels = ["all"] + sorted({r.case.difficulty for r in mine if r.case.difficulty})
        for level in levels:
            chosen = [r for r in mine if level == "all" or r.case.difficulty == level]
            row: dict[str, Any] = {"config": config, "difficulty": level, "cases": len(chosen)}
            names = list(METRICS) + [f"clause:{c}" for c in CLAUSES]
            for metric in names:
                values = [
                    r.scores[metric]
                    for r in chosen
                    if metric in r.scores and not math.isnan(r.scores[metric])
                ]
                if not values:
                    continue
                low, high = bootstrap_ci([values])
                row[metric] = {"mean": sum(values) / len(values), "ci": [low, high], "n": len(values)}
            rows.append(row)
    return rows


def paired_tests(
    results: Sequence[CaseResult], metrics: Sequence[str] = ("exact", "execution", "result")
) -> list[dict[str, Any]]:
    """Paired t-tests over the cases both scored: each configuration against the first, and each
    policy against `rag` with the same generator and context (the study's comparison of policies)."""
    configs = list(dict.fromkeys(r.config.name for r in results))
    if len(configs) < 2:
        return []
    by = {(r.config.name, r.case.case_id): r for r in results}
    pairs_of_configs = [(configs[0], other) for other in configs[1:]]
    for name in configs:
        generator, policy, context = name.split("/")
        rag = Config(generator, "rag", context).name
        if policy != "rag" and rag in configs and (rag, name) not in pairs_of_configs:
            pairs_of_configs.append((rag, name))
    out = []
    for base, other in pairs_of_configs:
        for metric in metrics:
            pairs = [
                (by[(base, cid)].scores[metric], by[(other, cid)].scores[metric])
                for (name, cid) in by
                if name == base
                and (other, cid) in by
                and metric in by[(base, cid)].scores
                and metric in by[(other, cid)].scores
            ]
            if len(pairs) < 2:
                continue
            a, b = zip(*pairs, strict=True)
            statistic, p = paired_t_test(b, a)
            out.append(
                {
                    "base": base,
                    "other": other,
                    "metric": metric,
                    "n": len(pairs),
                    "mean_diff": (sum(b) - sum(a)) / len(pairs),
                    "t": 0.0 if a == b else statistic,  # the same scores: no difference, t 0
                    "p": p,
                }
            )
    return out


def summary_markdown(rows: Sequence[dict[str, Any]], tests: Sequence[dict[str, Any]]) -> str:
    head = (
        "| configuration | difficulty | n | exact match | execution | result accuracy | classification "
        "| operation (top 1) |"
    )
    lines = [head, "|---|---|---:|---|---|---|---|---|"]

    def cell(row: dict[str, Any], metric: str) -> str:
        value = row.get(metric)
        if not value:
            return "–"
        low, high = value["ci"]
        over = f" (n={value['n']})" if value["n"] != row["cases"] else ""  # reads only, in mixed cases
        return f"{value['mean']:.3f} [{low:.3f}, {high:.3f}]{over}"

    for row in rows:
        lines.append(
            f"| {row['config']} | {row['difficulty']} | {row['cases']} | {cell(row, 'exact')} | {cell(row, 'execution')} "
            f"| {cell(row, 'result')} | {cell(row, 'classification')} | {cell(row, 'operation')} |"
        )
    if tests:
        lines += [
            "",
            "| base | other | metric | n | mean diff | t | p |",
            "|---|---|---|---:|---:|---:|---:|",
        ]
        for t in tests:
            lines.append(
                f"| {t['base']} | {t['other']} | {t['metric']} | {t['n']} | {t['mean_diff']:+.3f} "
                f"| {t['t']:.2f} | {t['p']:.4f} |"
            )
    return "\n".join(lines) + "\n"
