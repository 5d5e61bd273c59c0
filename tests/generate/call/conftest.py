"""Fixtures for the call tests: real specs from ../shared/data and a small index over them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import shared_data
from tests.llm.conftest import no_llm_env, server  # noqa: F401 - fixtures, found by name

FINANCIALS = ("socbench-d", "socbenchd_1", "07-financials")
SPOTIFY = ("restbench", "specs", "spotify_oas.json")


@pytest.fixture(scope="session")
def call_services() -> list:
    from openapi_rag.spec import load_services

    return load_services([shared_data(*FINANCIALS), shared_data(*SPOTIFY)]).services


@pytest.fixture(scope="session")
def call_index(call_services: list, tmp_path_factory: pytest.TempPathFactory) -> object:
    """Spotify and the five SOCBench-D financial services, indexed with the default pipeline."""
    from openapi_rag.index import Index

    index = Index.build(call_services, cache=False)
    directory: Path = tmp_path_factory.mktemp("call-index") / "idx"
    index.save(directory)
    return Index.open(directory)


@pytest.fixture(scope="session")
def call_index_dir(call_index: object) -> Path:
    return call_index.directory  # type: ignore[attr-defined, no-any-return]
