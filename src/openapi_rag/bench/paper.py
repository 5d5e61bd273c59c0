"""Published numbers of Pesl et al., "Retrieval-Augmented Generation for Service Discovery: Chunking
Strategies and Benchmarking" (arXiv:2505.19310), for ``--compare-paper``.

Recall is the mean per-query recall@k (SOCBench-D: over 5 instances × 11 domains; RestBench: over
its 157 queries, one index over both APIs). Precision is given where the authors' analysis notebook
(IAAS/SOCBench, ``cross-domain-average.ipynb``) prints it. Strategy names are ours: ``endpoint`` is
the paper's "Endpoint Split", ``thin`` its "Endpoint Split Thin", ``summary`` and ``craft`` the LLM
summary and CRAFT strategies.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

_NAN = math.nan


@dataclass(frozen=True)
class PaperResult:
    dataset: str  # restbench | socbench-d
    strategy: str
    embedder: str
    k: int
    recall: float
    precision: float = _NAN


PAPER_RESULTS: tuple[PaperResult, ...] = (
    PaperResult("socbench-d", "endpoint", "bge-small", 5, 0.502),
    PaperResult("socbench-d", "endpoint", "bge-small", 10, 0.653, 0.273),
    PaperResult("socbench-d", "endpoint", "bge-small", 20, 0.835, 0.185),
    PaperResult("socbench-d", "summary", "nv-embed-v2", 20, 0.899, 0.203),
    PaperResult("restbench", "endpoint", "bge-small", 20, 0.638),
    PaperResult("restbench", "summary", "bge-small", 20, 0.817),
    PaperResult("restbench", "craft", "bge-small", 20, 0.843),
    PaperResult("restbench", "thin", "nv-embed-v2", 20, 0.877),
)

# Spellings of the paper's models and strategies that count as the same thing.
_EMBEDDER_ALIASES = {
    "bge-small": {"bge-small", "bge_small", "bge-small-en-v1.5", "baai/bge-small-en-v1.5"},
    "nv-embed-v2": {"nv-embed-v2", "nvidia/nv-embed-v2", "nvidia"},
}
_STRATEGY_ALIASES = {
    "endpoint": {"endpoint", "endpoint-split", "endpoint_split"},
    "thin": {"thin", "endpoint-thin", "endpoint_split_thin"},
    "summary": {"summary"},
    "craft": {"craft"},
}

COMPARE_COLUMNS = (
    "dataset",
    "strategy",
    "k",
    "paper_embedder",
    "paper_recall",
    "paper_precision",
    "embedder",
    "mode",
    "recall",
    "precision",
    "recall_delta",
)


def same_embedder(ours: str, paper: str) -> bool:
    return ours.lower() in _EMBEDDER_ALIASES.get(paper, {paper})


def _same_strategy(ours: str, paper: str) -> bool:
    return ours.lower() in _STRATEGY_ALIASES.get(paper, {paper})


def compare_with_paper(summary: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The paper's results for the datasets in `summary`, each beside our rows of the same
    dataset, strategy and k (any embedder and mode; a row without ours shows blanks)."""
    datasets = {row["dataset"] for row in summary}
    out = []
    for paper in PAPER_RESULTS:
        if paper.dataset not in datasets:
            continue
        head = {
            "dataset": paper.dataset,
            "strategy": paper.strategy,
            "k": paper.k,
            "paper_embedder": paper.embedder,
            "paper_recall": paper.recall,
            "paper_precision": paper.precision,
        }
        ours = [
            r
            for r in summary
            if r["dataset"] == paper.dataset
            and _same_strategy(r["strategy"], paper.strategy)
            and r["k"] == str(paper.k)
        ]
        if not ours:
            out.append(
                {**head, "embedder": "", "mode": "", "recall": _NAN, "precision": _NAN, "recall_delta": _NAN}
            )
        for r in ours:
            out.append(
                {
                    **head,
                    "embedder": r["embedder"],
                    "mode": r["mode"],
                    "recall": r["recall"],
                    "precision": r["precision"],
                    "recall_delta": r["recall"] - paper.recall,
                }
            )
    return out
