"""The `call`, `mock` and `eval-calls` commands through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from openapi_rag.cli import cli
from tests.conftest import REPO


def test_call_prints_the_call_as_json_and_executes_it(call_index_dir: Path) -> None:
    result = CliRunner().invoke(
        cli, ["call", "Delete the insurance policy 54321", "--index", str(call_index_dir), "--json",
              "--execute", "mock", "--repair", "1"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["endpoint"] == "/policies/54321" and data["execution"]["status"] == 204


def test_call_batch_names_bad_lines_and_answers_the_rest(call_index_dir: Path, tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        '{"query": "Renew insurance policy 54321"}\nnot json\n{"query": "Retrieve claim CL-88"}\n'
    )
    result = CliRunner().invoke(
        cli, ["call", "--queries", str(tasks), "--index", str(call_index_dir), "--json"]
    )
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["call"]["endpoint"] for line in lines] == ["/policies/54321/renew", "/claims/CL-88"]
    assert f"{tasks}:2: not JSON" in result.stderr


def test_call_human_output_and_usage_errors(call_index_dir: Path) -> None:
    runner = CliRunner()
    human = runner.invoke(cli, ["call", "Delete the insurance policy 54321", "--index", str(call_index_dir)])
    assert human.stdout.startswith("DELETE /policies/54321    (insurance-policy-management-api")
    assert runner.invoke(cli, ["call", "x", "--index", str(call_index_dir), "--repair", "2"]).exit_code == 2
    assert runner.invoke(cli, ["mock", "--index", str(call_index_dir), "--host", "0.0.0.0"]).exit_code == 2


def test_eval_calls_writes_the_report(call_index_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["eval-calls", "--cases", str(REPO / "benchmarks" / "calls" / "cases.jsonl"), "--index",
              str(call_index_dir), "--out", str(out), "--limit", "12", "--repair", "0,1", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {row["config"] for row in report["summary"]} == {"offline/rag/repair0", "offline/rag/repair1"}
    assert {t["metric"] for t in report["ttests"]} == {"exact", "execution"}
    for name in ("cases.jsonl", "summary.json", "summary.csv", "ttests.csv", "report.md"):
        assert (out / name).stat().st_size > 0
    assert "Study" in (out / "report.md").read_text()


def test_the_llm_generator_works_unchanged_with_an_openai_compatible_server(
    call_index_dir: Path, server: object, monkeypatch: object
) -> None:
    from tests.llm.conftest import chat_reply

    body = {"from_account": "1234", "to_account": "5678", "amount": 250, "currency": "USD"}
    server.reply(chat_reply(json.dumps({"body": body}), prompt=300, completion=40))  # type: ignore[attr-defined]
    monkeypatch.setenv("OPENAPI_RAG_LLM_BASE_URL", server.base_url)  # type: ignore[attr-defined]
    result = CliRunner().invoke(
        cli, ["call", "Transfer $250 from account 1234 to account 5678", "--index", str(call_index_dir),
              "--generator", "llm", "--llm", "openai:strong-model", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["body"] == body and data["llm_tokens"] == {"prompt": 300, "completion": 40}
    sent = server.requests[0]  # type: ignore[attr-defined]
    assert sent["model"] == "strong-model" and "Transfer $250" in sent["messages"][-1]["content"]
