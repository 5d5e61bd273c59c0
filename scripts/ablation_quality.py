"""Ablation of the discovery-quality ideas of issue 7 on RestBench and SOCBench-D (instance 1).

Each row switches one idea off (or on) from the default configuration, all from the same code and
the same run; metrics as `openapi-rag eval` computes them (`openapi_rag.bench.metrics`): recall@k
and precision@k per query over distinct operations, RestBench as one index over both APIs,
SOCBench-D as one index per domain averaged over the 11 domains. `auto` is `k="auto"`: its mean
recall, precision and result count.

    .venv/bin/python scripts/ablation_quality.py [--data ../shared/data] [--rows default,thin-rrf]

Embeddings go through the on-disk cache, so re-runs only pay for search.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from openapi_rag.bench.metrics import score_query
from openapi_rag.chunking import get_strategy, render
from openapi_rag.embed import get_embedder
from openapi_rag.index import Index
from openapi_rag.search import BM25Index, clauses, dependencies, searcher
from openapi_rag.search.bm25 import LENGTH_NORMALISATION
from openapi_rag.search.tokenize import ApiTokenizer
from openapi_rag.spec import load_services

# row name -> (strategy, settings). Settings are Searcher attributes, except: the module switches
# of `MODULE_SWITCHES`, "returns" the compact strategy's response fields, "synonyms" the BM25
# tokenizer's verb synonyms, "bm25_b" BM25's b.
LAST = dict(operation_ids=False, named_search=False)  # ideas added after the producer choice
PRODUCER_CHOICE = dict(LAST, search_first=False, own_first=False)  # ideas added after the plans
NEWEST = dict(
    PRODUCER_CHOICE, action_verbs=False, auto_ratio=0.8, auto_ratio_whole=0.8, plan_clauses=10**6
)  # ideas added after BM25's b
LATER = dict(NEWEST, connectives=False, auto_producers=False, bm25_b=0.75)  # ideas added after the synonyms
OFF = dict(
    LATER, clauses=False, dependencies=False, returns=0, dense_weight=1.0, aliases_first=False, synonyms=False
)
ROWS: dict[str, tuple[str, dict]] = {
    "baseline: thin, RRF, no clauses, no deps": ("thin", dict(OFF, fusion="rrf")),
    "+ compact text (embed short line, BM25 fields)": ("compact", dict(OFF, fusion="rrf")),
    "+ min-max fusion": ("compact", OFF),
    "+ clause splitting (commas, sentences, then)": ("compact", dict(OFF, clauses=True, split_and=False)),
    "+ 'and' cuts between clauses": ("compact", dict(OFF, clauses=True)),
    "+ dependency lifting, specific producers only": (
        "compact",
        dict(OFF, clauses=True, dependencies=True, generic_producers=False),
    ),
    "+ generic producers GET /search, GET /me": ("compact", dict(OFF, clauses=True, dependencies=True)),
    "+ GET /me alone produces the user": (
        "compact",
        dict(OFF, clauses=True, dependencies=True, aliases_first=True),
    ),
    "+ response fields (Returns: ...)": ("compact", dict(LATER, dense_weight=1.0, synonyms=False)),
    "+ dense weight 1.25": ("compact", dict(LATER, synonyms=False)),
    "+ verb synonyms in BM25": ("compact", LATER),
    "+ 'along with', 'as well as', 'while' cuts": (
        "compact",
        dict(NEWEST, auto_producers=False, bm25_b=0.75),
    ),
    "+ k=auto brings the producers its operations need": ("compact", dict(NEWEST, bm25_b=0.75)),
    "+ BM25 b = 0.9": ("compact", NEWEST),
    "+ a clause's action verb rules out other methods": (
        "compact",
        dict(PRODUCER_CHOICE, auto_ratio=0.8, auto_ratio_whole=0.8, plan_clauses=10**6),
    ),
    "+ k=auto cuts a whole query at .6, a clause at .85": (
        "compact",
        dict(PRODUCER_CHOICE, plan_clauses=10**6),
    ),
    "+ a plan (3+ clauses) gets no producers in its clauses": ("compact", PRODUCER_CHOICE),
    "+ a search is the producer lifted first": ("compact", dict(LAST, own_first=False)),
    "+ 'my' lifts the caller's own list (GET /me/...) first": ("compact", LAST),
    "+ operationIds name operations without a summary": ("compact", dict(named_search=False)),
    "+ a task naming a thing lifts its service's search (= default)": ("compact", {}),
    "default without compact text (thin)": ("thin", {}),
    "default without min-max fusion (RRF)": ("compact", dict(fusion="rrf")),
    "default without clause splitting": ("compact", dict(clauses=False)),
    "default without 'and' cuts": ("compact", dict(split_and=False)),
    "default without dependency lifting": ("compact", dict(dependencies=False)),
    "default without GET /me first": ("compact", dict(aliases_first=False)),
    "default without response fields": ("compact", dict(returns=0)),
    "default with equal dense and BM25 weights": ("compact", dict(dense_weight=1.0)),
    "default without verb synonyms": ("compact", dict(synonyms=False)),
    "default without 'along with', 'as well as', 'while' cuts": ("compact", dict(connectives=False)),
    "default without producers in k=auto": ("compact", dict(auto_producers=False)),
    "default with BM25 b = 0.75": ("compact", dict(bm25_b=0.75)),
    "default without action verbs": ("compact", dict(action_verbs=False)),
    "default with producers lifted in a plan's clauses": ("compact", dict(plan_clauses=10**6)),
    "default without a search lifted first": ("compact", dict(search_first=False)),
    "default without the caller's own list first for 'my'": ("compact", dict(own_first=False)),
    "default with one k=auto ratio, .8 (the old cut)": (
        "compact",
        dict(auto_ratio=0.8, auto_ratio_whole=0.8),
    ),
    "default + whole-query vector for 3+ clauses (speed only)": ("compact", dict(whole_query_clauses=10**6)),
    "default without operationIds for missing summaries": ("compact", dict(operation_ids=False)),
    "default without a search for a named thing": ("compact", dict(named_search=False)),
}
# Ideas for specs that the benchmarks do not resemble, measured on RestBench made bare as many real
# catalogs are (SOCBench-D has no operationIds, so it cannot show them): row -> settings.
BARE_ROWS: dict[str, dict] = {
    "default": {},
    "default without operationIds for missing summaries": dict(operation_ids=False),
}
KS = (5, 10, 20)


def restbench(data: Path) -> list[tuple[list, list[tuple[str, list[str]]]]]:
    services = load_services([data / "restbench" / "specs"]).services
    queries = [
        (q["query"], q["solution"])
        for f in sorted((data / "restbench" / "datasets").glob("*.json"))
        for q in json.loads(f.read_text())
    ]
    return [(services, queries)]


def socbench(data: Path) -> list[tuple[list, list[tuple[str, list[str]]]]]:
    groups = []
    for domain in sorted((data / "socbench-d" / "socbenchd_1").iterdir()):
        if domain.is_dir():
            queries = json.loads((domain / "queries.json").read_text())["queries"]
            groups.append((load_services([domain]).services, [(q["query"], q["endpoints"]) for q in queries]))
    return groups


def bare(groups: list, *, descriptions: bool) -> list:
    """`groups` with every operation's summary removed (and its description, unless `descriptions`)."""
    cleared = dict(summary="") if descriptions else dict(summary="", description="")
    return [
        ([replace(s, operations=[replace(op, **cleared) for op in s.operations]) for s in services], queries)
        for services, queries in groups
    ]


# Settings that are module switches (all on by default): name -> (module, attribute).
MODULE_SWITCHES = {
    "split_and": (clauses, "SPLIT_AND"),
    "connectives": (clauses, "SPLIT_CONNECTIVES"),
    "aliases_first": (dependencies, "ALIASES_FIRST"),
    "search_first": (dependencies, "SEARCH_FIRST"),
    "own_first": (dependencies, "OWN_FIRST"),
    "auto_producers": (searcher, "AUTO_PRODUCERS"),
    "operation_ids": (render, "OPERATION_ID_FOR_SUMMARY"),
    "named_search": (dependencies, "NAMED_SEARCH"),
}


def evaluate(groups: list, strategy: str, settings: dict, embedder) -> dict[str, float]:
    """Mean metrics over groups (each group: mean over its queries)."""
    settings = dict(settings)
    saved = {name: getattr(module, attr) for name, (module, attr) in MODULE_SWITCHES.items()}
    for name, (module, attr) in MODULE_SWITCHES.items():
        setattr(module, attr, settings.pop(name, True))
    params = {"returns": settings.pop("returns")} if "returns" in settings and strategy == "compact" else {}
    settings.pop("returns", None)
    settings.setdefault("synonyms", True)
    try:
        return _evaluate(groups, strategy, params, settings, embedder)
    finally:
        for name, (module, attr) in MODULE_SWITCHES.items():
            setattr(module, attr, saved[name])


def _evaluate(groups: list, strategy: str, params: dict, settings: dict, embedder) -> dict[str, float]:
    per_group = []
    for services, queries in groups:
        index = Index.build(services, strategy=get_strategy(strategy, **params), embedder=embedder)
        if not settings["synonyms"] or "bm25_b" in settings:
            index.searcher.bm25 = BM25Index.from_chunks(
                index.store.chunks(),
                tokenizer=ApiTokenizer(synonyms=settings["synonyms"]),
                b=settings.get("bm25_b", LENGTH_NORMALISATION),
            )
        for name, value in settings.items():
            if name not in ("synonyms", "bm25_b"):
                setattr(index.searcher, name, value)
        rows = []
        for query, gold in queries:
            ranked = [hit.id for hit in index.search(query, k=max(KS), expand=False)]
            auto = [hit.id for hit in index.search(query, k="auto", expand=False)]
            row = {}
            for k in KS:
                s = score_query(ranked, gold, k=k)
                row[f"R@{k}"] = s.recall
                if k == 5:
                    row["P@5"] = s.precision
            a = score_query(auto, gold, k=None)
            row.update({"auto R": a.recall, "auto P": a.precision, "auto n": len(auto)})
            rows.append(row)
        per_group.append({key: statistics.fmean(r[key] for r in rows) for key in rows[0]})
    return {key: statistics.fmean(g[key] for g in per_group) for key in per_group[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, default=Path(__file__).resolve().parents[1] / ".." / "shared" / "data"
    )
    parser.add_argument("--rows", help="comma-separated row-name prefixes to run (default: all)")
    args = parser.parse_args()
    wanted = [r.strip() for r in args.rows.split(",")] if args.rows else None
    embedder = get_embedder("minilm")
    datasets = {"RestBench": restbench(args.data), "SOCBench-D": socbench(args.data)}
    print_table(ROWS, datasets, wanted, embedder)
    rb = datasets["RestBench"]
    bare_sets = {
        "RestBench without summaries": bare(rb, descriptions=True),
        "RestBench without summaries or descriptions": bare(rb, descriptions=False),
    }
    print()
    print_table(
        {name: ("compact", settings) for name, settings in BARE_ROWS.items()}, bare_sets, wanted, embedder
    )


def print_table(
    rows: dict[str, tuple[str, dict]], datasets: dict, wanted: list[str] | None, embedder
) -> None:
    columns = ["R@5", "R@10", "R@20", "P@5", "auto R", "auto P", "auto n"]
    header = "| configuration | " + " | ".join(f"{d} {c}" for d in datasets for c in columns) + " |"
    print(header)
    print("|" + "---|" * (1 + len(datasets) * len(columns)))
    for name, (strategy, settings) in rows.items():
        if wanted and not any(name.startswith(w) for w in wanted):
            continue
        started = time.time()
        cells = []
        for groups in datasets.values():
            metrics = evaluate(groups, strategy, settings, embedder)
            cells += [f"{metrics[c]:.1f}" if c == "auto n" else f"{metrics[c]:.3f}" for c in columns]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
        print(f"  ({time.time() - started:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
