"""The offline generator: the common shapes, typed values, one join, and no invention."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openapi_rag.generate.sql import DbSchema, load_db_schema, open_database
from openapi_rag.generate.sql.answer import answer_sql, generate_sql


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("How many playlists are public?", "SELECT COUNT(*) FROM playlists WHERE public = 1"),
        ("List the albums released after 2020.", "SELECT * FROM albums WHERE release_date > '2020-12-31'"),
        (
            "Which artist has the highest popularity?",
            "SELECT name FROM artists ORDER BY popularity DESC LIMIT 1",
        ),
        ("What is the average popularity of artists?", "SELECT AVG(popularity) FROM artists"),
        ("Show the 3 newest albums.", "SELECT * FROM albums ORDER BY release_date DESC LIMIT 3"),
        ("Count the albums per album type.", "SELECT album_type, COUNT(*) FROM albums GROUP BY album_type"),
        (
            "List the compilation albums with at least 12 total tracks.",
            "SELECT * FROM albums WHERE total_tracks >= 12 AND album_type = 'compilation'",
        ),
        (
            "How many playlists have more than 50 tracks?",
            "SELECT COUNT(*) FROM playlists WHERE tracks_total > 50",
        ),
        ("Find the artist named 'Nina Simone'.", "SELECT * FROM artists WHERE name = 'Nina Simone'"),
        (
            "Which albums of the artist 'Nina Simone' are singles?",
            "SELECT albums.name FROM albums JOIN artists ON albums.artist_id = artists.id "
            "WHERE artists.name = 'Nina Simone' AND albums.album_type = 'single'",
        ),
        (
            "Which album types have more than 5 albums?",
            "SELECT album_type FROM albums GROUP BY album_type HAVING COUNT(*) > 5",
        ),
    ],
)
def test_common_shapes(music_schema: DbSchema, request_text: str, expected: str) -> None:
    answer = generate_sql(request_text, music_schema)
    assert answer.sql == expected, answer.problems
    assert answer.problems == []


def test_a_request_no_table_answers_gets_no_sql(music_schema: DbSchema) -> None:
    answer = generate_sql("What will the weather be in Lisbon tomorrow?", music_schema)
    assert answer.sql == "" and answer.tables == []
    assert "no table answers this request" in answer.problems[0]


def test_answer_runs_on_the_filled_database(music_db: Path) -> None:
    schema = load_db_schema(music_db)
    connection = open_database(music_db)
    answer = answer_sql("How many albums are there per album type?", schema, connection)
    assert answer.executed and answer.columns == ["album_type", "COUNT(*)"]
    expected = (
        sqlite3.connect(music_db)
        .execute("SELECT album_type, COUNT(*) FROM albums GROUP BY album_type")
        .fetchall()
    )
    assert sorted(map(tuple, answer.rows)) == sorted(expected)
    assert sum(count for _, count in answer.rows) == 30


def test_ddl_works_as_a_database_too(music_ddl: Path) -> None:
    answer = answer_sql("How many artists are there?", load_db_schema(music_ddl), open_database(music_ddl))
    assert answer.executed and answer.rows == [[0]]
