"""How well does `compose`'s threshold tell "the catalog has it" from "it does not"?

On a SOCBench-D instance, each domain's queries are matched (dense, as `compose` does) against an
index of their own domain, which holds a service that answers them, and against the index of the
next domain, which does not. For each threshold: the share of queries found in their own domain
(wanted) and the share wrongly found in the other (false matches, where a draft was needed).

    python scripts/compose_threshold.py --data ../shared/data/socbench-d/socbenchd_1
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from openapi_rag.index import Index
from openapi_rag.spec import load_services

THRESHOLDS = (0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7)


def best_score(index: Index, query: str) -> float:
    hits = index.search(query, k=1, mode="dense")
    return hits[0].score if hits else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="a SOCBench-D instance folder")
    args = parser.parse_args(argv)
    domains = sorted(d for d in args.data.iterdir() if (d / "queries.json").is_file())
    indexes = [Index.build(load_services([d]).services) for d in domains]
    own: list[float] = []
    other: list[float] = []
    for number, domain in enumerate(domains):
        data = json.loads((domain / "queries.json").read_text(encoding="utf-8"))
        for item in data["queries"] if isinstance(data, dict) else data:
            text = item["query"] if isinstance(item, dict) else str(item)
            own.append(best_score(indexes[number], text))
            other.append(best_score(indexes[(number + 1) % len(domains)], text))
    rows = []
    for threshold in THRESHOLDS:
        found = sum(s >= threshold for s in own) / len(own)
        false = sum(s >= threshold for s in other) / len(other)
        rows.append(
            {"threshold": threshold, "found_in_own_domain": round(found, 3), "false_match": round(false, 3)}
        )
    print(json.dumps({"queries": len(own), "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
