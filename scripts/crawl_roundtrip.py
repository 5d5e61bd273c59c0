"""Index round trip: RestBench's two APIs rendered to HTML → `crawl` → index, against the original specs.

Crawls `restbench-spotify.html` and `restbench-tmdb.html` of one renderer's pages into OUT/specs,
puts RestBench's queries beside them, and runs the same `openapi-rag eval` grid (default
`compact` strategy, hybrid search, k=10) on the crawled documents and on the original specs.
`--apis tmdb` compares one API alone, on both sides (its spec, its page, its queries): for a renderer
that could not render the other's page.

    python scripts/crawl_roundtrip.py --pages benchmarks/crawl/pages/widdershins \
        --restbench ../shared/data/restbench --out out/roundtrip
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
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


APIS = ("spotify", "tmdb")


def _only(apis: list[str], restbench: Path, folder: Path) -> Path:
    """A RestBench folder holding only these APIs' specs and queries (copies: the loader follows no link
    out of the folder it reads)."""
    for sub in ("specs", "datasets"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    for name in apis:
        for part in (f"specs/{name}_oas.json", f"datasets/{name}.json"):
            shutil.copyfile(restbench / part, folder / part)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=Path, required=True, help="one renderer's folder of pages")
    parser.add_argument("--restbench", type=Path, required=True, help="RestBench folder (specs/, datasets/)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--apis", nargs="+", choices=APIS, default=list(APIS), help="the APIs compared")
    args = parser.parse_args(argv)
    original = args.restbench
    if set(args.apis) != set(APIS):
        original = _only(args.apis, args.restbench, args.out / "original")
    crawled = args.out / "crawled"
    (crawled / "specs").mkdir(parents=True, exist_ok=True)
    datasets = crawled / "datasets"
    if not datasets.exists():
        datasets.symlink_to((original / "datasets").resolve())
    for name in args.apis:
        result = crawl_pages([args.pages / f"restbench-{name}.html"])
        target = crawled / "specs" / f"{name}_crawled.json"
        target.write_text(json.dumps(result.document), encoding="utf-8")
        print(
            f"{name}: {result.report.operations} operations, {len(result.findings)} findings", file=sys.stderr
        )
    on_specs = recall_at_10(original, args.out / "eval-original")
    from_pages = recall_at_10(crawled, args.out / "eval-crawled")
    difference = round(from_pages["recall"] - on_specs["recall"], 4)
    result = {"apis": args.apis, "original": on_specs, "crawled": from_pages, "difference": difference}
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
