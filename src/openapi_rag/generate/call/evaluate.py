"""`eval-calls`: score call generation on cases, with the study's metrics and statistics.

Every case is run through each configuration (generator × policy × repair budget) and its call is
executed against the validating mock of the index, so execution accuracy is always measured (a
repair budget of 0 sends the first call only). Per case: exact match, component match, execution
(the mock answered 2xx), endpoint retrieval (the right operation), LLM tokens and wall time. Tables
give each metric's mean with a 95% bootstrap interval overall, per difficulty and per half
(`bench.halves`: settings are tuned on "tune", figures reported on "report"); paired t-tests
(scipy) compare every two configurations on exact match and execution over the same cases.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.bench.halves import half_of
from openapi_rag.bench.stats import paired_t_test
from openapi_rag.generate.call.cases import (
    DIFFICULTIES,
    Case,
    component_match,
    endpoint_matches,
    exact_match,
    normalize_call,
)

__all__ = ["CaseResult", "Config", "METRICS", "evaluate_calls", "paired_tests", "summarize", "write_report"]

DATASET = "calls"  # the name `half_of` splits the cases by
METRICS = ("exact", "component", "execution", "endpoint")
# The study's API-call figures (RAG variants with GPT-5 over enterprise banking APIs), for the report.
STUDY = {
    "endpoint": (0.444, 0.546),
    "execution": (0.716, 0.793),
    "exact": (0.0, 0.042),
    "component": (0.0, 0.613),
}


@dataclass(frozen=True)
class Config:
    """One configuration: generator, retrieval policy and repair budget."""

    generator: str = "offline"
    policy: str = "rag"
    repair: int = 0

    @property
    def name(self) -> str:
        return f"{self.generator}/{self.policy}/repair{self.repair}"


@dataclass
class CaseResult:
    """One case under one configuration."""

    config: str
    case_id: str
    difficulty: str
    half: str
    exact: float
    component: float
    execution: float
    endpoint: float
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    status: int | None
    predicted: dict[str, Any]
    error: str | None = None


def score_case(case: Case, call: dict[str, Any], config: Config, seconds: float) -> CaseResult:
    gold = normalize_call(case.method, case.endpoint, case.body)
    tokens = call.get("llm_tokens") or {}
    execution = call.get("execution") or {}
    status = execution.get("status")
    if call.get("operation") is None:
        exact = component = endpoint = 0.0
    else:
        predicted = normalize_call(call["method"], call["endpoint"], call.get("body"))
        exact = float(exact_match(predicted, gold))
        component = component_match(predicted, gold)
        endpoint = float(endpoint_matches(call["operation"], case))
    return CaseResult(
        config=config.name,
        case_id=case.case_id,
        difficulty=case.difficulty,
        half=half_of(DATASET, case.case_id),
        exact=exact,
        component=round(component, 4),
        execution=float(status is not None and 200 <= status < 300),
        endpoint=endpoint,
        prompt_tokens=int(tokens.get("prompt", 0)),
        completion_tokens=int(tokens.get("completion", 0)),
        seconds=round(seconds, 4),
        status=status,
        predicted={k: call.get(k) for k in ("operation", "method", "endpoint", "body", "problems")},
    )


def evaluate_calls(
    cases: Sequence[Case],
    index: Any,
    configs: Sequence[Config],
    *,
    llm: Any = None,
    progress: Callable[[int], None] | None = None,
) -> list[CaseResult]:
    """Run every case under every configuration against a mock of `index`; one result each."""
    from openapi_rag.generate.call.execute import Target, call_request
    from openapi_rag.generate.call.mock import MockAPI, MockServer

    results: list[CaseResult] = []
    with MockServer(MockAPI.from_index(index)) as server:
        target = Target(server.url, mock=True)
        for config in configs:
            for case in cases:
                started = time.perf_counter()
                try:
                    call = call_request(
                        case.input,
                        index,
                        generator=config.generator,
                        policy=config.policy,
                        llm=llm,
                        target=target,
                        repair=config.repair,
                    ).to_dict()
                    error = None
                except Exception as exc:  # noqa: BLE001 - one failing case is scored 0 and named, never stops the run
                    call, error = {"operation": None}, f"{type(exc).__name__}: {exc}"
                result = score_case(case, call, config, time.perf_counter() - started)
                result.error = error
                results.append(result)
                if progress is not None:
                    progress(1)
    return results


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def summarize(results: Sequence[CaseResult]) -> list[dict[str, Any]]:
    """One row per (configuration, half, difficulty): each metric's mean and 95% interval, tokens, time."""
    rows = []
    configs = list(dict.fromkeys(r.config for r in results))
    for config in configs:
        mine = [r for r in results if r.config == config]
        for half in ("all", "tune", "report"):
            for difficulty in ("all", *DIFFICULTIES):
                chosen = [
                    r
                    for r in mine
                    if (half == "all" or r.half == half)
                    and (difficulty == "all" or r.difficulty == difficulty)
                ]
                if not chosen:
                    continue
                row: dict[str, Any] = {
                    "config": config,
                    "half": half,
                    "difficulty": difficulty,
                    "cases": len(chosen),
                }
                for metric in METRICS:
                    values = [getattr(r, metric) for r in chosen]
                    low, high = bootstrap_ci([values])
                    row[metric] = round(_mean(values), 4)
                    row[f"{metric}_ci"] = [round(low, 4), round(high, 4)]
                row["tokens_per_case"] = round(
                    _mean([r.prompt_tokens + r.completion_tokens for r in chosen]), 1
                )
                row["seconds_per_case"] = round(_mean([r.seconds for r in chosen]), 4)
                rows.append(row)
    return rows


def paired_tests(
    results: Sequence[CaseResult], metrics: Sequence[str] = ("exact", "execution")
) -> list[dict[str, Any]]:
    """Paired t-tests (`bench.stats.paired_t_test`) between every two configurations, over the same cases."""
    by_config: dict[str, dict[str, CaseResult]] = {}
    for r in results:
        by_config.setdefault(r.config, {})[r.case_id] = r
    rows = []
    for a, b in itertools.combinations(by_config, 2):
        shared = sorted(set(by_config[a]) & set(by_config[b]))
        for metric in metrics:
            x = [getattr(by_config[a][c], metric) for c in shared]
            y = [getattr(by_config[b][c], metric) for c in shared]
            statistic, p = paired_t_test(x, y)  # no variance (equal, or all one way): t is not finite
            rows.append({"a": a, "b": b, "metric": metric, "cases": len(shared), "mean_a": round(_mean(x), 4),
                         "mean_b": round(_mean(y), 4), "t": round(statistic, 4) if math.isfinite(statistic) else None,
                         "p": p})  # fmt: skip
    return rows


def _cell(row: dict[str, Any], metric: str) -> str:
    low, high = row[f"{metric}_ci"]
    return f"{row[metric]:.3f} [{low:.2f}, {high:.2f}]"


def markdown(summary: Sequence[dict[str, Any]], tests: Sequence[dict[str, Any]]) -> str:
    """The report: per configuration and half, per difficulty, with the study's figures beside."""
    lines = ["# Call generation", ""]
    header = "| config | half | difficulty | cases | endpoint | execution | exact | component | tokens/case | s/case |"
    lines += [header, "|" + "---|" * 10]
    for row in summary:
        lines.append(
            f"| {row['config']} | {row['half']} | {row['difficulty']} | {row['cases']} | {_cell(row, 'endpoint')} | "
            f"{_cell(row, 'execution')} | {_cell(row, 'exact')} | {_cell(row, 'component')} | "
            f"{row['tokens_per_case']} | {row['seconds_per_case']} |"
        )
    lines += ["", "Study (RAG / Self-RAG / CoRAG with GPT-5, enterprise banking APIs):"]
    lines += [
        f"- {metric}: {low:.3f}–{high:.3f}" if low else f"- {metric}: ≤ {high:.3f}"
        for metric, (low, high) in STUDY.items()
    ]
    if tests:
        lines += [
            "",
            "## Paired t-tests",
            "",
            "| a | b | metric | cases | mean a | mean b | t | p |",
            "|" + "---|" * 8,
        ]
        for t in tests:
            lines.append(
                f"| {t['a']} | {t['b']} | {t['metric']} | {t['cases']} | {t['mean_a']} | {t['mean_b']} "
                f"| {t['t']} | {t['p']:.3g} |"
            )
    return "\n".join(lines) + "\n"


def write_report(
    out: str | Path, results: Sequence[CaseResult], *, problems: Sequence[str] = ()
) -> dict[str, Any]:
    """Write `cases.jsonl`, `summary.json`, `summary.csv`, `ttests.csv` and `report.md` under `out`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = summarize(results)
    tests = paired_tests(results) if len({r.config for r in results}) > 1 else []
    with (out / "cases.jsonl").open("w", encoding="utf-8") as handle:
        for r in results:
            handle.write(json.dumps(asdict(r), ensure_ascii=False) + "\n")
    (out / "summary.json").write_text(
        json.dumps({"summary": summary, "ttests": tests, "problems": list(problems)}, indent=2), "utf-8"
    )
    with (out / "summary.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        columns = [
            "config",
            "half",
            "difficulty",
            "cases",
            *[x for m in METRICS for x in (m, f"{m}_low", f"{m}_high")],
        ]
        writer.writerow([*columns, "tokens_per_case", "seconds_per_case"])
        for row in summary:
            cells = [row["config"], row["half"], row["difficulty"], row["cases"]]
            for metric in METRICS:
                cells += [row[metric], *row[f"{metric}_ci"]]
            writer.writerow([*cells, row["tokens_per_case"], row["seconds_per_case"]])
    with (out / "ttests.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=["a", "b", "metric", "cases", "mean_a", "mean_b", "t", "p"]
        )
        writer.writeheader()
        writer.writerows(tests)
    (out / "report.md").write_text(markdown(summary, tests), "utf-8")
    return {"summary": summary, "ttests": tests}
