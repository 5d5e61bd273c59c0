"""`openapi-rag sql` and `openapi-rag ask` through the command line."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from openapi_rag.cli import cli


def test_sql_single_json_and_human(music_db: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["sql", "How many artists are there?", "--db", str(music_db), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["sql"] == "SELECT COUNT(*) FROM artists" and data["rows"] == [[30]]
    assert data["tables"] == ["artists"] and data["problems"] == []
    human = runner.invoke(cli, ["sql", "How many artists are there?", "--db", str(music_db)])
    assert human.stdout.splitlines() == ["SELECT COUNT(*) FROM artists", "COUNT(*)", "30"]


def test_sql_batch_one_line_per_task(music_db: Path, tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(
        '{"id": "a", "query": "How many albums are there?"}\n{"id": "b", "query": "weather in Oslo"}\n'
    )
    result = CliRunner().invoke(cli, ["sql", "--queries", str(tasks), "--db", str(music_db)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["id"] for line in lines] == ["a", "b"]
    assert lines[0]["rows"] == [[30]] and lines[1]["sql"] == "" and lines[1]["problems"]


def test_sql_bad_ddl_is_one_line_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sql"
    bad.write_text("CREATE TABLE t (a INTEGER);\n\nCREATE TABLE u (\n  a INTEGER,\n  b TEXT,\n);\n")
    result = CliRunner().invoke(
        cli, ["sql", "anything", "--db", str(bad)], env={"OPENAPI_RAG_RAISE_ERRORS": ""}
    )
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith("Error: ") and line.endswith(
        'bad.sql:3: near ")": syntax error'
    )  # the failing statement's line


def test_ask_classifies_and_answers_reads(music_db: Path) -> None:
    result = CliRunner().invoke(
        cli, ["ask", "How many playlists are public?", "--db", str(music_db), "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["classification"] == "read" and data["answered_by"] == "sql"
    assert data["sql"]["sql"] == "SELECT COUNT(*) FROM playlists WHERE public = 1"


def test_ask_change_without_index_says_what_is_missing(music_db: Path) -> None:
    result = CliRunner().invoke(cli, ["ask", "Delete the playlist 'Old'", "--db", str(music_db), "--json"])
    data = json.loads(result.stdout)
    assert data["classification"] == "change" and data["answered_by"] == "api"
    assert data["problems"] == ["a change request needs the API index: give --index"]


def test_schema_chunks_show_each_table(music_ddl: Path) -> None:
    result = CliRunner().invoke(cli, ["schema", "chunks", str(music_ddl), "--json"])
    assert result.exit_code == 0, result.output
    chunks = {c["id"]: c for c in json.loads(result.stdout)}
    albums = chunks["table:albums"]
    assert albums["kind"] == "table" and albums["operations"] == ["GET /albums"]
    assert "- release_date TEXT (date)" in albums["content"]
    assert "- artist_id TEXT references artists.id" in albums["content"]
