"""Run a grid of configurations over a dataset: retrieve (or reuse cached retrievals), then score.

    dataset = load_dataset("restbench", "../shared/data/restbench")
    result = run_eval(dataset, grid(["endpoint", "thin"], ["default"], ["dense", "bm25"]),
                      IndexRetrieverFactory(), "out/", ks=[5, 10, 20], show_progress=True)
    write_report(result, "out/")

Retrieval happens once per query at the deepest k asked (shallower k are prefixes of that list)
and once more for ``"auto"``. Everything retrieved goes to the cache (`cache.py`) as it comes, so an
interrupted run resumes, and a re-run with more k values, modes or strategies only computes what
is new. A retriever factory is only called for a (group, configuration) with work left.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.bench.cache import ResultCache
from openapi_rag.bench.dataset import Dataset, Group, Query
from openapi_rag.bench.halves import half_of
from openapi_rag.bench.metrics import QueryScores, score_query
from openapi_rag.bench.retrievers import RetrievedOp, RetrieverFactory, RunConfig

logger = logging.getLogger(__name__)

K = int | None  # None: the retriever chose how many ("auto")

RESULT_COLUMNS = (
    "dataset", "group", "domain", "query_id", "half", "strategy", "embedder", "mode", "k",
    "r1", "recall", "precision", "f1", "mrr", "ndcg", "tokens", "retrieved", "hits", "n_gold", "missed",
)  # fmt: skip


def parse_ks(values: Iterable[int | str | None]) -> list[K]:
    """Sorted distinct k values; ``"auto"`` (or None) becomes None and sorts last.

    Raises:
        ValueError: a value that is neither a positive integer nor "auto".
    """
    out: set[K] = set()
    for value in values:
        if value is None or (isinstance(value, str) and value.strip().lower() == "auto"):
            out.add(None)
            continue
        try:
            k = int(value)
        except (TypeError, ValueError):
            raise ValueError(f"k must be a positive integer or 'auto', got {value!r}") from None
        if k < 1:
            raise ValueError(f"k must be a positive integer or 'auto', got {value!r}")
        out.add(k)
    if not out:
        raise ValueError("give at least one k")
    return sorted(out, key=k_order)


def k_order(k: K) -> tuple[int, int]:
    return (1, 0) if k is None else (0, k)


def k_label(k: K) -> str:
    return "auto" if k is None else str(k)


@dataclass(frozen=True)
class QueryResult:
    """The scores of one query under one configuration at one k."""

    dataset: str
    group: str
    domain: str
    query_id: str
    config: RunConfig
    k: K
    scores: QueryScores
    tokens: int
    missed: tuple[str, ...] = ()
    half: str = ""  # "tune" or "report" (`halves.half_of`)

    def row(self) -> dict[str, Any]:
        s = self.scores
        return {
            "dataset": self.dataset, "group": self.group, "domain": self.domain, "query_id": self.query_id,
            "half": self.half, **self.config.to_dict(), "k": k_label(self.k), "r1": s.r1,
            "recall": s.recall, "precision": s.precision, "f1": s.f1, "mrr": s.mrr, "ndcg": s.ndcg,
            "tokens": self.tokens, "retrieved": s.retrieved, "hits": s.hits, "n_gold": s.n_gold,
            "missed": " | ".join(self.missed),
        }  # fmt: skip


@dataclass
class EvalResult:
    """Everything an evaluation produced; `write_report` turns it into files.

    Attributes:
        searched: searches run in this call; reused: searches answered from the cache.
    """

    dataset: Dataset
    configs: list[RunConfig]
    ks: list[K]
    results: list[QueryResult] = field(default_factory=list)
    searched: int = 0
    reused: int = 0

    def rows(self) -> list[dict[str, Any]]:
        return [r.row() for r in self.results]


def run_eval(
    dataset: Dataset,
    grid: Sequence[RunConfig],
    make_retriever: RetrieverFactory,
    out_dir: str | Path,
    ks: Iterable[int | str | None] = (5, 10, 20),
    show_progress: bool = False,
    *,
    flush_seconds: float = 10.0,
) -> EvalResult:
    """Retrieve for every query under every configuration and score each k.

    Args:
        dataset: from `load_dataset`.
        grid: the configurations (see `retrievers.grid`).
        make_retriever: ``(services, config) -> Retriever``, called once per group and configuration
            that still has queries to search.
        out_dir: the cache goes to ``out_dir/cache``.
        ks: cut-offs; ``"auto"`` asks the retriever to choose the result size.
        show_progress: a bar over the searches still to do, on stderr.
        flush_seconds: the cache is also written this often while a group is searched.

    Raises:
        ValueError: an empty grid or a bad k.
    """
    configs = list(dict.fromkeys(grid))
    if not configs:
        raise ValueError("the grid is empty: give at least one strategy, embedder and mode")
    k_values = parse_ks(ks)
    depth = max((k for k in k_values if k is not None), default=None)
    wants = ([depth] if depth is not None else []) + ([None] if None in k_values else [])
    cache_dir = Path(out_dir) / "cache"
    caches = {cfg: ResultCache.open(cache_dir, dataset.name, cfg) for cfg in configs}

    # Count the work first, so the bar has a length and finished configurations build nothing.
    todo: list[tuple[Group, RunConfig, list[tuple[Query, K]]]] = []
    reused = 0
    for group in dataset.groups:
        for cfg in configs:
            missing = []
            for query in group.queries:
                for k in wants:
                    if caches[cfg].get(group.name, group.fingerprint, query.id, query.text, k) is None:
                        missing.append((query, k))
                    else:
                        reused += 1
            if missing:
                todo.append((group, cfg, missing))
    total = sum(len(m) for _, _, m in todo)
    searched = 0

    from tqdm.auto import tqdm

    bar = tqdm(
        total=total,
        desc=f"eval {dataset.name}",
        unit="query",
        file=sys.stderr,
        disable=not show_progress or total == 0,
        dynamic_ncols=True,
    )
    try:
        for group, cfg, missing in todo:
            bar.set_postfix_str(f"{group.name} · {cfg.strategy}/{cfg.embedder}/{cfg.mode}", refresh=False)
            cache = caches[cfg]
            retriever = make_retriever(group.services, cfg)
            last_flush = time.monotonic()
            try:
                for query, k in missing:
                    hits = [_as_op(h) for h in retriever.search(query.text, k)]
                    cache.put(group.name, group.fingerprint, query.id, query.text, k, hits)
                    searched += 1
                    bar.update(1)
                    if time.monotonic() - last_flush > flush_seconds:
                        cache.save()
                        last_flush = time.monotonic()
            finally:
                close = getattr(retriever, "close", None)
                if callable(close):
                    close()
                cache.save()
    finally:
        bar.close()
        for cache in caches.values():
            cache.save()  # keep what was retrieved before an error or Ctrl-C

    result = EvalResult(dataset=dataset, configs=configs, ks=k_values, searched=searched, reused=reused)
    for cfg in configs:
        for group in dataset.groups:
            for query in group.queries:
                result.results += _score(dataset.name, group, query, cfg, caches[cfg], k_values, depth)
    return result


def _as_op(hit: Any) -> RetrievedOp:
    """Accept `RetrievedOp` or any hit with service, id (or method + path), score and tokens."""
    if isinstance(hit, RetrievedOp):
        return hit
    op_id = getattr(hit, "id", None) or f"{getattr(hit, 'method', '').upper()} {getattr(hit, 'path', '')}"
    return RetrievedOp(
        service=str(hit.service),
        id=str(op_id),
        score=float(getattr(hit, "score", 0.0) or 0.0),
        tokens=int(getattr(hit, "tokens", 0) or 0),
    )


def _score(
    dataset: str, group: Group, query: Query, cfg: RunConfig, cache: ResultCache, ks: list[K], depth: K
) -> list[QueryResult]:
    # Retrieved operations count once per gold entry they answer: with unqualified gold, the same
    # `METHOD /path` in two services is one endpoint, as in the paper's string comparison.
    unit_of: dict[str, str] = {}
    for entry in query.gold:
        for qid in entry.matches:
            unit_of.setdefault(qid, "gold:" + entry.key)
    gold_units = ["gold:" + e.key for e in query.gold]
    ranked = cache.get(group.name, group.fingerprint, query.id, query.text, depth) if depth else None
    adaptive = cache.get(group.name, group.fingerprint, query.id, query.text, None) if None in ks else None
    out = []
    for k in ks:
        hits = adaptive if k is None else ranked
        if hits is None:  # cannot happen after run_eval's retrieval loop; guard against a bad cache
            raise RuntimeError(f"no retrieval cached for {query.id} at k={k_label(k)}")
        ops = distinct_ops(hits)
        if k is not None:
            ops = ops[:k]
        units = [unit_of.get(op.qualified_id, "op:" + op.qualified_id) for op in ops]
        scores = score_query(units, gold_units, k)
        found = set(units)
        missed = tuple(e.raw for e in query.gold if "gold:" + e.key not in found)
        out.append(
            QueryResult(
                dataset,
                group.name,
                query.domain,
                query.id,
                cfg,
                k,
                scores,
                tokens=sum(op.tokens for op in ops),
                missed=missed,
                half=half_of(dataset, query.id),
            )
        )
    return out


def distinct_ops(hits: Sequence[RetrievedOp]) -> list[RetrievedOp]:
    """Operations in rank order, each once (a retriever may return one per matching chunk)."""
    seen: dict[str, RetrievedOp] = {}
    for hit in hits:
        seen.setdefault(hit.qualified_id, hit)
    return list(seen.values())
