"""User-phrased LLM views on a subset catalog of the realworld corpus (issue 18, item 8).

The local SmolLM2 writes views at ~5 s per operation on 2 cores: the whole realworld corpus (9,532
operations) would take ~13-20 hours, so its views are measured on a catalog of 15 of its specs
(207 operations; every spec of at most 60 operations holding the first expected operation of a
realworld tuning-half task, less the two largest so that it fits an hour): the realworld tasks whose
expected operations all lie in it, by half, with and without views. Hits are named by the full
catalog's service ids (read from `--realworld-index`), as the task set names them.

    python scripts/views_subset.py --data ../shared/data/realworld --realworld-index IDX \
        --out DIR [--llm local]

builds DIR/base (the default) and DIR/views (`index --views-llm LLM`; replies cached on disk).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from ablation_quality import METRICS, found_ids, realworld, score

from openapi_rag.bench.bootstrap import bootstrap_ci
from openapi_rag.bench.halves import HALVES, half_of
from openapi_rag.index import Index, build_index
from openapi_rag.search.settings import DEFAULT_SETTINGS

SPECS = (
    "apideck/hris.yml",
    "apideck/issue-tracking.yml",
    "apideck/pos.yml",
    "apis-guru-unofficial/stride.com/1.0/swagger.yaml",
    "apis-guru-unofficial/yelp.com/v3/swagger.yaml",
    "nytimes/article_search/article_search_v2.yaml",
    "nytimes/books_api/books_api.json",
    "oai-learn/examples/v3.0/petstore-expanded.json",
    "redocly-museum/openapi.yaml",
    "twilio/spec/json/twilio_lookups_v2.json",
    "twilio/spec/json/twilio_video_v1.json",
    "vonage/definitions/numbers.yml",
    "vonage/definitions/sms.yml",
    "vonage/definitions/subaccounts.yml",
    "vonage/definitions/voice.yml",
)
CONFIGS = {
    "default": ("base", {}),
    "views in BM25": ("views", {}),
    "views in BM25, as a third list (weight .5)": ("views", {"view_weight": 0.5}),
    "views in BM25, as a third list (weight 1)": ("views", {"view_weight": 1.0}),
    "views in BM25, max-pooled": ("views", {"view_pool": True}),
}


def main() -> None:
    repo = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="the realworld corpus")
    parser.add_argument("--realworld-index", type=Path, required=True, help="index of the whole corpus")
    parser.add_argument("--tasks", type=Path, default=repo / "benchmarks" / "realworld" / "tasks.jsonl")
    parser.add_argument("--out", type=Path, required=True, help="folder of the two subset indexes")
    parser.add_argument("--llm", default="local", help="the LLM writing the views")
    args = parser.parse_args()
    files = [str((args.data / spec).resolve()) for spec in SPECS]
    full = Index.open(args.realworld_index).manifest.sources
    build_index(files, args.out / "base")
    build_index(files, args.out / "views", strategy_params={"views_llm": args.llm})
    inside = {full[f].service for f in files}
    tasks = [
        t
        for t in realworld(args.tasks)[0].tasks
        if all(any(g.split(" ")[0] in inside for g in entry) for entry in t.gold)
    ]
    print(
        "| configuration | half | tasks | "
        + " | ".join(METRICS)
        + " |\n|---|---|---|"
        + "---|" * len(METRICS)
    )
    for name, (folder, changes) in CONFIGS.items():
        index = Index.open(args.out / folder)
        # the subset's own service ids -> the full catalog's (`sms-api` there may be `sms-api-2` here)
        named = {source.service: full[f].service for f, source in index.manifest.sources.items()}
        index.searcher.configure(DEFAULT_SETTINGS.replace(**changes))
        for half in HALVES:
            rows = []
            for task in tasks:
                if half_of("realworld", task.id) != half:
                    continue
                hits = index.search(task.text, k=10, expand=False)
                ids = [
                    found_ids(h) | {f"{named.get(s, s)} {h.id}" for s in (h.service, *h.also_in)}
                    for h in hits
                ]
                rows.append(score(ids, task.gold))
            cells = []
            for m in METRICS:
                low, high = bootstrap_ci([[r[m] for r in rows]])
                cells.append(f"{statistics.fmean(r[m] for r in rows):.3f} [{low:.2f}, {high:.2f}]")
            print(f"| {name} | {half} | {len(rows)} | " + " | ".join(cells) + " |", flush=True)
    print(f"(specs: {len(files)}; LLM: {args.llm})", file=sys.stderr)


if __name__ == "__main__":
    main()
