"""Index round trip: RestBench's two APIs rendered to HTML → `crawl` → index, against the original specs.

Crawls `restbench-spotify.html` and `restbench-tmdb.html` of one renderer's pages into OUT/specs,
puts RestBench's queries beside them, and runs the same `openapi-rag eval` grid (default
`compact` strategy, hybrid search, k=10) on the crawled documents and on the original specs.

    python scripts/crawl_roundtrip.py --pages benchmarks/crawl/pages/widdershins \
        --restbench ../shared/data/restbench --out out/roundtrip
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

from openapi_rag.crawl import crawl_pages


def recall_at_10(data: Path, out: Path) -> dict[str, float]:
    command = [sys.executable, "-m", "openapi_rag", "eval", "--dataset", "restbench", "--data", str(data),
               "--strategies", "compact", "--modes", "hybrid", "--k", "10", "--out", str(out)]  # fmt: skip
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with (out / "summary.csv").open(encoding="utf-8") as handle:
        row = next(csv.DictReader(handle))
    return {key: round(float(row[key]), 4) for key in ("recall", "recall_ci_low", "recall_ci_high")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=Path, required=True, help="one renderer's folder of pages")
    parser.add_argument("--restbench", type=Path, required=True, help="RestBench folder (specs/, datasets/)")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    crawled = args.out / "crawled"
    (crawled / "specs").mkdir(parents=True, exist_ok=True)
    datasets = crawled / "datasets"
    if not datasets.exists():
        datasets.symlink_to((args.restbench / "datasets").resolve())
    for name in ("spotify", "tmdb"):
        result = crawl_pages([args.pages / f"restbench-{name}.html"])
        target = crawled / "specs" / f"{name}_crawled.json"
        target.write_text(json.dumps(result.document), encoding="utf-8")
        print(
            f"{name}: {result.report.operations} operations, {len(result.findings)} findings", file=sys.stderr
        )
    original = recall_at_10(args.restbench, args.out / "eval-original")
    from_pages = recall_at_10(crawled, args.out / "eval-crawled")
    difference = round(from_pages["recall"] - original["recall"], 4)
    print(json.dumps({"original": original, "crawled": from_pages, "difference": difference}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
