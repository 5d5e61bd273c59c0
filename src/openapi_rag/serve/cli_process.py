"""An `openapi-rag` server command as a subprocess: started, its URL read, stopped.

`bench serve` runs the HTTP API (`load.ServerProcess`) and `openapi-rag mcp --transport http`
(`overhead.mcp_http_server`) this way, and the tests run their servers with the same two calls.
`bench startup` times fresh processes of the same `COMMAND`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from openapi_rag.errors import OpenAPIRagError

# A fresh interpreter running this package's CLI.
COMMAND = [sys.executable, "-m", "openapi_rag"]


def keyless_env() -> dict[str, str]:
    """This process's environment without API keys: a loopback server started here needs none."""
    return {k: v for k, v in os.environ.items() if not k.startswith("OPENAPI_RAG_API_KEY")}


def with_this_source(env: dict[str, str]) -> dict[str, str]:
    """`env` with the folder this package is imported from first on PYTHONPATH, so that a fresh
    interpreter runs this very code (a source checkout, not whatever else is installed)."""
    source = str(Path(__file__).resolve().parents[2])
    return {**env, "PYTHONPATH": os.pathsep.join(filter(None, [source, env.get("PYTHONPATH", "")]))}


def spawn_cli(args: list[str], *, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`openapi-rag ARGS`, its stderr piped as text (where a server announces its URL);
    stdin and stdout closed. `env` defaults to `keyless_env()`."""
    return subprocess.Popen(
        [*COMMAND, *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=keyless_env() if env is None else env,
    )


def start_cli_server(args: list[str], name: str = "the server") -> tuple[subprocess.Popen[str], str]:
    """`openapi-rag ARGS` started and its announced URL (`http://host:port[/path]`), read from the
    first line of its stderr, printed once the index is loaded and the socket listens.

    Raises:
        OpenAPIRagError: the first line announces no URL (the process is stopped).
    """
    process = spawn_cli(args)
    assert process.stderr is not None
    line = process.stderr.readline()
    if "http://" not in line:
        stop_process(process)
        raise OpenAPIRagError(f"{name} did not start: {line.strip()}")
    threading.Thread(target=process.stderr.read, daemon=True).start()  # keep the pipe drained
    return process, "http://" + line.split("http://", 1)[1].split()[0].rstrip("/")


def stop_process(process: subprocess.Popen[str], timeout: float = 30) -> None:
    """Terminate, wait up to `timeout` seconds, then kill."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
