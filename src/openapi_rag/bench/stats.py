"""Friedman tests across chunking strategies (the paper's Figure 6a), and the paired t-test.

For each embedder, search mode and k, the strategies are the treatments and the queries the
blocks: the test asks whether the strategies' per-query scores (recall by default) differ more than
chance would make them. It runs per domain and over all domains (Friedman 1937, via
`scipy.stats.friedmanchisquare`). It needs at least 3 strategies and 2 queries scored by every
strategy; a cell that cannot be tested says why instead of a p-value.
"""

from __future__ import annotations

import importlib.util
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from openapi_rag.bench.runner import K, QueryResult, k_label, k_order

ALL_DOMAINS = "all"

FRIEDMAN_COLUMNS = (
    "embedder",
    "mode",
    "k",
    "domain",
    "metric",
    "strategies",
    "n_blocks",
    "statistic",
    "p_value",
    "note",
)


@dataclass(frozen=True)
class FriedmanCell:
    """One test: strategies compared on the queries of `domain` ("all": every domain)."""

    embedder: str
    mode: str
    k: str
    domain: str
    metric: str
    strategies: int
    n_blocks: int
    statistic: float = math.nan
    p_value: float = math.nan
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


NO_SCIPY = 'n/a: scipy not installed (pip install "openapi-rag[eval]")'


def scipy_available() -> bool:
    return importlib.util.find_spec("scipy") is not None


def _friedman(columns: list[list[float]]) -> tuple[float, float]:
    from scipy.stats import friedmanchisquare

    result = friedmanchisquare(*columns)
    return float(result.statistic), float(result.pvalue)


def paired_t_test(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """t and the two-sided p of the paired t-test of `x` against `y` (`scipy.stats.ttest_rel`,
    extra `eval`), for two configurations scored on the same cases (`eval-calls`, `eval-sql`).

    Where the differences do not vary, t is 0/0 or x/0 and scipy warns of precision loss; the
    limits are returned instead: NaN with p 1.0 where `x` equals `y` (so with no pairs too), and
    ±inf with p 0.0 where every difference is the same non-zero amount (so with one pair too).
    """
    if list(x) == list(y):
        return math.nan, 1.0
    diffs = [a - b for a, b in zip(x, y, strict=True)]
    if all(d == diffs[0] for d in diffs):
        return math.copysign(math.inf, diffs[0]), 0.0
    from scipy import stats

    test = stats.ttest_rel(x, y)
    return float(test.statistic), float(test.pvalue)


def friedman_tests(results: Sequence[QueryResult], metric: str = "recall") -> list[FriedmanCell]:
    """Friedman tests per (embedder, mode, k) and domain, plus "all" when there are several domains.

    Without scipy (the ``[eval]`` extra) the testable cells say so instead of holding a p-value.
    """
    has_scipy = scipy_available()
    # (embedder, mode, k) -> strategy -> (group, query id) -> value
    table: dict[tuple[str, str, K], dict[str, dict[tuple[str, str], float]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    domain_of: dict[tuple[str, str], str] = {}
    for r in results:
        value = float(getattr(r.scores, metric))
        table[(r.config.embedder, r.config.mode, r.k)][r.config.strategy][(r.group, r.query_id)] = value
        domain_of[(r.group, r.query_id)] = r.domain
    domains = list(dict.fromkeys(domain_of.values()))
    scopes = domains + ([ALL_DOMAINS] if len(domains) > 1 else [])
    cells = []
    for (embedder, mode, k), by_strategy in sorted(
        table.items(), key=lambda i: (i[0][0], i[0][1], k_order(i[0][2]))
    ):
        strategies = sorted(by_strategy)
        for scope in scopes:
            blocks = sorted(
                q
                for q in set.intersection(*(set(v) for v in by_strategy.values()))
                if (scope == ALL_DOMAINS or domain_of[q] == scope)
                and all(not math.isnan(by_strategy[s][q]) for s in strategies)
            )
            cell = partial(
                FriedmanCell, embedder, mode, k_label(k), scope, metric, len(strategies), len(blocks)
            )
            if len(strategies) < 3:
                cells.append(cell(note="n/a: needs >= 3 strategies"))
            elif len(blocks) < 2:
                cells.append(cell(note="n/a: fewer than 2 queries"))
            elif all(len({by_strategy[s][q] for s in strategies}) == 1 for q in blocks):
                # Every query ties across strategies: the statistic is 0/0; nothing differs.
                cells.append(cell(statistic=0.0, p_value=1.0, note="all strategies score the same"))
            elif not has_scipy:
                cells.append(cell(note=NO_SCIPY))
            else:
                stat, p = _friedman([[by_strategy[s][q] for q in blocks] for s in strategies])
                cells.append(cell(statistic=stat, p_value=p))
    return cells


def format_p(p: float) -> str:
    """A p-value with significance stars: ``<.001***``, ``.004**``, ``.031*``, ``.420``."""
    if math.isnan(p):
        return "n/a"
    stars = "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""
    if p < 0.001:
        return "<.001" + stars
    return f"{p:.3f}".lstrip("0") + stars


def friedman_markdown(cells: Sequence[FriedmanCell]) -> str:
    """Figure 6a as a Markdown table: one row per domain (and "all"), one column per embedder,
    mode and k; cells are p-values."""
    if not cells:
        return "_No Friedman test: nothing was evaluated._\n"
    columns = list(dict.fromkeys((c.embedder, c.mode, c.k) for c in cells))
    rows = list(dict.fromkeys(c.domain for c in cells))
    vary_embedder = len({c[0] for c in columns}) > 1
    vary_mode = len({c[1] for c in columns}) > 1

    def header(col: tuple[str, str, str]) -> str:
        parts = ([col[0]] if vary_embedder else []) + ([col[1]] if vary_mode else []) + [f"k={col[2]}"]
        return " · ".join(parts)

    by_key = {(c.domain, c.embedder, c.mode, c.k): c for c in cells}
    lines = ["| domain | " + " | ".join(header(c) for c in columns) + " |", "|---|" + "---:|" * len(columns)]
    for row in rows:
        values = []
        for col in columns:
            cell = by_key.get((row, *col))
            values.append("" if cell is None else format_p(cell.p_value))
        lines.append(f"| {row} | " + " | ".join(values) + " |")
    notes = sorted({c.note for c in cells if c.note})
    text = "\n".join(lines) + "\n"
    text += (
        f"\nFriedman test over per-query {cells[0].metric} across "
        f"{max(c.strategies for c in cells)} strategies "
        "(the queries are the blocks); * p < .05, ** p < .01, *** p < .001.\n"
    )
    if notes:
        text += "Notes: " + "; ".join(notes) + ".\n"
    return text
