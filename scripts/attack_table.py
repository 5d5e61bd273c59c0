"""Run every input attack of issue #20 in a subprocess under a memory cap and a timeout, and print
a table: input → outcome, wall time, peak memory.

    PYTHONPATH=src python scripts/attack_table.py [--mem-mb 2048] [--timeout 60] [--markdown]

Each attack is built fresh in a temporary folder by `tests/fuzz/attacks.py` (the same inputs the
regression tests use) and given to the real command line (`python -m openapi_rag ...`). The cap is
RLIMIT_AS (address space) on the child; peak memory is the child's maximum resident set size.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.fuzz import attacks  # noqa: E402 - after the path is set

# Which command each attack is given to; `inspect --json` unless named here.
CHUNKED = {"100,000 refs to one schema", "5,000-long schema ref chain"}


class _Counter(BaseHTTPRequestHandler):
    hits = 0

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        _Counter.hits += 1
        self.send_response(200)
        self.send_header("Content-Length", "13")
        self.end_headers()
        self.wfile.write(b"type: object\n")

    def log_message(self, *args: object) -> None:
        pass


def run_capped(argv: list[str], mem_mb: int, timeout: float) -> tuple[int | str, float, float, str]:
    """(exit status or "timeout", wall seconds, peak RSS in MB, output) of one capped child."""
    limit = mem_mb * 1024 * 1024

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, preexec_fn=cap)
        status: int | str = "timeout"
        usage = None
        while time.perf_counter() - start < timeout:
            pid, raw, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(raw)
                break
            time.sleep(0.01)
        else:
            child.kill()
            _, _, usage = os.wait4(child.pid, 0)
        child.returncode = status if isinstance(status, int) else -9  # reaped here, not by Popen
        wall = time.perf_counter() - start
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return status, wall, (usage.ru_maxrss / 1024 if usage else 0.0), text


def outcome(name: str, text: str) -> str:
    """One line: the failure or problem the command reported, or what it produced."""
    if name in CHUNKED:
        return next((line for line in text.splitlines() if "chunks (" in line), text.strip()[-120:])
    try:
        report = json.loads(text[text.index("{") :])
    except ValueError:
        return text.strip().splitlines()[-1][:160] if text.strip() else "(no output)"
    if report["failed"]:
        failure = report["failed"][0]
        return f"failed: {failure['error']}"
    problems = [p for s in report["services"] for p in s["problems"]] + [
        v for s in report["services"] for v in s.get("validation", [])
    ]
    totals = report["totals"]
    loaded = f"{totals['services']} services, {totals['operations']} operations"
    return f"{loaded}; {problems[0]}" if problems else loaded


def remote_ref(folder: Path, url: str) -> Path:
    path = folder / "api.yaml"
    path.write_text(
        attacks.HEAD + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
        f"          content:\n            application/json:\n              schema: {{$ref: '{url}'}}\n"
    )
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mem-mb", type=int, default=2048, help="RLIMIT_AS of each run (MB).")
    parser.add_argument("--timeout", type=float, default=60.0, help="Seconds before a run is killed.")
    parser.add_argument("--markdown", action="store_true", help="A Markdown table instead of plain columns.")
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/schema.yaml"
    cases = [(name, build, None) for name, build in attacks.ATTACKS.items()]
    cases.append(("remote $ref under inspect --validate", lambda f: remote_ref(f, url), ["--validate"]))
    python = [sys.executable, "-m", "openapi_rag"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (name, build, extra) in enumerate(cases):
            folder = Path(tmp) / str(i)
            folder.mkdir()
            target = str(build(folder))
            if name in CHUNKED:
                commands = [[*python, "chunk", target, "--strategy", s, "--summary"] for s in ("ref-inline", "ref-linked")]
            else:
                commands = [[*python, "inspect", target, "--json", *(extra or [])]]
            for argv in commands:
                status, wall, peak, text = run_capped(argv, args.mem_mb, args.timeout)
                label = name + (f" ({argv[-2]})" if name in CHUNKED else "")
                rows.append((label, str(status), f"{wall:.2f}", f"{peak:.0f}", outcome(name, text)))
    server.shutdown()
    rows.append(("HTTP requests received by the loopback server", "", "", "", str(_Counter.hits)))

    header = ("input", "exit", "wall s", "peak MB", "outcome")
    print(f"memory cap {args.mem_mb} MB (RLIMIT_AS), timeout {args.timeout:.0f} s, python {sys.version.split()[0]}")
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for row in rows:
            print("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    else:
        for row in [header, *rows]:
            print(f"{row[0][:48]:48} {row[1]:>7} {row[2]:>7} {row[3]:>8}  {row[4][:150]}")


if __name__ == "__main__":
    main()
