"""End to end: `run_eval` + `write_report` and the `openapi-rag eval` command with a fake retriever."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

import openapi_rag.cli.eval_cmd  # noqa: F401  (attaches `eval` to the group until it is registered)
from openapi_rag.bench import SUMMARY_COLUMNS, grid, load_dataset, run_eval, write_report
from openapi_rag.cli import cli
from tests.bench.conftest import CATALOG
from tests.conftest import shared_data

REQUIRED = [
    "dataset",
    "strategy",
    "embedder",
    "mode",
    "k",
    "half",
    "r1",
    "recall",
    "precision",
    "f1",
    "mrr",
    "ndcg",
    "n_queries",
]
FACTORY = "tests.bench.fakes:FakeFactory"


def _csv(path):
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_report_files_exist_and_parse(catalog, tmp_path):
    pytest.importorskip("matplotlib")
    from tests.bench.fakes import FakeFactory

    configs = grid(["endpoint", "thin", "summary"], ["default"], ["dense", "bm25"])
    result = run_eval(catalog, configs, FakeFactory(), tmp_path, ks=[1, 3, "auto"])
    files = write_report(result, tmp_path, compare_paper=True, plots=True)
    assert set(files) == {
        "results",
        "summary",
        "domains",
        "friedman",
        "gold_issues",
        "paper",
        "report",
        "plot_recall_precision",
        "plot_recall_boxplot",
        "plot_stability",
    }
    results = _csv(files["results"])
    assert len(results) == 6 * 6 * 3
    assert all(0.0 <= float(r["recall"]) <= 1.0 for r in results)
    summary = _csv(files["summary"])
    assert list(summary[0]) == list(SUMMARY_COLUMNS) and set(REQUIRED) <= set(summary[0])
    overall = [r for r in summary if r["half"] == "all"]
    assert len(overall) == 6 * 3 and {r["k"] for r in overall} == {"1", "3", "auto"}
    assert all(r["n_queries"] == "6" and r["n_domains"] == "2" for r in overall)
    # Each configuration and k is followed by its rows over the tuning and the reporting half.
    by_half = [r for r in summary if r["half"] != "all"]
    assert {r["half"] for r in by_half} == {"tune", "report"}
    assert sum(int(r["n_queries"]) for r in by_half) == 6 * 6 * 3
    assert all(0.0 <= float(r["r1"]) <= float(r["recall"]) + 1e-9 for r in overall if r["k"] != "auto")
    friedman = _csv(files["friedman"])
    assert {r["domain"] for r in friedman} == {"pets", "shop", "all"}
    issues = _csv(files["gold_issues"])
    assert {"unmatched", "duplicate", "shape"} <= {r["kind"] for r in issues}
    assert _csv(files["paper"]) == []  # the paper has no numbers for a user's catalog
    report = files["report"].read_text()
    for heading in (
        "## Summary",
        "## Recall per domain",
        "## Friedman test",
        "## Compared with the paper",
        "## Figures",
    ):
        assert heading in report
    assert "`shop-refund`: `POST /refunds`" in report
    for name in ("plot_recall_precision", "plot_recall_boxplot", "plot_stability"):
        assert files[name].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({files[name].relative_to(tmp_path).as_posix()})" in report


def _invoke(*args):
    return CliRunner().invoke(cli, ["eval", *args], catch_exceptions=False)


def test_cli_json_then_resume(tmp_path):
    args = [
        "--dataset",
        "jsonl",
        "--data",
        str(CATALOG),
        "--strategies",
        "endpoint,thin,summary",
        "--modes",
        "dense,bm25",
        "--k",
        "1,3,auto",
        "--out",
        str(tmp_path),
        "--retriever",
        FACTORY,
        "--no-plots",
        "--json",
    ]
    first = _invoke(*args)
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert data["searched"] == 6 * 6 * 2 and data["reused"] == 0
    assert data["dataset"]["queries"] == 6 and data["dataset"]["unmatched_gold"] == 1
    assert len([r for r in data["summary"] if r["half"] == "all"]) == 18
    assert set(REQUIRED) <= set(data["summary"][0])
    assert (tmp_path / "report.md").is_file() and not (tmp_path / "plots").exists()
    assert "1 gold entries match no operation" in first.stderr

    second = _invoke(*args)
    assert json.loads(second.stdout)["searched"] == 0
    assert json.loads(second.stdout)["summary"] == data["summary"]


def test_cli_text_output(tmp_path):
    result = _invoke(
        "--dataset",
        "jsonl",
        "--data",
        str(CATALOG),
        "--k",
        "2",
        "--out",
        str(tmp_path),
        "--retriever",
        FACTORY,
        "--no-plots",
    )
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == [
        "strategy",
        "embedder",
        "mode",
        "k",
        "half",
        "R@1",
        "R@k",
        "MRR",
        "prec",
        "F1",
        "nDCG",
        "tokens",
        "R@k",
        "95%",
        "CI",
    ]
    assert lines[1].split()[:5] == ["endpoint", "default", "dense", "2", "all"]
    assert {line.split()[4] for line in lines[2:]} == {"tune", "report"}
    assert "report:" in result.stderr


def test_cli_runs_one_half_only(tmp_path):
    args = ["--dataset", "jsonl", "--data", str(CATALOG), "--k", "2", "--out", str(tmp_path)]
    result = _invoke(*args, "--retriever", FACTORY, "--no-plots", "--half", "tune", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {r["half"] for r in data["summary"]} == {"tune"}
    assert 0 < data["dataset"]["queries"] < 6 and data["searched"] == data["dataset"]["queries"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--k", "0"], "positive integer or 'auto'"),
        (["--modes", "fuzzy"], "unknown mode(s) fuzzy"),
        (["--strategies", "all,thin"], "cannot be combined"),
        (["--strategies", ","], "at least one strategy"),
    ],
)
def test_cli_rejects_bad_options(tmp_path, extra, message):
    result = CliRunner().invoke(
        cli,
        ["eval", "--dataset", "jsonl", "--data", str(CATALOG), "--out", str(tmp_path), "--no-plots", *extra],
    )
    assert result.exit_code == 2
    assert message in result.output


def test_cli_bad_retriever(tmp_path, monkeypatch):
    monkeypatch.delenv("OPENAPI_RAG_RAISE_ERRORS", raising=False)
    result = CliRunner().invoke(
        cli,
        [
            "eval",
            "--dataset",
            "jsonl",
            "--data",
            str(CATALOG),
            "--out",
            str(tmp_path),
            "--no-plots",
            "--retriever",
            "tests.bench.fakes:Nope",
        ],
    )
    assert result.exit_code == 1
    assert "cannot import it" in result.output


@pytest.mark.shared
def test_socbench_end_to_end_with_paper_numbers(tmp_path):
    from tests.bench.fakes import FakeFactory

    dataset = load_dataset("socbench-d", shared_data("socbench-d", "socbenchd_1"))
    result = run_eval(
        dataset,
        grid(["endpoint", "thin", "summary"], ["default"], ["dense"]),
        FakeFactory(),
        tmp_path,
        ks=[5, 10, 20],
    )
    files = write_report(result, tmp_path, compare_paper=True, plots=False)
    summary = _csv(files["summary"])
    overall = [r for r in summary if r["half"] == "all"]
    assert len(overall) == 9 and all(r["n_domains"] == "11" and r["n_queries"] == "110" for r in overall)
    paper = _csv(files["paper"])
    ours = [r for r in paper if r["embedder"] == "default"]
    assert {(r["strategy"], r["k"]) for r in ours} == {
        ("endpoint", "5"),
        ("endpoint", "10"),
        ("endpoint", "20"),
        ("summary", "20"),
    }
    friedman = _csv(files["friedman"])
    assert len(friedman) == 3 * 12  # 3 k values × (11 domains + all)
    assert "| all |" in files["report"].read_text()


def test_cli_reads_a_queries_file_kept_apart_from_the_descriptions(tmp_path):
    queries = tmp_path / "tasks.jsonl"
    queries.write_text(
        json.dumps({"id": "t1", "query": "list pets", "expected": ["petstore GET /pets"], "alternatives": []})
        + "\n"
    )
    out = tmp_path / "out"
    args = ["--dataset", "jsonl", "--data", str(CATALOG), "--queries", str(queries), "--out", str(out)]
    result = _invoke(*args, "--k", "2", "--retriever", FACTORY, "--no-plots", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["dataset"]["queries"] == 1 and data["dataset"]["groups"] == 1
