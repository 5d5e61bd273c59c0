"""Shared test fixtures: isolation of the user's environment and the location of ../shared/data."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = (REPO / ".." / "shared" / "data").resolve()


# Property tests explore new examples on every local run, but CI replays one fixed sequence: a
# submission must not pass or fail by the draw (the attacks found so far are kept as @example).
settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("dev", database=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def shared_data(*parts: str) -> Path:
    """A path under ../shared/data, skipping the test when the shared data is not there (a fresh clone)."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(
            f"{path} not present: these tests read the shared benchmark data, which sits beside the "
            f"repository as ../shared/data ({SHARED_DATA}); put the project's shared/ folder (data/restbench, "
            "data/socbench-d, data/realworld, data/extra) there, or symlink it: `ln -s PATH/TO/shared ../shared`"
        )
    return path


@pytest.fixture(scope="session")
def shared_graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder of quantized model graphs (`embed/minilm_int8.py`) for the whole run: every test
    gets a new home, and quantizing a model takes seconds."""
    return tmp_path_factory.mktemp("graphs")


@pytest.fixture(autouse=True)
def isolated_env(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, shared_graphs: Path
) -> None:
    home = tmp_path_factory.mktemp("openapi-rag-home")
    (home / "cache").mkdir()
    (home / "cache" / "graphs").symlink_to(shared_graphs, target_is_directory=True)
    monkeypatch.setenv("OPENAPI_RAG_HOME", str(home))
    monkeypatch.setenv("OPENAPI_RAG_NO_PROGRESS", "1")
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
