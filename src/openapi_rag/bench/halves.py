"""Every dataset's fixed tuning half and reporting half.

A query belongs to a half by a hash of its dataset name and query id, so the split never changes
between runs, machines or releases, and adding queries never moves the existing ones. Settings are
chosen on the tuning half; tables report the reporting half (the tuning discipline of issue #18).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from openapi_rag.bench.dataset import Dataset

Half = Literal["tune", "report"]
HALVES: tuple[Half, ...] = ("tune", "report")


def half_of(dataset: str, query_id: str) -> Half:
    """The half a query belongs to: "tune" or "report", about one in two each."""
    digest = hashlib.sha256(f"{dataset}\x00{query_id}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "report"


def select_half(dataset: Dataset, half: str) -> Dataset:
    """The dataset with only the queries of one half (``"all"``: unchanged); empty groups are dropped."""
    if half == "all":
        return dataset
    if half not in HALVES:
        raise ValueError(f"half must be one of all, {', '.join(HALVES)}; got {half!r}")
    groups = []
    for group in dataset.groups:
        queries = [q for q in group.queries if half_of(dataset.name, q.id) == half]
        if queries:
            groups.append(replace(group, queries=queries))
    kept = {q.id for g in groups for q in g.queries}
    return replace(dataset, groups=groups, issues=[i for i in dataset.issues if i.query_id in kept])
