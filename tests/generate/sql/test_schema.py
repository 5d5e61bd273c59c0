"""Deriving tables from GET responses, reading DDL and databases back, filling rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.generate.sql import DbSchema, SqlError, derive_schema, fill_database, load_db_schema
from openapi_rag.spec import load_services
from tests.conftest import shared_data


def test_one_table_per_returned_object_with_keys_and_flattening(music_schema: DbSchema) -> None:
    names = {t.name for t in music_schema.tables}
    # The paging wrapper (limit/total only) is no table; its items are; the example-only response is.
    assert names == {"artists", "albums", "playlists", "users", "tracks"}
    playlists = music_schema.table("playlists")
    assert [c.name for c in playlists.columns] == ["id", "name", "public", "tracks_total", "owner_id"]
    assert playlists.column("owner_id").references == "users.id"
    assert playlists.column("public").format == "boolean"
    albums = music_schema.table("albums")
    assert albums.column("album_type").enum == ["album", "single", "compilation"]
    assert albums.column("artist_id").references == "artists.id"
    assert music_schema.table("tracks").column("albumId").references == "albums.id"
    assert music_schema.table("artists").column("genres") is None  # arrays are no columns
    order = [t.name for t in music_schema.tables]
    assert order.index("users") < order.index("playlists")  # parents first


def test_ddl_round_trip_keeps_descriptions_enums_and_keys(music_ddl: Path, tmp_path: Path) -> None:
    text = music_ddl.read_text()
    assert "REFERENCES users(id)" in text and "one of: album, single, compilation" in text
    loaded = load_db_schema(music_ddl)
    assert loaded.table("artists").description == "A musician or band."
    assert loaded.table("albums").column("album_type").enum == ["album", "single", "compilation"]
    # Without the sidecar the DDL comments still carry descriptions and enums.
    bare = tmp_path / "bare.sql"
    bare.write_text(text)
    again = load_db_schema(bare)
    assert again.table("artists").column("name").description == "The artist's name."
    assert again.table("albums").column("album_type").enum == ["album", "single", "compilation"]
    assert again.table("playlists").column("owner_id").references == "users.id"


def test_fill_respects_types_enums_keys_and_seed(music_schema: DbSchema, tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.sqlite", tmp_path / "b.sqlite", tmp_path / "c.sqlite"
    fill_database(music_schema, first, rows=25, seed=7)
    fill_database(music_schema, second, rows=25, seed=7)
    fill_database(music_schema, other, rows=25, seed=8)
    dump = [list(sqlite3.connect(p).iterdump()) for p in (first, second, other)]
    assert dump[0] == dump[1] and dump[0] != dump[2]
    db = sqlite3.connect(first)
    assert {r[0] for r in db.execute("SELECT album_type FROM albums")} <= {"album", "single", "compilation"}
    orphans = db.execute("SELECT count(*) FROM albums WHERE artist_id NOT IN (SELECT id FROM artists)")
    assert orphans.fetchone()[0] == 0
    assert {r[0] for r in db.execute("SELECT public FROM playlists")} <= {0, 1}
    dates = [r[0] for r in db.execute("SELECT release_date FROM albums")]
    assert all(len(d) == 10 and d[4] == "-" for d in dates)
    # The filled database reads back as a schema too, read-only.
    assert {t.name for t in load_db_schema(first).tables} == {t.name for t in music_schema.tables}


def test_unreadable_ddl_names_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sql"
    bad.write_text("CREATE TABLE a (x INTEGER);\n\n-- a comment\nCREATE TABLE b (y INTEGER,, z);\n")
    with pytest.raises(SqlError, match=r"bad\.sql:4: near \",\": syntax error"):
        load_db_schema(bad)
    binary = tmp_path / "blob.sql"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(SqlError, match="blob.sql: not a text DDL file"):
        load_db_schema(binary)


@pytest.mark.parametrize(
    ("statement", "denied"),
    [
        ("ATTACH DATABASE '{out}' AS other;", "ATTACH"),
        ("VACUUM INTO '{out}';", "ATTACH"),  # SQLite authorizes VACUUM INTO as an ATTACH
        ("PRAGMA temp_store_directory = '{dir}';", "PRAGMA temp_store_directory"),
    ],
)
def test_ddl_may_not_reach_other_files(tmp_path: Path, statement: str, denied: str) -> None:
    out = tmp_path / "elsewhere" / "written.db"
    out.parent.mkdir()
    ddl = tmp_path / "hostile.sql"
    ddl.write_text("CREATE TABLE a (id INTEGER);\n\n" + statement.format(out=out, dir=out.parent) + "\n")
    with pytest.raises(
        SqlError, match=rf"hostile\.sql:3: {denied}.* refused: a DDL file may not read or write"
    ):
        load_db_schema(ddl)
    assert list(out.parent.iterdir()) == []
    fine = tmp_path / "fine.sql"
    fine.write_text("PRAGMA foreign_keys = ON;\nCREATE TABLE a (id INTEGER);\nINSERT INTO a VALUES (1);\n")
    assert [t.name for t in load_db_schema(fine).tables] == ["a"]


def test_user_written_ddl_is_accepted(tmp_path: Path) -> None:
    ddl = tmp_path / "bank.sql"
    ddl.write_text(
        "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, segment TEXT);\n"
        "CREATE TABLE accounts (\n  id INTEGER PRIMARY KEY,\n"
        "  customer_id INTEGER REFERENCES customers(id), -- the holder\n  balance DECIMAL(10,2)\n);\n"
    )
    schema = load_db_schema(ddl)
    accounts = schema.table("accounts")
    assert accounts.column("customer_id").references == "customers.id"
    assert accounts.column("customer_id").description == "the holder"
    assert accounts.column("balance").type == "REAL"


def test_schema_cli_derive_and_fill(music_spec: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    ddl, db = tmp_path / "out.sql", tmp_path / "out.sqlite"
    result = runner.invoke(cli, ["schema", "derive", str(music_spec), "-o", str(ddl)])
    assert result.exit_code == 0, result.output
    assert "playlists\t5 columns" in result.stdout and (tmp_path / "out.json").is_file()
    result = runner.invoke(cli, ["schema", "fill", str(ddl), "-o", str(db), "--rows", "4"])
    assert result.exit_code == 0, result.output
    assert sqlite3.connect(db).execute("SELECT count(*) FROM playlists").fetchone()[0] == 4


@pytest.mark.shared
def test_spotify_derives_its_entities() -> None:
    spec = shared_data("restbench", "specs", "spotify_oas.json")
    schema = derive_schema(load_services([spec]).services)
    names = {t.name for t in schema.tables}
    assert {"albums", "artists", "tracks", "playlists", "users", "shows", "episodes"} <= names
    assert schema.table("tracks").column("album_id").references == "albums.id"
    assert not any(name.startswith("paging") for name in names)


def test_two_services_returning_one_name_get_a_table_each(music_spec: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.yaml"
    other.write_text(
        music_spec.read_text()
        .replace("title: Music", "title: Radio")
        .replace("display_name: {type: string}", "default: {type: string}\n        order: {type: integer}")
    )
    problems: list[str] = []
    schema = derive_schema(load_services([music_spec, other]).services, problems)
    names = {t.name for t in schema.tables}
    assert {"music_users", "radio_users", "music_playlists", "radio_playlists"} <= names
    assert schema.table("radio_playlists").column("owner_id").references == "radio_users.id"
    # Columns named like SQL keywords are quoted, so the DDL loads and fills.
    ddl = tmp_path / "both.sql"
    schema.save(ddl)
    assert '"default" TEXT' in ddl.read_text()
    fill_database(load_db_schema(ddl), tmp_path / "both.sqlite", rows=3)
    assert problems == []
