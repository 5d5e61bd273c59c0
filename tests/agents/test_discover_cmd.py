"""`openapi-rag discover` end to end: a real index, an OpenAI-compatible test server as the LLM."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.embed import Embedder, normalize_rows, register_embedder, unregister_embedder
from openapi_rag.index import Index
from openapi_rag.spec.load import load_service
from tests.llm.conftest import ScriptedServer, chat_reply

SPEC = Path(__file__).resolve().parents[1] / "llm" / "fixtures" / "music.json"


class LetterEmbedder(Embedder):
    """26-dimensional letter counts: instant and deterministic."""

    model_id = "letters"
    dimensions = 26
    max_tokens = 10_000

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        rows = np.ones((len(texts), 26), dtype=np.float32)
        for i, text in enumerate(texts):
            for ch in re.findall(r"[a-z]", text.lower()):
                rows[i, ord(ch) - 97] += 1
        return normalize_rows(rows)


@pytest.fixture
def index_dir(tmp_path: Path) -> Iterator[Path]:
    register_embedder("letters", lambda **_: LetterEmbedder())
    service = load_service(SPEC, service_id="music")
    Index.build([service], strategy="endpoint", embedder="letters", cache=False).save(tmp_path / "idx")
    yield tmp_path / "idx"
    unregister_embedder("letters")


def _call(name: str, **args: object) -> dict:
    return {"id": f"c-{name}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}


def test_discover_with_tool_calling_server(index_dir: Path, server: ScriptedServer) -> None:
    server.reply(chat_reply(None, [_call("search", query="create a playlist")], prompt=300, completion=20))
    server.reply(
        chat_reply(None, [_call("finish", endpoints=["POST /playlists", "DELETE /nothing"])], 400, 15)
    )
    result = CliRunner().invoke(
        cli,
        [
            "discover",
            "Make a new playlist",
            "--index",
            str(index_dir),
            "--llm",
            "openai:tiny",
            "-k",
            "all",
            "--json",
        ],
        env={"OPENAPI_RAG_LLM_BASE_URL": server.base_url},
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["endpoints"] == ["POST /playlists"] and report["finished"]
    assert (report["prompt_tokens"], report["completion_tokens"]) == (700, 35)
    observation = server.requests[1]["messages"][-1]
    assert observation["role"] == "tool" and "POST /playlists" in observation["content"]
    assert "GET /albums/{id}/tracks" in observation["content"]  # k=all: both endpoints listed


def test_discover_text_output_and_bad_k(index_dir: Path, server: ScriptedServer) -> None:
    server.reply(chat_reply(None, [_call("finish", endpoints=["GET /albums/{id}/tracks"])]))
    env = {"OPENAPI_RAG_LLM_BASE_URL": server.base_url}
    args = ["discover", "Album tracks", "--index", str(index_dir), "--model", "openai:tiny"]
    result = CliRunner().invoke(cli, args, env=env)
    assert result.exit_code == 0 and result.stdout == "GET /albums/{id}/tracks\n"
    assert "finished in 1 steps" in result.stderr
    assert "--model is deprecated, use --llm" in result.stderr  # the old name still works
    assert CliRunner().invoke(cli, [*args, "-k", "zero"], env=env).exit_code == 2
    both = CliRunner().invoke(cli, [*args, "--llm", "openai:tiny"], env=env)
    assert both.exit_code == 2 and "give --llm only" in both.stderr
