"""Table chunks stored in an API index beside its operation chunks, and read from there by sql/ask."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.embed import register_embedder, unregister_embedder
from openapi_rag.generate.sql import DbSchema, SqlError, derive_schema, load_db_schema
from openapi_rag.generate.sql.answer import generate_sql
from openapi_rag.generate.sql.retrieve import table_chunks
from openapi_rag.generate.sql.table_index import load_table_chunks, load_tables, save_tables
from openapi_rag.index import Index, build_index
from openapi_rag.spec import load_services
from openapi_rag.store.atomic import backup_path
from openapi_rag.store.lock import writer_lock
from tests.conftest import shared_data
from tests.index.conftest import WordHashEmbedder
from tests.llm.doubles import ScriptedLLM


@pytest.fixture
def word_hash() -> Iterator[None]:
    register_embedder("word-hash", lambda **_: WordHashEmbedder())
    yield
    unregister_embedder("word-hash")


@pytest.fixture
def music_index(music_spec: Path, tmp_path: Path, word_hash: None) -> Path:
    directory = tmp_path / "idx"
    build_index([music_spec], directory, embedder="word-hash")
    return directory


def _search(directory: Path, query: str) -> list[tuple[str, float]]:
    return [(h.id, round(h.score, 6)) for h in Index.open(directory).search(query, k=10)]


def test_tables_stored_beside_operations_leave_endpoint_search_alone(
    music_index: Path, music_spec: Path, music_schema: DbSchema
) -> None:
    queries = ["list albums", "get an artist", "the current user's playlists"]
    before = [_search(music_index, q) for q in queries]
    assert save_tables(music_index, music_schema) == len(music_schema.tables)
    assert [_search(music_index, q) for q in queries] == before  # no table chunk among the hits
    chunks = load_table_chunks(music_index)
    assert {c.kind for c in chunks} == {"table"} and [c.id for c in chunks][:1] == ["table:artists"]
    # Made from the stored tables when read: the chunks of the schema that was saved.
    assert [c.to_dict() for c in chunks] == [c.to_dict() for c in table_chunks(music_schema)]
    assert sorted(p.name for p in (music_index / "tables").iterdir()) == ["schema.json"]
    stored = load_tables(music_index)
    assert stored is not None and [t.name for t in stored.tables] == [t.name for t in music_schema.tables]
    assert stored.table("albums").source["operations"] == ["GET /albums"]  # type: ignore[union-attr]
    # Re-indexing the API chunks (a changed spec) keeps the tables.
    music_spec.write_text(music_spec.read_text().replace("List albums", "List all albums"))
    report = build_index([music_spec], music_index)
    assert report.changed and load_tables(music_index) is not None
    assert len(load_table_chunks(music_index)) == len(music_schema.tables)


def test_index_without_tables_and_damaged_tables(music_index: Path) -> None:
    assert load_tables(music_index) is None and load_table_chunks(music_index) == []
    (music_index / "tables").mkdir()
    (music_index / "tables" / "schema.json").write_text("{not json")
    with pytest.raises(SqlError, match=r"tables/schema.json: not the table records"):
        load_tables(music_index)


def _save_cut_off_between_renames(
    index_dir: Path, schema: DbSchema, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`save_tables`, killed after it moved the old `tables/` aside and before the new one went in."""
    real_rename = os.rename
    calls: list[tuple[str | Path, str | Path]] = []

    def crash_on_second_rename(src: str | Path, dst: str | Path) -> None:
        calls.append((src, dst))
        if len(calls) == 2:
            raise OSError("power cut")
        real_rename(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(os, "rename", crash_on_second_rename)
        with pytest.raises(OSError, match="power cut"):
            save_tables(index_dir, schema)
    assert not (index_dir / "tables").exists() and backup_path(index_dir / "tables").is_dir()


def test_a_save_of_tables_cut_off_mid_swap_leaves_the_previous_tables(
    music_index: Path, music_spec: Path, music_schema: DbSchema, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_tables(music_index, music_schema)
    names = [t.name for t in music_schema.tables]
    chunks = [c.to_dict() for c in load_table_chunks(music_index)]
    one_table = DbSchema(music_schema.tables[:1], "one.sql")
    _save_cut_off_between_renames(music_index, one_table, monkeypatch)

    with writer_lock(music_index):  # a writer at work: the swap may be in progress, read the backup
        assert [t.name for t in load_tables(music_index).tables] == names  # type: ignore[union-attr]
        assert not (music_index / "tables").exists()
    stored = load_tables(music_index)  # no writer: the cut-off swap is undone
    assert stored is not None and [t.name for t in stored.tables] == names
    assert [c.to_dict() for c in load_table_chunks(music_index)] == chunks
    assert (music_index / "tables").is_dir() and not backup_path(music_index / "tables").exists()

    # Re-indexing the API right after such a cut carries the previous tables over too.
    _save_cut_off_between_renames(music_index, one_table, monkeypatch)
    music_spec.write_text(music_spec.read_text().replace("List albums", "List all albums"))
    assert build_index([music_spec], music_index).changed
    stored = load_tables(music_index)
    assert stored is not None and [t.name for t in stored.tables] == names


def test_cli_index_db_then_sql_from_the_index_alone_and_with_a_filled_db(
    music_spec: Path, music_ddl: Path, music_db: Path, tmp_path: Path, word_hash: None
) -> None:
    runner = CliRunner()
    directory = tmp_path / "cli-idx"
    built = runner.invoke(
        cli,
        [
            "index",
            str(music_spec),
            "--index",
            str(directory),
            "-e",
            "word-hash",
            "--db",
            str(music_ddl),
            "--json",
        ],
    )
    assert built.exit_code == 0, built.output
    assert json.loads(built.stdout)["tables"] == 5
    # No --db: the SQL comes from the index's tables and is not run.
    alone = runner.invoke(cli, ["sql", "How many albums are there?", "--index", str(directory), "--json"])
    assert alone.exit_code == 0, alone.output
    data = json.loads(alone.stdout)
    assert data["sql"] == "SELECT COUNT(*) FROM albums" and not data["executed"] and data["rows"] == []
    # A filled .sqlite keeps no sources; the index gives them, so --context api reaches the table.
    api = runner.invoke(
        cli,
        [
            "sql",
            "How many albums are there?",
            "--db",
            str(music_db),
            "--index",
            str(directory),
            "--context",
            "api",
        ],
    )
    assert api.exit_code == 0, api.output
    assert api.stdout.splitlines() == ["SELECT COUNT(*) FROM albums", "COUNT(*)", "30"]
    shown = runner.invoke(cli, ["schema", "chunks", "--index", str(directory), "--json"])
    assert shown.exit_code == 0 and [c["kind"] for c in json.loads(shown.stdout)] == ["table"] * 5
    nothing = runner.invoke(cli, ["sql", "anything", "--index", str(tmp_path / "none")])
    assert nothing.exit_code == 1
    asked = runner.invoke(cli, ["ask", "How many albums are there?", "--index", str(directory), "--json"])
    assert asked.exit_code == 0, asked.output
    read = json.loads(asked.stdout)
    assert read["answered_by"] == "sql" and read["sql"]["sql"] == "SELECT COUNT(*) FROM albums"
    assert not read["sql"]["executed"]  # the index documents the tables; no database to run on


def test_cli_sql_needs_a_db_or_tables(music_index: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["sql", "How many albums are there?", "--index", str(music_index)],
        env={"OPENAPI_RAG_RAISE_ERRORS": ""},
    )
    assert result.exit_code == 2 and "schema index" in result.output


def test_api_context_gives_the_llm_the_operations_documentation(
    music_index: Path, music_schema: DbSchema
) -> None:
    save_tables(music_index, music_schema)
    index = Index.open(music_index)
    reply = json.dumps({"sql": "SELECT COUNT(*) FROM albums", "tables": ["albums"]})
    prompts = {}
    for context in ("db", "api", "hybrid"):
        llm = ScriptedLLM([reply])
        answer = generate_sql(
            "How many albums are there?", music_schema, generator="llm", context=context, index=index, llm=llm
        )
        assert answer.sql == "SELECT COUNT(*) FROM albums" and answer.problems == []
        prompts[context] = llm.calls[0]["messages"][-1]["content"]
    assert (
        "GET /albums" in prompts["api"]
        and "Table albums holds what these API operations return" in prompts["api"]
    )
    assert (
        "GET /albums: List albums\nresponses:" in prompts["api"] and "- album_type TEXT" not in prompts["api"]
    )
    assert "- album_type TEXT" in prompts["db"] and "responses:" not in prompts["db"]
    assert (
        "- album_type TEXT" in prompts["hybrid"]
        and "GET /albums: List albums\nresponses:" in prompts["hybrid"]
    )


def test_spotify_tables_in_a_spotify_index(tmp_path: Path, word_hash: None) -> None:
    spec = shared_data("restbench", "specs", "spotify_oas.json")
    directory = tmp_path / "spotify-idx"
    build_index([spec], directory, embedder="word-hash")
    derived = derive_schema(load_services([spec]).services)
    save_tables(directory, derived)
    stored = load_tables(directory)
    assert stored is not None and stored.to_dict() == derived.to_dict()
    ddl = load_db_schema(Path(__file__).parents[3] / "benchmarks" / "sql" / "spotify.sql")
    assert {t.name for t in stored.tables} == {t.name for t in ddl.tables}
    answer = generate_sql(
        "How many playlists are public?", stored, context="hybrid", index=Index.open(directory)
    )
    assert answer.sql == "SELECT COUNT(*) FROM playlists WHERE public = 1"


def test_cli_index_db_with_a_store_is_refused_before_anything_is_written(
    music_spec: Path, music_ddl: Path, tmp_path: Path
) -> None:
    # Table chunks live in an index directory (`tables/`); a PostgreSQL collection has no such place.
    # The DSN names a host that is never contacted: the options are refused first.
    result = CliRunner().invoke(
        cli,
        ["index", str(music_spec), "--store", "postgresql://nobody@127.0.0.1:9/none", "--db", str(music_ddl)],
    )
    assert result.exit_code == 2
    assert "--db" in result.output and "--store" in result.output
