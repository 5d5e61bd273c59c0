"""A small real index (MiniLM over the bundled Spotify and Uber specs) and real servers around it."""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

# mcp.client.stdio binds its `errlog=sys.stderr` default at import: import it here, before any
# CliRunner test swaps sys.stderr for a stand-in without a file descriptor.
import httpx
import mcp.client.stdio  # noqa: F401
import pytest

from openapi_rag.serve.cli_process import keyless_env, spawn_cli, stop_process, with_this_source

CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"
SRC = Path(__file__).resolve().parents[2] / "src"
SPECS = ("spotify.json", "uber.yaml")
STARTUP_SECONDS = 120


def build_index(specs: Path, index_dir: Path) -> Path:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services

    Index.build(load_services([specs]).services, cache=False).save(index_dir)
    return index_dir


@pytest.fixture(scope="session")
def spec_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("serve-specs")
    for name in SPECS:
        shutil.copy(CATALOG / name, folder / name)
    return folder


@pytest.fixture(scope="session")
def index_dir(spec_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once per session with the real default embedder (45 operations, about a second)."""
    return build_index(spec_dir, tmp_path_factory.mktemp("serve-index") / "idx")


def cli_env(**extra: str) -> dict[str, str]:
    return {**with_this_source(keyless_env()), **extra}


class Server:
    """`openapi-rag ARGS` as a subprocess on an ephemeral loopback port, stopped on exit."""

    def __init__(self, args: list[str], *, env: dict[str, str] | None = None, pattern: str = r"http://\S+"):
        self.process = spawn_cli(args, env=env or cli_env())
        self.stderr_lines: list[str] = []
        deadline = time.monotonic() + STARTUP_SECONDS
        assert self.process.stderr is not None
        while time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                raise AssertionError(f"server exited: {''.join(self.stderr_lines)}")
            self.stderr_lines.append(line)
            found = re.search(pattern, line)
            if found:
                self.url = found.group(0).rstrip("/")
                break
        else:
            self.stop()
            raise AssertionError("server did not start in time")
        # Keep draining stderr, so a chatty server never blocks on a full pipe.
        self._drain = threading.Thread(target=self._read_rest, daemon=True)
        self._drain.start()
        self._wait_ready()

    def _read_rest(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.stderr_lines.append(line)

    def _wait_ready(self) -> None:
        base = re.match(r"http://[^/]+", self.url).group(0)  # type: ignore[union-attr]
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                httpx.get(base + "/healthz", timeout=5)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("server never answered")

    def stop(self) -> str:
        stop_process(self.process, timeout=20)
        self._drain.join(timeout=5)
        return "".join(self.stderr_lines)


@pytest.fixture(scope="module")
def http_server(index_dir: Path) -> Iterator[Server]:
    server = Server(["serve", "--index", str(index_dir), "--port", "0"])
    yield server
    server.stop()
