"""Comparison through the parser, planted databases, the case files, and `eval-sql` end to end."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.generate.sql import DbSchema, load_db_schema, open_database
from openapi_rag.generate.sql.compare import component_match, same_rows
from openapi_rag.generate.sql.evaluate import Config, evaluate, load_cases, paired_tests, summarize
from openapi_rag.generate.sql.plant import prepare_database
from openapi_rag.generate.sql.safety import run_select

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "sql"


def test_exact_match_ignores_order_of_conditions_aliases_and_qualifiers(music_schema: DbSchema) -> None:
    gold = (
        "SELECT albums.name FROM albums JOIN artists ON albums.artist_id = artists.id "
        "WHERE artists.name = 'Nina' AND albums.total_tracks > 10"
    )
    same = (
        "SELECT a.name FROM albums AS a JOIN artists AS b ON a.artist_id = b.id "
        "WHERE a.total_tracks > 10.0 AND b.name = 'Nina'"
    )
    assert component_match(same, gold, music_schema)["exact"] == 1.0
    other = "SELECT albums.name FROM albums JOIN artists ON albums.artist_id = artists.id WHERE artists.name = 'Nina'"
    parts = component_match(other, gold, music_schema)
    assert parts == {"select": 1.0, "from": 1.0, "where": 0.0, "exact": 0.0}
    assert component_match("", gold, music_schema)["exact"] == 0.0
    assert (
        component_match(
            "SELECT name FROM artists ORDER BY popularity",
            "SELECT name FROM artists ORDER BY popularity DESC",
        )["order_by"]
        == 0.0
    )


def test_same_rows_order_only_when_asked() -> None:
    assert same_rows([[1, "a"], [2, "b"]], [[2, "b"], [1, "a"]], ordered=False)
    assert not same_rows([[1, "a"], [2, "b"]], [[2, "b"], [1, "a"]], ordered=True)
    assert same_rows([[0.1 + 0.2]], [[0.3]], ordered=True)


def test_planting_makes_every_gold_return_rows(music_schema: DbSchema, tmp_path: Path) -> None:
    golds = [
        "SELECT * FROM artists WHERE name = 'Nobody Like This'",
        "SELECT name FROM albums WHERE release_date LIKE '1969%' AND total_tracks BETWEEN 40 AND 50",
        "SELECT albums.name FROM albums JOIN artists ON albums.artist_id = artists.id WHERE artists.name = 'Zed'",
        "SELECT album_type FROM albums GROUP BY album_type HAVING COUNT(*) > 60",
        "SELECT name FROM artists WHERE popularity > (SELECT AVG(popularity) FROM artists) AND name = 'Q'",
    ]
    out = tmp_path / "prepared.sqlite"
    assert prepare_database(music_schema, golds, out, rows=5) == []
    db = sqlite3.connect(out)
    for gold in golds:
        assert db.execute(gold).fetchall(), gold


def _cases(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_case_files_are_complete_and_every_gold_runs() -> None:
    cases = _cases(BENCH / "cases.jsonl")
    assert len(cases) >= 150
    by_level = Counter(c["difficulty"] for c in cases)
    assert set(by_level) == {"easy", "medium", "hard"} and min(by_level.values()) >= len(cases) // 3
    mixed = _cases(BENCH / "ask.jsonl")
    assert len(mixed) >= 50 and {c["output"]["kind"] for c in mixed} == {"sql", "api"}
    connections = {}
    for case in cases + [c for c in mixed if c["output"]["kind"] == "sql"]:
        db = case["db"]
        connections.setdefault(db, open_database(BENCH / db))
        run_select(connections[db], case["output"]["sql"])
    assert len({c["id"] for c in cases}) == len(cases)


def test_evaluate_small_real_subset() -> None:
    cases = [c for c in load_cases(BENCH / "cases.jsonl") if c.db.endswith("consumer.sql")][:12]
    results, empty = evaluate(cases, [Config()])
    assert empty == []
    assert all(r.scores["execution"] == 1.0 for r in results)
    rows = summarize(results)
    overall = rows[0]
    assert overall["difficulty"] == "all" and overall["exact"]["n"] == 12
    assert 0.5 <= overall["exact"]["mean"] <= 1.0
    low, high = overall["exact"]["ci"]
    assert low <= overall["exact"]["mean"] <= high


def test_paired_tests_compare_configurations() -> None:
    pytest.importorskip("scipy")
    from openapi_rag.generate.sql.evaluate import CaseResult, SqlCase

    results = []
    for i, (a, b) in enumerate([(1, 1), (0, 1), (0, 1), (1, 1), (0, 0), (0, 1)]):
        case = SqlCase(str(i), "r", gold_sql="SELECT 1")
        results.append(CaseResult(case, Config("offline"), scores={"exact": a}))
        results.append(CaseResult(case, Config("llm"), scores={"exact": b}))
    (test,) = paired_tests(results, metrics=("exact",))
    assert test["n"] == 6 and test["mean_diff"] == pytest.approx(0.5)
    assert 0 < test["p"] < 0.1


def test_paired_tests_also_compare_each_policy_with_rag() -> None:
    pytest.importorskip("scipy")
    from openapi_rag.generate.sql.evaluate import CaseResult, SqlCase

    results = []
    configs = [Config("offline"), Config("llm"), Config("llm", "corag"), Config("llm", "self-rag")]
    for i, row in enumerate([(1, 0, 1, 0), (1, 0, 1, 0), (1, 1, 1, 1), (0, 0, 1, 0)]):
        case = SqlCase(str(i), "r", gold_sql="SELECT 1")
        results += [CaseResult(case, c, scores={"exact": v}) for c, v in zip(configs, row, strict=True)]
    tests = {(t["base"], t["other"]): t for t in paired_tests(results, metrics=("exact",))}
    assert list(tests) == [
        ("offline/rag/db", "llm/rag/db"),
        ("offline/rag/db", "llm/corag/db"),
        ("offline/rag/db", "llm/self-rag/db"),
        ("llm/rag/db", "llm/corag/db"),
        ("llm/rag/db", "llm/self-rag/db"),
    ]
    assert tests[("llm/rag/db", "llm/corag/db")]["mean_diff"] == pytest.approx(0.75)
    assert tests[("llm/rag/db", "llm/self-rag/db")] | {"t": 0.0} == {
        "base": "llm/rag/db",
        "other": "llm/self-rag/db",
        "metric": "exact",
        "n": 4,
        "mean_diff": 0.0,
        "t": 0.0,
        "p": 1.0,
    }


def test_eval_sql_cli_with_ask_cases(tmp_path: Path) -> None:
    lines = _cases(BENCH / "ask.jsonl")
    subset = [c for c in lines if c["db"] == "consumer.sql"][:10]
    cases = tmp_path / "ask.jsonl"
    cases.write_text("".join(json.dumps(c) + "\n" for c in subset))
    result = CliRunner().invoke(
        cli,
        [
            "eval-sql",
            "--cases",
            str(cases),
            "--db",
            str(BENCH / "consumer.sql"),
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "| offline/rag/db | all |" in result.stdout
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    overall = summary["summary"][0]
    assert overall["classification"]["n"] == 10
    assert overall["classification"]["mean"] >= 0.9
    assert len((tmp_path / "out" / "cases.jsonl").read_text().splitlines()) == 10
    assert load_db_schema(BENCH / "consumer.sql").table("rooms") is not None


def test_change_cases_score_classification_and_the_calls_operation(
    music_spec: Path, music_ddl: Path, tmp_path: Path
) -> None:
    from openapi_rag.embed import register_embedder, unregister_embedder
    from openapi_rag.generate.sql.evaluate import SqlCase
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services
    from tests.generate.sql.test_api_context import CHANGE_SPEC
    from tests.index.conftest import WordHashEmbedder

    text = music_spec.read_text().replace("\ncomponents:", CHANGE_SPEC.rstrip("\n") + "\ncomponents:", 1)
    music_spec.write_text(text)
    register_embedder("word-hash", lambda **_: WordHashEmbedder())
    try:
        index = Index.build(load_services([music_spec]).services, embedder="word-hash", cache=False)
        db = str(music_ddl)
        cases = [
            SqlCase("c1", "Delete the album 'Blue'", kind="api", db=db, operation="DELETE /albums/{id}"),
            SqlCase("c2", "Remove the album 'Red'", kind="api", db=db, operation="GET /albums"),
            SqlCase(
                "r1", "How many albums are there?", kind="sql", db=db, gold_sql="SELECT COUNT(*) FROM albums"
            ),
        ]
        results, _ = evaluate(cases, [Config()], index=index)
    finally:
        unregister_embedder("word-hash")
    scores = {r.case.case_id: r.scores for r in results}
    # The operation is the one `ask` answers with (the call generator's), right or wrong.
    assert scores["c1"] == {"classification": 1.0, "operation": 1.0}
    assert scores["c2"] == {"classification": 1.0, "operation": 0.0}
    assert [r.sql for r in results][:2] == ["DELETE /albums/{id}", "DELETE /albums/{id}"]
    assert (
        scores["r1"]["classification"] == 1.0
        and scores["r1"]["exact"] == 1.0
        and "operation" not in scores["r1"]
    )
