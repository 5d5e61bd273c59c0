"""Every dataset's fixed tuning half and reporting half.

A query belongs to a half by a hash of its dataset name and query id, so the split never changes
between runs, machines or releases, and adding queries never moves the existing ones. Settings are
chosen on the tuning half; tables report the reporting half (the tuning discipline of issue #18).
"""

from __future__ import annotations

import hashlib
from typing import Literal

Half = Literal["tune", "report"]
HALVES: tuple[Half, ...] = ("tune", "report")


def half_of(dataset: str, query_id: str) -> Half:
    """The half a query belongs to: "tune" or "report", about one in two each."""
    digest = hashlib.sha256(f"{dataset}\x00{query_id}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "report"
