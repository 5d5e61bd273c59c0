"""Crash-safety trials: `kill -9` at random moments while two `openapi-rag index` writers race.

Each trial changes a small real corpus (edits an operation's summary, removes a spec or brings one
back), starts two writers on the same index directory a moment apart (both `--wait`, so the second
queues behind the first), and kills one of them with SIGKILL at a random moment of its run:
while importing, loading, embedding, writing or swapping the directory in. The other one finishes.
Then the trial checks that

- the index opens with every integrity check of `Index.open` (manifest, counts, dimensions,
  finite vectors, SQLite) and answers a search;
- no completed update is lost: the surviving writer finished after the corpus change, so the index
  must hold exactly the corpus's current files, each at its current fingerprint;
- the surviving writer exited 0 without a traceback.

Usage (from the repository root; ../shared/data/realworld must be present):

    python scripts/crash_trials.py                    # 20 trials, at most 15 minutes
    python scripts/crash_trials.py --trials 5 --json

The embedder is the default offline one (real model, real embedding cache shared by the trials, as a
user's would be). Exit status 1 if any trial fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
REALWORLD = REPO / ".." / "shared" / "data" / "realworld"
# Small, valid, self-contained provider specs (MANIFEST.tsv: no external refs), ~60 operations.
CORPUS = [
    "apideck/ecosystem.yml",
    "apideck/proxy.yml",
    "apis-guru-unofficial/bufferapp.com/1/swagger.yaml",
    "nytimes/books_api/books_api.yaml",
    "twilio/spec/json/twilio_bulkexports_v1.json",
    "redocly-museum/openapi.yaml",
]
QUERY = "list the books on the best sellers list"


def writer(corpus: Path, index: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    command = [
        sys.executable,
        "-m",
        "openapi_rag",
        "index",
        str(corpus),
        "--index",
        str(index),
        "--wait",
        "--json",
    ]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def edit_summary(path: Path, revision: int) -> None:
    """Give the first operation a new summary, so the update has a chunk to re-embed."""
    text = path.read_text("utf-8")
    document = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    for item in document["paths"].values():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete") and isinstance(operation, dict):
                operation["summary"] = f"{operation.get('summary', '')} (revision {revision})".strip()
                out = json.dumps(document, indent=1) if path.suffix == ".json" else yaml.safe_dump(document)
                path.write_text(out, "utf-8")
                return


def mutate(corpus: Path, parked: Path, rng: random.Random, revision: int) -> str:
    """Change the corpus the way a user's catalog changes between runs."""
    present = sorted(p for p in corpus.rglob("*") if p.is_file())
    away = sorted(p for p in parked.rglob("*") if p.is_file())
    choice = rng.choice(["edit", "edit", "remove", "restore"])
    if choice == "remove" and len(present) > 3:
        victim = rng.choice(present)
        target = parked / victim.relative_to(corpus)
        target.parent.mkdir(parents=True, exist_ok=True)
        victim.rename(target)
        return f"remove {victim.relative_to(corpus)}"
    if choice == "restore" and away:
        back = rng.choice(away)
        target = corpus / back.relative_to(parked)
        target.parent.mkdir(parents=True, exist_ok=True)
        back.rename(target)
        return f"restore {back.relative_to(parked)}"
    victim = rng.choice(present)
    edit_summary(victim, revision)
    return f"edit {victim.relative_to(corpus)}"


def check(index_dir: Path, corpus: Path) -> list[str]:
    """Problems with the index after a trial (empty: consistent, searchable, up to date)."""
    from openapi_rag.index import Index
    from openapi_rag.index.fingerprint import fingerprint
    from openapi_rag.spec import discover

    problems = []
    try:
        index = Index.open(index_dir)
    except Exception as exc:  # any failure to open is what the trial is looking for
        return [f"does not open: {type(exc).__name__}: {exc}"]
    expected = {str(p.resolve()) for p in discover([corpus])}
    held = set(index.manifest.sources)
    if held != expected:
        problems.append(f"holds {sorted(held ^ expected)} differently from the corpus (an update was lost)")
    stale = [e for e, s in index.manifest.sources.items() if s.fingerprint != fingerprint(s.files)]
    if stale:
        problems.append(f"holds old versions of {stale} (an update was lost)")
    try:
        if not index.search(QUERY, k=3):
            problems.append("search returned nothing")
    except Exception as exc:
        problems.append(f"search failed: {type(exc).__name__}: {exc}")
    return problems


def run_trials(trials: int, budget: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="openapi-rag-crash-"))
    corpus, parked, index_dir = work / "corpus", work / "parked", work / "idx"
    parked.mkdir()
    for rel in CORPUS:
        source = REALWORLD / rel
        target = corpus / rel.replace("/", "__")  # flat, so removing one spec removes one file
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, target)
    env = {
        **os.environ,
        "OPENAPI_RAG_HOME": str(work / "home"),
        "OPENAPI_RAG_NO_PROGRESS": "1",
        "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")]),
    }
    os.environ["OPENAPI_RAG_HOME"] = env["OPENAPI_RAG_HOME"]
    started = time.monotonic()
    first = writer(corpus, index_dir, env)
    out, err = first.communicate(timeout=600)
    if first.returncode != 0:
        raise SystemExit(f"the first, unkilled build failed: {err}")
    build_seconds = time.monotonic() - started
    # One unkilled update measures how long an update runs, so that kills land all over it.
    edit_summary(next(p for p in sorted(corpus.iterdir())), 0)
    t0 = time.monotonic()
    calibrate = writer(corpus, index_dir, env)
    calibrate.communicate(timeout=600)
    update_seconds = time.monotonic() - t0
    # Control: the check must see an update that was not indexed, or passing trials prove nothing.
    edit_summary(next(p for p in sorted(corpus.iterdir())), -1)
    if not any("lost" in problem for problem in check(index_dir, corpus)):
        raise SystemExit("control failed: the check did not notice an unindexed change")

    results = []
    for trial in range(1, trials + 1):
        if time.monotonic() - started > budget:
            break
        change = mutate(corpus, parked, rng, trial)
        offset = rng.uniform(0.0, 0.5)
        victim = rng.choice(["first", "second"])
        kill_at = rng.uniform(0.0, 1.3 * update_seconds)
        procs = {"first": writer(corpus, index_dir, env)}
        t_start = time.monotonic()
        time.sleep(offset)
        procs["second"] = writer(corpus, index_dir, env)
        victim_start = t_start if victim == "first" else t_start + offset
        time.sleep(max(0.0, victim_start + kill_at - time.monotonic()))
        killed = procs[victim].poll() is None
        if killed:
            os.kill(procs[victim].pid, signal.SIGKILL)
        outcomes = {}
        for name, proc in procs.items():
            out, err = proc.communicate(timeout=600)
            outcomes[name] = (proc.returncode, err)
        survivor = "second" if victim == "first" else "first"
        code, err = outcomes[survivor]
        problems = []
        if code != 0 or "Traceback" in err:
            problems.append(f"the surviving writer failed ({code}): {err.strip()[-300:]}")
        if not killed and (outcomes[victim][0] != 0 or "Traceback" in outcomes[victim][1]):
            problems.append(f"the unkilled writer failed: {outcomes[victim][1].strip()[-300:]}")
        problems += check(index_dir, corpus)
        temps = len(list(work.glob(".idx.tmp-*")))
        results.append(
            {
                "trial": trial,
                "change": change,
                "killed": victim if killed else None,
                "kill_after_s": round(kill_at, 2),
                "leftover_temp_dirs": temps,
                "ok": not problems,
                "problems": problems,
            }
        )
        print(
            f"trial {trial:2}: {change:60.60} kill {victim:6} at {kill_at:5.2f} s "
            f"{'(already done)' if not killed else '':14} -> {'ok' if not problems else 'FAILED: ' + '; '.join(problems)}",
            file=sys.stderr,
        )
    shutil.rmtree(work, ignore_errors=True)
    return {
        "trials": len(results),
        "ok": sum(r["ok"] for r in results),
        "killed": sum(r["killed"] is not None for r in results),
        "corpus_specs": len(CORPUS),
        "first_build_seconds": round(build_seconds, 1),
        "update_seconds": round(update_seconds, 1),
        "wall_seconds": round(time.monotonic() - started, 1),
        "seed": seed,
        "results": results,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument(
        "--budget", type=float, default=900.0, help="Stop starting trials after this many seconds."
    )
    parser.add_argument("--seed", type=int, default=20)
    parser.add_argument("--json", action="store_true", help="Print the full report as JSON.")
    args = parser.parse_args()
    if not REALWORLD.is_dir():
        raise SystemExit(f"{REALWORLD} not present: the trials use a few of its specs (see CORPUS)")
    report = run_trials(args.trials, args.budget, args.seed)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(
            f"{report['ok']}/{report['trials']} trials consistent, searchable and up to date "
            f"({report['killed']} writers killed mid-run; {report['corpus_specs']} real specs; "
            f"first build {report['first_build_seconds']} s, an update {report['update_seconds']} s; "
            f"{report['wall_seconds']} s in all, seed {report['seed']})"
        )
    sys.exit(0 if report["ok"] == report["trials"] else 1)


if __name__ == "__main__":
    main()
