"""The SQL LLM path against an OpenAI-compatible server (a scripted one on loopback): a strong model
is a matter of configuration, the same prompts and checks as the local model."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from openapi_rag.cli import cli
from tests.llm.conftest import ScriptedServer, chat_reply, no_llm_env, server  # noqa: F401 - fixtures, found by name


def test_sql_corag_through_an_openai_compatible_server(music_db: Path, server: ScriptedServer) -> None:  # noqa: F811
    server.reply(chat_reply('{"query": "albums"}'))
    server.reply(chat_reply('{"relevant": ["albums"], "enough": true}'))
    server.reply(
        chat_reply(
            '{"sql": "SELECT COUNT(*) FROM albums WHERE album_type = \'single\'", "tables": ["albums"]}'
        )
    )
    args = ["sql", "How many singles are there?", "--db", str(music_db), "-g", "llm", "--policy", "corag"]
    result = CliRunner().invoke(
        cli,
        [*args, "--llm", "openai:strong-model", "--json"],
        env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["executed"] and data["tables"] == ["albums"] and data["problems"] == []
    assert data["llm"]["calls"] == 3 and data["llm"]["policy_stop"] == "enough"
    assert [r["model"] for r in server.requests] == ["strong-model"] * 3
    judged = server.requests[1]["messages"][-1]["content"]
    assert "Retrieved tables:" in judged and "albums: Table albums" in judged
    assert "Table albums" in server.requests[2]["messages"][-1]["content"]


def test_a_write_from_the_server_is_refused_before_running(music_db: Path, server: ScriptedServer) -> None:  # noqa: F811
    server.reply(chat_reply('{"sql": "DROP TABLE albums", "tables": ["albums"]}'))
    result = CliRunner().invoke(
        cli,
        ["sql", "Remove the albums", "--db", str(music_db), "-g", "llm", "--llm", "openai:m", "--json"],
        env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url},
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert not data["executed"] and data["rows"] == []
    assert data["problems"] == ["refused: only SELECT is allowed, not DROP"]
