"""How long the entry points take to start (`openapi-rag bench startup`).

Two figures, each the median of several fresh processes: `openapi-rag --help` (the whole CLI
imported and its help printed), and an MCP server's start to its first answer: the official SDK
client spawns `openapi-rag mcp --index DIR` over stdio, as an agent's host does, runs the
handshake and calls `search_endpoints`; the clock runs from the spawn to the tool's result.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from openapi_rag.serve.cli_process import COMMAND, with_this_source


def _env() -> dict[str, str]:
    """A fresh interpreter's environment with this package first on its path, as the CLI runs."""
    return with_this_source(dict(os.environ))


def _summary(seconds: list[float]) -> dict[str, Any]:
    return {
        "median_s": round(statistics.median(seconds), 3),
        "min_s": round(min(seconds), 3),
        "max_s": round(max(seconds), 3),
        "runs": len(seconds),
    }


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_help(runs: int) -> dict[str, Any]:
    """Wall seconds of `openapi-rag --help`, each in a new process, and its CPU seconds (user +
    system), which a busy machine does not stretch the way it stretches wall time."""
    seconds, cpu = [], []
    for _ in range(runs):
        start, cpu_start = time.perf_counter(), _children_cpu()
        subprocess.run([*COMMAND, "--help"], check=True, capture_output=True, env=_env(), timeout=120)
        seconds.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - cpu_start)
    return {**_summary(seconds), "cpu_median_s": round(statistics.median(cpu), 3)}


def time_mcp_first_answer(index_dir: Path, runs: int, query: str = "send an SMS to a customer") -> dict[str, Any]:
    """Wall seconds from spawning `openapi-rag mcp --index DIR` (stdio) to the first search result,
    and to the end of the handshake, each run a new server process."""
    import anyio
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=COMMAND[0], args=[*COMMAND[1:], "mcp", "--index", str(index_dir)], env=_env()
    )

    async def once() -> tuple[float, float]:
        with anyio.fail_after(300):
            start = time.perf_counter()
            async with Client(params) as client:
                ready = time.perf_counter() - start
                result = await client.call_tool("search_endpoints", {"query": query, "k": 5})
                answered = time.perf_counter() - start
                if result.is_error:
                    raise RuntimeError(f"search_endpoints failed: {result.content}")
        return ready, answered

    handshakes, answers = [], []
    for _ in range(runs):
        ready, answered = anyio.run(once)
        handshakes.append(ready)
        answers.append(answered)
    return {**_summary(answers), "handshake_median_s": round(statistics.median(handshakes), 3)}
