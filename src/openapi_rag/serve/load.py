"""`openapi-rag bench serve`: start the HTTP API, load it with wrk on loopback, rebuild the index mid-run.

wrk (Debian package `wrk`) generates the load: it is C, so on a two-core machine it costs the
server far less CPU than a Python load tool would. Each connection walks the query list from its
own offset, so concurrent requests carry distinct queries. A Lua `response` hook checks every
body is a well-formed search answer. The run is bounded (duration, connections) and only ever
targets 127.0.0.1.

Also measured, before the load: the per-query cost of the HTTP and MCP layers over calling
`Index.search`, server-side and client-side like for like (`overhead.py`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import httpx

from openapi_rag.errors import MissingDependency, OpenAPIRagError
from openapi_rag.serve.cli_process import start_cli_server, stop_process
from openapi_rag.serve.load_trace import connections_by_worker, read_trace, tail_report, wrk_script
from openapi_rag.serve.overhead import measure_overhead

LOOPBACK = "127.0.0.1"
MAX_DURATION = 600
MAX_CONNECTIONS = 256


@dataclass(frozen=True)
class LoadPlan:
    index_dir: Path
    workers: int = 2
    connections: int = 32
    duration: int = 60
    rebuild_at: float | None = 20.0  # seconds into the load; None: no rebuild
    k: int = 10
    mode: str = "hybrid"
    overhead_queries: int = 100


def load_queries(path: str | Path | None = None) -> list[str]:
    """The bundled realistic tasks, or one query per line of `path` (`#` comments)."""
    text = (
        Path(path).read_text("utf-8")
        if path
        else resources.files("openapi_rag.data").joinpath("serve_load_queries.txt").read_text("utf-8")
    )
    queries = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    if not queries:
        raise OpenAPIRagError(f"{path}: no queries")
    return queries


def memory_mb(pid: int) -> dict[str, float]:
    """Resident (RSS) and proportional (PSS: shared pages split among sharers) memory of a process."""
    out = {}
    for name, key in (("status", "VmRSS:"), ("smaps_rollup", "Pss:")):
        try:
            for line in Path(f"/proc/{pid}/{name}").read_text().splitlines():
                if line.startswith(key):
                    out["rss_mb" if key == "VmRSS:" else "pss_mb"] = round(int(line.split()[1]) / 1024, 1)
                    break
        except OSError:
            pass
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU a process has used (all its threads)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_pids(parent: int) -> list[int]:
    try:
        children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    except OSError:
        return []
    return [int(pid) for pid in children]


class ServerProcess:
    """`openapi-rag serve` on 127.0.0.1 and a free port, for the length of the benchmark."""

    def __init__(self, index_dir: Path, workers: int, reload_interval: float = 1.0):
        args = ["serve", "--index", str(index_dir), "--host", LOOPBACK, "--port", "0"]
        args += ["--workers", str(workers), "--reload-interval", str(reload_interval)]
        self.process, self.base = start_cli_server(args)
        self.port = int(self.base.rsplit(":", 1)[1])
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(f"{self.base}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise OpenAPIRagError("the server did not answer /healthz")
            time.sleep(0.2)

    def pids(self) -> list[int]:
        """The workers' PIDs; the server's own where it runs no separate workers."""
        return worker_pids(self.process.pid) or [self.process.pid]

    def memory(self) -> dict[str, Any]:
        return {"parent": memory_mb(self.process.pid), "workers": [memory_mb(pid) for pid in self.pids()]}

    def stop(self) -> None:
        stop_process(self.process)


def _embed_batches(metrics: str) -> dict[str, Any]:
    """Runs of the embedder and texts embedded over the server's life (all workers), from /metrics."""
    totals = {}
    for line in metrics.splitlines():
        for name in ("openapi_rag_embed_batches_total", "openapi_rag_embedded_texts_total"):
            if line.startswith(name + " "):
                totals[name] = float(line.split()[1])
    runs = totals.get("openapi_rag_embed_batches_total", 0.0)
    texts = totals.get("openapi_rag_embedded_texts_total", 0.0)
    return {"runs": int(runs), "texts": int(texts), "mean_texts": round(texts / runs, 2) if runs else 0.0}


def rebuild(index_dir: Path) -> float:
    """Rewrite the whole index in place (atomic swap), as a rebuild does; seconds taken."""
    from openapi_rag.index import Index

    start = time.perf_counter()
    index = Index.open(index_dir)
    for service_id in index.manifest_service_ids():
        index.service_record(service_id)  # read now: the directory is replaced while saving
    index.save(index_dir)
    return time.perf_counter() - start


def run_load(plan: LoadPlan, queries: list[str], *, log: Any = print) -> dict[str, Any]:
    """Start the server, measure layer overhead, run wrk with a rebuild in the middle; the figures."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise MissingDependency("wrk is not installed: apt-get install wrk (Debian/Ubuntu)")
    if not 1 <= plan.duration <= MAX_DURATION or not 1 <= plan.connections <= MAX_CONNECTIONS:
        raise OpenAPIRagError(f"duration 1–{MAX_DURATION} s and connections 1–{MAX_CONNECTIONS}, please")
    log(f"starting the server ({plan.workers} workers) on {plan.index_dir} ...")
    server = ServerProcess(plan.index_dir, plan.workers)
    try:
        report: dict[str, Any] = {"workers": plan.workers, "connections": plan.connections, "mode": plan.mode}
        report["operations"] = httpx.get(f"{server.base}/healthz").json()["operations"]
        if plan.overhead_queries:
            log(f"layer overhead over {plan.overhead_queries} queries ...")
            report["overhead"] = measure_overhead(
                plan.index_dir,
                queries[: plan.overhead_queries],
                plan.k,
                plan.mode,
                base=server.base,
                workers=plan.workers,
            )
        report["memory_before"] = server.memory()
        pids = server.pids()
        with tempfile.TemporaryDirectory() as tmp:
            script, trace = Path(tmp) / "search.lua", Path(tmp) / "trace.txt"
            threads = min(2, plan.connections)
            script.write_text(wrk_script(queries, plan.k, plan.mode, threads=threads, trace_path=trace))
            command = [
                wrk,
                f"-t{threads}",
                f"-c{plan.connections}",
                f"-d{plan.duration}s",
                "--timeout",
                "10s",
            ]
            log(f"wrk: {plan.connections} connections for {plan.duration} s ...")
            cpu_before = {pid: cpu_seconds(pid) for pid in [server.process.pid, *pids]}
            origin = time.monotonic()
            load = subprocess.Popen(
                [*command, "-s", str(script), server.base], stdout=subprocess.PIPE, text=True
            )
            # Which worker holds which connections: the kernel hands each new one to whichever
            # worker accepts first, so the split need not be even.
            early = min(3.0, plan.duration / 2, plan.rebuild_at / 2 if plan.rebuild_at is not None else 3.0)
            time.sleep(early)
            spread = {"connections_early": connections_by_worker(pids, server.port)}
            rebuild_report: dict[str, Any] = {}
            window = None
            if plan.rebuild_at is not None and plan.rebuild_at < plan.duration:
                time.sleep(max(0.0, plan.rebuild_at - (time.monotonic() - origin)))
                log("rebuilding the index under load ...")
                rebuild_report["started_s"] = round(time.monotonic() - origin, 1)
                rebuild_report["seconds"] = round(rebuild(plan.index_dir), 1)
                settle = min(5.0, max(0.0, plan.duration - (time.monotonic() - origin) - 1))
                time.sleep(settle)
                # The workers reload within the poll interval after the swap, then warm the new
                # index: the window runs from the rebuild's start to `settle` seconds after its end.
                window = (rebuild_report["started_s"], time.monotonic() - origin)
                report["memory_after_reload"] = server.memory()
                spread["connections_after_reload"] = connections_by_worker(pids, server.port)
            output, _ = load.communicate(timeout=plan.duration + 120)
            cpu_after = {pid: cpu_seconds(pid) for pid in cpu_before}
            rows = read_trace(trace, origin) if trace.exists() else []
        server_cpu = sum(cpu_after[pid] - cpu_before[pid] for pid in cpu_before)
        spread["cpu_s"] = [round(cpu_after[pid] - cpu_before[pid], 1) for pid in pids]
        report["workers_load"] = spread
        report["tail"] = tail_report(rows, window, plan.duration)
        line = next((x for x in output.splitlines() if x.startswith("WRK_JSON ")), None)
        if line is None:
            raise OpenAPIRagError(f"wrk printed no summary:\n{output}")
        figures = json.loads(line.removeprefix("WRK_JSON "))
        # Each worker reloads on its own; new connections reach them in turn: the fewest reloads seen.
        seen = [httpx.get(f"{server.base}/healthz").json()["reloads"] for _ in range(4 * plan.workers)]
        rebuild_report["reloads_seen"] = min(seen)
        report["rebuild"] = rebuild_report
        report["embedder_batches"] = _embed_batches(httpx.get(f"{server.base}/metrics").text)
        kinds = ("connect_errors", "read_errors", "write_errors", "status_errors", "timeouts")
        errors = sum(figures[k] for k in kinds)
        report.update(
            {
                "requests": figures["requests"],
                "seconds": round(figures["duration_us"] / 1e6, 1),
                "throughput_rps": round(figures["requests"] / (figures["duration_us"] / 1e6), 1),
                "p50_ms": round(figures["p50_us"] / 1000, 1),
                "p95_ms": round(figures["p95_us"] / 1000, 1),
                "p99_ms": round(figures["p99_us"] / 1000, 1),
                "max_ms": round(figures["max_us"] / 1000, 1),
                # CPU, unlike latency, hardly depends on what else runs on the machine: with C cores
                # to itself, the server could answer about C * 1000 / this many requests per second.
                "server_cpu_ms_per_request": round(server_cpu * 1000 / max(1, figures["requests"]), 1),
                "errors": errors,
                "error_kinds": {k: figures[k] for k in kinds if figures[k]},
                "malformed": figures["malformed"],
                "checked": figures["checked"],
                "unmatched": figures["unmatched"],
            }
        )
        return report
    finally:
        server.stop()
