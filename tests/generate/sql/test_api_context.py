"""Tables reached through a real index's operation search (`--context api|hybrid`), and `ask` for changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from openapi_rag.embed import register_embedder, unregister_embedder
from openapi_rag.generate.sql import DbSchema, SqlError
from openapi_rag.generate.sql.answer import generate_sql
from openapi_rag.generate.sql.ask import ask
from openapi_rag.generate.sql.retrieve import rank_tables
from openapi_rag.index import Index
from openapi_rag.spec import load_services
from tests.index.conftest import WordHashEmbedder

CHANGE_SPEC = """
  /albums/{id}:
    delete:
      summary: Delete an album
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {"204": {description: deleted}}
"""


@pytest.fixture
def music_index(music_spec: Path) -> Iterator[Index]:
    register_embedder("word-hash", lambda **_: WordHashEmbedder())
    text = music_spec.read_text().replace("\ncomponents:", CHANGE_SPEC.rstrip("\n") + "\ncomponents:", 1)
    music_spec.write_text(text)
    yield Index.build(load_services([music_spec]).services, embedder="word-hash", cache=False)
    unregister_embedder("word-hash")


def test_api_context_maps_operations_to_their_tables(music_schema: DbSchema, music_index: Index) -> None:
    hits = rank_tables("list albums", music_schema, context="api", index=music_index)
    assert hits and hits[0].table.name == "albums"
    hybrid = rank_tables("list albums", music_schema, context="hybrid", index=music_index)
    assert hybrid[0].table.name == "albums" and hybrid[0].score > hits[0].score
    answer = generate_sql("How many albums are there?", music_schema, context="api", index=music_index)
    assert answer.sql == "SELECT COUNT(*) FROM albums"
    with pytest.raises(SqlError, match="needs --index"):
        rank_tables("list albums", music_schema, context="api")


def test_ask_answers_a_change_with_an_operation(music_schema: DbSchema, music_index: Index) -> None:
    data = ask("Delete the album 'Blue'", music_schema, index=music_index)
    assert data["classification"] == "change" and data["answered_by"] == "api"
    call = data["call"]
    assert (call["method"], call["operation"]["path"]) == ("DELETE", "/albums/{id}")
    read = ask("How many albums are there?", music_schema, index=music_index)
    assert read["classification"] == "read" and read["sql"]["sql"] == "SELECT COUNT(*) FROM albums"
