"""Case files, normalisation and the study's metrics; every hand-written gold call passes the mock."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from openapi_rag.generate.call.cases import (
    CaseError,
    component_match,
    endpoint_matches,
    exact_match,
    load_cases,
    normalize_call,
)
from openapi_rag.generate.call.evaluate import paired_tests, score_case, summarize
from openapi_rag.generate.call.mock import SERVICE_HEADER, MockAPI, MockServer
from tests.conftest import REPO, shared_data

CASES = REPO / "benchmarks" / "calls" / "cases.jsonl"


def test_a_bad_line_is_named_and_the_others_are_read(tmp_path: Path) -> None:
    path = tmp_path / "cases.jsonl"
    good = '{"input": "delete policy 5", "output": {"method": "DELETE", "endpoint": "/policies/5"}, "difficulty": "Easy"}'
    path.write_text(
        f"{good}\n{{not json\n" + '{"input": "x", "output": {"method": "GET", "endpoint": "nope"}}\n' + good
    )
    cases, problems = load_cases(path)
    assert [c.case_id for c in cases] == ["cases-1", "cases-4"]
    assert problems[0].startswith(f"{path}:2: ") and problems[1].startswith(f"{path}:3: ")
    with pytest.raises(CaseError, match="no such file"):
        load_cases(tmp_path / "missing.jsonl")


def test_normalisation_ignores_key_order_and_number_forms() -> None:
    a = normalize_call("post", "/a/%7Bx%7D/?ids=1,2&n=3", {"b": 2, "a": {"x": "1.0"}})
    b = normalize_call("POST", "/a/{x}?n=3.0&ids=1&ids=2", {"a": {"x": 1}, "b": "2"})
    assert exact_match(a, b)
    assert not exact_match(a, normalize_call("POST", "/a/{x}?n=3", {"a": {"x": 1}, "b": 2}))


def test_component_match_gives_partial_credit() -> None:
    gold = normalize_call("POST", "/t", {"from": "1", "to": "2", "amount": 5})
    predicted = normalize_call("POST", "/t", {"from": "1", "to": "9", "amount": 5, "extra": 1})
    # components: method, path, body.from, body.to, body.amount, body.extra → 4 of 6 agree
    assert component_match(predicted, gold) == pytest.approx(4 / 6)
    assert component_match(gold, gold) == 1.0


def test_scores_summaries_and_paired_tests(tmp_path: Path) -> None:
    from openapi_rag.generate.call.cases import Case
    from openapi_rag.generate.call.evaluate import Config

    cases = [Case(f"c{i}", "x", "DELETE", f"/p/{i}", difficulty="Easy") for i in range(4)]
    good = {"operation": {"service": "s", "method": "DELETE", "path": "/p/{id}"}, "method": "DELETE",
            "execution": {"status": 204}}  # fmt: skip
    a = [score_case(c, {**good, "endpoint": f"/p/{c.case_id[1:]}"}, Config(), 0.1) for c in cases]
    b = [score_case(c, {**good, "endpoint": "/p/0"}, Config(repair=1), 0.1) for c in cases]
    assert [r.exact for r in a] == [1.0] * 4 and [r.exact for r in b] == [1.0, 0.0, 0.0, 0.0]
    assert all(r.endpoint == 1.0 for r in a + b)
    rows = summarize(a + b)
    overall = next(
        r
        for r in rows
        if r["config"] == "offline/rag/repair1" and r["half"] == "all" and r["difficulty"] == "all"
    )
    assert overall["exact"] == 0.25 and overall["cases"] == 4
    test = next(t for t in paired_tests(a + b) if t["metric"] == "exact")
    assert test["mean_a"] == 1.0 and test["mean_b"] == 0.25 and 0 < test["p"] < 0.2


def test_endpoint_retrieval_needs_method_template_and_service() -> None:
    from openapi_rag.generate.call.cases import Case

    case = Case("c", "x", "DELETE", "/alerts/AL-1?x=1", service="a")
    assert endpoint_matches({"service": "a", "method": "DELETE", "path": "/alerts/{id}"}, case)
    assert not endpoint_matches({"service": "b", "method": "DELETE", "path": "/alerts/{id}"}, case)
    assert not endpoint_matches({"service": "a", "method": "GET", "path": "/alerts/{id}"}, case)


def test_the_development_cases_are_balanced_and_every_gold_call_passes_the_mock() -> None:
    from openapi_rag.spec import load_services

    cases, problems = load_cases(CASES)
    assert problems == [] and len(cases) >= 200
    counts = {d: sum(c.difficulty == d for c in cases) for d in ("Easy", "Medium", "Hard")}
    assert all(n >= len(cases) / 4 for n in counts.values()), counts
    services = load_services(
        [shared_data("restbench", "specs"), shared_data("socbench-d", "socbenchd_1")]
    ).services
    refused = []
    with (
        MockServer(MockAPI(services)) as server,
        httpx.Client(base_url=server.url, trust_env=False) as client,
    ):
        for case in cases:
            headers = {SERVICE_HEADER: case.service or ""}
            kwargs = {"json": case.body} if case.body is not None else {}
            answer = client.request(case.method, case.endpoint, headers=headers, **kwargs)
            if not 200 <= answer.status_code < 300 or case.service not in answer.headers.get(
                "X-Mock-Operation", ""
            ):
                refused.append(f"{case.case_id}: {answer.status_code} {answer.text[:120]}")
    assert refused == []
