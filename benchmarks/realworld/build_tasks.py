"""Build tasks.jsonl from tasks.txt, checking every operation named against the realworld corpus.

    PYTHONPATH=src python benchmarks/realworld/build_tasks.py [--data ../shared/data/realworld]

tasks.txt, one task a line, grouped under `@provider` lines (the MANIFEST.tsv provider folder):

    [!]QUERY | SERVICE METHOD /path [; SERVICE METHOD /path ...] [| ALTERNATIVE [; ALTERNATIVE ...]]

`!` marks a query that names its provider. An alternative is an operation that answers the task as
well; `N=ALTERNATIVE` attaches it to the N-th expected operation (default the first) and
`~PATTERN` adds every operation whose `SERVICE METHOD /path` matches the shell pattern. Copies of
an operation in the provider's other documents (JSON and YAML of one spec, `/v3/...` beside
`/...`) are added as alternatives automatically. SERVICE is the id `openapi-rag` gives the service
when loading the whole corpus. Ids are `provider-NN` in file order: append new tasks at the end of
a provider's lines only after the existing ones of every provider, or ids (and halves) move.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

from openapi_rag.bench.gold import GoldResolver, path_shape
from openapi_rag.spec import load_services

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=HERE.parents[1] / ".." / "shared" / "data" / "realworld")
    parser.add_argument("--source", type=Path, default=HERE / "tasks.txt")
    parser.add_argument("--out", type=Path, default=HERE / "tasks.jsonl")
    parser.add_argument("--id-prefix", default="", help="put before every id (another set's ids stay apart)")
    # The default also counts any one extra literal segment as a copy, which pairs unrelated APIs of
    # one provider folder (NYT's /content/{source}/{section}.json with archive's /{year}/{month}.json);
    # the older sets keep it so that their gold does not move.
    parser.add_argument(
        "--version-copies-only",
        action="store_true",
        help="a copy with one segment more must differ by a version segment (/v3) only",
    )
    args = parser.parse_args()
    args.data = args.data.resolve()  # the default goes through "..": `relative_to` below needs it resolved
    corpus = load_services([args.data])
    ops: dict[str, tuple[str, str, str]] = {}  # qualified id -> (provider, method, path shape)
    by_provider_method: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for service in corpus.services:
        provider = Path(service.file).relative_to(args.data).parts[0]
        for op in service.operations:
            shape = path_shape(op.path)
            ops[op.qualified_id] = (provider, op.method, shape)
            by_provider_method[(provider, op.method)].append((shape, op.qualified_id))

    def copies(qid: str) -> list[str]:
        """The same operation in the provider's other documents: same shape, or one base segment more."""
        provider, method, shape = ops[qid]
        out = []
        for other_shape, other in by_provider_method[(provider, method)]:
            longer, shorter = sorted((shape, other_shape), key=len, reverse=True)
            prefix = longer[: len(longer) - len(shorter)]
            same = other_shape == shape or (
                longer.endswith(shorter)
                and prefix.count("/") == 1
                and "{" not in prefix
                and (not args.version_copies_only or re.fullmatch(r"/v\d+(\.\d+)?", prefix) is not None)
            )
            if other != qid and same:
                out.append(other)
        return out

    errors: list[str] = []
    tasks: list[dict] = []
    counts: dict[str, int] = defaultdict(int)
    provider = "?"
    for n, line in enumerate(args.source.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("@"):
            provider = line[1:].strip()
            continue
        fields = [f.strip() for f in line.split("|")]
        named = fields[0].startswith("!")
        query = fields[0].lstrip("!").strip()
        expected = [" ".join(e.split()) for e in fields[1].split(";") if e.strip()]
        alternatives: list[list[str]] = [[] for _ in expected]
        for raw in fields[2].split(";") if len(fields) > 2 else []:
            raw = raw.strip()
            match = re.match(r"^(\d)=\s*(.*)$", raw)
            index, raw = (int(match.group(1)), match.group(2)) if match else (0, raw)
            if raw.startswith("~"):
                hits = [q for q in ops if fnmatch.fnmatchcase(q, " ".join(raw[1:].split()))]
                errors += [f"line {n}: {raw} matches nothing"] if not hits else []
                alternatives[index] += hits
            elif raw:
                alternatives[index].append(" ".join(raw.split()))
        unknown = [e for e in expected + sum(alternatives, []) if e not in ops]
        if unknown:
            errors += [f"line {n}: {e} is not an operation of the corpus" for e in unknown]
            continue
        for i, entry in enumerate(expected):
            widened = alternatives[i] + [c for x in [entry, *alternatives[i]] for c in copies(x)]
            alternatives[i] = list(dict.fromkeys(a for a in widened if a not in expected))
        counts[provider] += 1
        tasks.append(
            {
                "id": f"{args.id_prefix}{provider}-{counts[provider]:02d}",
                "query": query,
                "expected": expected,
                "alternatives": alternatives[0] if len(expected) == 1 else alternatives,
                "provider": provider,
                "names_provider": named,
            }
        )
    # The loader's resolver must find exactly the operations meant: no alias catching other services.
    resolver = GoldResolver(corpus.services)
    for task in tasks:
        per_entry = [task["alternatives"]] if len(task["expected"]) == 1 else task["alternatives"]
        for entry, alts in zip(task["expected"], per_entry, strict=True):
            for raw in [entry, *alts]:
                if not set(resolver.resolve(raw)[0].matches) <= {entry, *alts}:
                    errors.append(f"{task['id']}: {raw} also matches other services")
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 1
    args.out.write_text("".join(json.dumps(t, ensure_ascii=False) + "\n" for t in tasks), encoding="utf-8")
    multi = sum(len(t["expected"]) > 1 for t in tasks)
    named = sum(t["names_provider"] for t in tasks)
    print(f"{len(tasks)} tasks ({multi} need several operations, {named} name the provider) in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
