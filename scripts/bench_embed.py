"""Speed and memory of the default embedder (all-MiniLM-L6-v2, int8 ONNX) on this machine.

Three workloads, each in a fresh process so that peak memory is its own:

- ``short``: 2,000 query-sized texts (about 10 tokens);
- ``long``: 192 texts that fill the 256-token window;
- ``endpoints``: 2,000 endpoint descriptions (method, path, summary, description, parameters) built
  from the RestBench specs in ../shared/data (synthetic ones of similar size when it is absent).

and ``tokens``: counting (and windowing) a ~4 MB document with each tokenizer.

Reported per embedding workload: texts/s (wall clock), CPU seconds per 1,000 texts (steadier than wall clock
when other processes share the cores), tokens per text, RSS after loading the model, peak RSS.

Usage:
    python scripts/bench_embed.py                         # all three, a table on stdout
    python scripts/bench_embed.py --json                  # JSON on stdout
    python scripts/bench_embed.py --batch-tokens 8192     # try another batch budget
    python scripts/bench_embed.py --embedder minilm-api   # the adapted model
    python scripts/bench_embed.py --shipped-graph         # the export as shipped, not the fused graph
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WORKLOADS = ("short", "long", "endpoints", "tokens")
DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
SHARED = DATA / "restbench" / "specs"
BIG_DOCUMENT = DATA / "realworld" / "openai" / "openapi.json"  # 3.4 MB


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def short_texts(n: int = 2000) -> list[str]:
    verbs = ["get", "list", "delete", "update", "create", "search for", "follow", "remove"]
    things = ["playlists", "albums of an artist", "a payment method", "the current user's profile", "tracks"]
    return [f"{verbs[i % 8]} {things[i % 5]} number {i}" for i in range(n)]


def long_texts(n: int = 192) -> list[str]:
    words = "the service returns a paginated list of resources owned by the authenticated user".split()
    return [" ".join(f"{words[(i + j) % len(words)]}" for j in range(400)) + f" {i}" for i in range(n)]


def endpoint_texts(n: int = 2000) -> list[str]:
    specs = sorted(SHARED.glob("*.json")) if SHARED.is_dir() else []
    base: list[str] = []
    for spec_file in specs:
        spec = json.loads(spec_file.read_text())
        for path, item in spec.get("paths", {}).items():
            for method, op in item.items():
                if not isinstance(op, dict) or method.startswith("x-") or method == "parameters":
                    continue
                params = [*item.get("parameters", []), *op.get("parameters", [])]
                lines = [f"{method.upper()} {path}", op.get("summary", ""), op.get("description", "")]
                lines += [
                    f"{p.get('name')} ({p.get('in')}): {p.get('description', '')}"
                    for p in params
                    if isinstance(p, dict)
                ]
                lines += [
                    f"{code}: {r.get('description', '')}" for code, r in op.get("responses", {}).items()
                ]
                base.append("\n".join(line for line in lines if line))
    if not base:
        log(f"{SHARED} not present: synthetic endpoint texts")
        base = [
            f"GET /users/{{id}}/items{i}\nList the items of a user.\n" + "limit (query): page size. " * 12
            for i in range(100)
        ]
    return [f"{base[i % len(base)]}\n(copy {i // len(base)})" for i in range(n)]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run_tokens() -> dict[str, Any]:
    from openapi_rag.tokens import get_tokenizer, list_tokenizers, windows

    if BIG_DOCUMENT.is_file():
        text = BIG_DOCUMENT.read_text()
    else:
        log(f"{BIG_DOCUMENT} not present: a synthetic 4 MB text")
        text = "\n".join(endpoint_texts(2000)) * 4
    out: dict[str, Any] = {"workload": "tokens", "chars": len(text)}
    for name in list_tokenizers():
        t0 = time.perf_counter()
        tok = get_tokenizer(name)
        loaded = time.perf_counter()
        count = tok.count(text)
        counted = time.perf_counter()
        parts = windows(text, 256, 32, tok)
        done = time.perf_counter()
        out[name] = {
            "load_s": round(loaded - t0, 2),
            "tokens": count,
            "count_s": round(counted - loaded, 2),
            "windows_256_32": len(parts),
            "windows_s": round(done - counted, 2),
        }
    return out


def run_workload(name: str, args: argparse.Namespace) -> dict[str, Any]:
    """Runs inside the child process."""
    if name == "tokens":
        return run_tokens()
    from openapi_rag.embed import get_embedder
    from openapi_rag.tokens import get_tokenizer

    texts = {"short": short_texts, "long": long_texts, "endpoints": endpoint_texts}[name]()
    counts = get_tokenizer("minilm").count_many(texts)
    options = {"batch_size": args.batch_size, "batch_tokens": args.batch_tokens, "threads": args.threads}
    if args.shipped_graph:
        options["fused"] = False
    embedder = get_embedder(
        args.embedder, memory_arena=not args.no_arena, **{k: v for k, v in options.items() if v is not None}
    )
    t0 = time.perf_counter()
    embedder.embed("warm up")  # loads the model
    load_s = time.perf_counter() - t0
    rss_loaded = rss_mb()
    cpu0, t0 = time.process_time(), time.perf_counter()
    vectors = embedder.embed_many(texts)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    assert vectors.shape == (len(texts), 384)
    return {
        "workload": name,
        "texts": len(texts),
        "tokens_mean": round(sum(min(c + 2, 256) for c in counts) / len(counts), 1),
        "tokens_max": min(max(counts) + 2, 256),
        "load_s": round(load_s, 2),
        "wall_s": round(wall, 2),
        "texts_per_s": round(len(texts) / wall, 1),
        "cpu_s_per_1000": round(cpu / len(texts) * 1000, 2),
        "rss_loaded_mb": round(rss_loaded),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "batch_size": embedder.batch_size,
        "batch_tokens": embedder.batch_tokens,
        "memory_arena": not args.no_arena,
        "threads": args.threads or "default",
        "graph": "shipped" if args.shipped_graph else "default",
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workload", choices=WORKLOADS, action="append", help="run only these")
    parser.add_argument("--batch-size", type=int, help="most texts per ONNX run (embedder default)")
    parser.add_argument("--batch-tokens", type=int, help="most padded tokens per run (embedder default)")
    parser.add_argument("--no-arena", action="store_true", help="turn ONNX Runtime's memory arena off")
    parser.add_argument("--threads", type=int, help="intra-op threads (embedder default: the usable cores)")
    parser.add_argument("--embedder", default="minilm", help="a local MiniLM-family embedder (minilm-api)")
    parser.add_argument(
        "--shipped-graph", action="store_true", help="run the export as shipped (fused=False)"
    )
    parser.add_argument("--json", action="store_true", help="JSON on stdout")
    parser.add_argument("--child", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_workload(args.child, args)))
        return

    results = []
    for name in args.workload or WORKLOADS:
        log(f"{name} ... (load average {os.getloadavg()[0]:.2f})")
        child = [sys.executable, __file__, "--child", name, "--embedder", args.embedder]
        for flag, value in (
            ("--batch-size", args.batch_size),
            ("--batch-tokens", args.batch_tokens),
            ("--threads", args.threads),
        ):
            child += [flag, str(value)] if value is not None else []
        child += ["--no-arena"] if args.no_arena else []
        child += ["--shipped-graph"] if args.shipped_graph else []
        out = subprocess.run(child, check=True, capture_output=True, text=True).stdout
        results.append(json.loads(out))
    if args.json:
        print(json.dumps({"cpus": os.cpu_count(), "results": results}, indent=2))
        return
    columns = [
        "workload",
        "texts",
        "tokens_mean",
        "texts_per_s",
        "cpu_s_per_1000",
        "rss_loaded_mb",
        "peak_rss_mb",
    ]
    if any(row["workload"] != "tokens" for row in results):
        print("\t".join(columns))
    for row in results:
        if row["workload"] != "tokens":
            print("\t".join(str(row[c]) for c in columns))
    for row in results:
        if row["workload"] == "tokens":
            print(f"\ntokenizers on a {row['chars']:,}-character document:")
            for name, figures in row.items():
                if isinstance(figures, dict):
                    print(f"  {name}: " + ", ".join(f"{k}={v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
