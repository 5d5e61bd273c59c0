"""Only one read-only SELECT ever runs, within its row and time limits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openapi_rag.generate.sql import SqlError, open_database
from openapi_rag.generate.sql.safety import UnsafeSql, parse_select, run_select


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("DELETE FROM artists", "only SELECT is allowed, not DELETE"),
        ("UPDATE artists SET name = 'x'", "only SELECT is allowed, not UPDATE"),
        ("DROP TABLE artists", "only SELECT is allowed, not DROP"),
        ("SELECT 1; DELETE FROM artists", "one statement expected, found 2"),
        ("SELECT 1; SELECT 2", "one statement expected, found 2"),
        ("ATTACH DATABASE '/tmp/x.db' AS x", "only SELECT is allowed"),
        ("PRAGMA writable_schema = 1", "only SELECT is allowed"),
        ("SELEC name FROM artists", "not valid SQL"),
    ],
)
def test_anything_but_one_select_is_refused(sql: str, message: str) -> None:
    with pytest.raises(UnsafeSql, match=message):
        parse_select(sql)


def test_subqueries_and_ctes_are_reads() -> None:
    parse_select(
        "WITH top AS (SELECT id FROM artists) SELECT * FROM artists WHERE id IN (SELECT id FROM top)"
    )


def test_database_file_is_never_written(music_db: Path) -> None:
    before = music_db.read_bytes()
    connection = open_database(music_db)
    with pytest.raises(sqlite3.Error):  # opened read-only: even a raw write fails
        connection.execute("DELETE FROM artists")
    with pytest.raises(UnsafeSql):
        run_select(connection, "DELETE FROM artists")
    assert music_db.read_bytes() == before


def test_row_and_time_limits(music_db: Path) -> None:
    connection = open_database(music_db)
    result = run_select(connection, "SELECT * FROM albums", max_rows=7)
    assert len(result.rows) == 7 and result.truncated
    endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    with pytest.raises(SqlError, match="past its 0.2 s limit"):
        run_select(connection, endless, timeout_s=0.2)
    # The connection still answers afterwards.
    assert run_select(connection, "SELECT count(*) FROM albums").rows == [[30]]
