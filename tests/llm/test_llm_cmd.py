from __future__ import annotations

import json

from click.testing import CliRunner

from openapi_rag.cli import cli
from tests.llm.conftest import ScriptedServer, chat_reply


def test_check_answers_through_openai_server(server: ScriptedServer) -> None:
    server.reply(chat_reply("An API is a contract.", prompt=9, completion=6))
    result = CliRunner().invoke(
        cli,
        ["llm", "check", "--model", "openai:tiny", "--json"],
        env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url},
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["model"] == "openai:tiny" and report["reply"] == "An API is a contract."
    assert (report["prompt_tokens"], report["completion_tokens"]) == (9, 6)
    assert report["location"] == server.base_url


def test_check_explains_bad_key(server: ScriptedServer) -> None:
    server.reply({"error": {"message": "Incorrect API key provided"}}, status=401)
    result = CliRunner().invoke(
        cli, ["llm", "check", "--model", "openai:tiny"], env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url}
    )
    assert result.exit_code == 1
    assert "refused the API key" in result.stderr and "OPENAPI_RAG_LLM_API_KEY" in result.stderr


def test_check_explains_missing_key_and_unknown_name() -> None:
    result = CliRunner().invoke(cli, ["llm", "check", "--model", "openai:gpt-4o-mini"])
    assert result.exit_code == 1 and "No API key" in result.stderr
    result = CliRunner().invoke(cli, ["llm", "check", "--model", "nope", "--json"])
    assert result.exit_code == 1 and "Unknown LLM" in json.loads(result.stdout)["error"]


def test_check_explains_unreachable_server() -> None:
    result = CliRunner().invoke(
        cli,
        ["llm", "check", "--model", "openai:tiny"],
        env={"OPENAPI_RAG_LLM_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    assert result.exit_code == 1 and "could not connect" in result.stderr
