"""Confidence intervals for a benchmark mean, by resampling its queries.

How far would recall@10 move on another set of queries like these? A percentile bootstrap
(Efron & Tibshirani 1993) answers it: draw each domain's queries again with replacement, average
as the benchmark does (per domain, then over domains), repeat, and read the 2.5th and 97.5th
percentiles. Resampling within each domain keeps every domain in every draw, as a new instance of
SOCBench-D would. `scipy.stats.bootstrap` resamples one flat sample (or several paired ones of equal
size), not strata of different sizes averaged with equal weights, hence these few lines of numpy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

RESAMPLES = 2000
LEVEL = 0.95
SEED = 0
"""Fixed, so that a report is the same from one run to the next."""


def bootstrap_ci(
    groups: Sequence[Sequence[float]],
    *,
    resamples: int = RESAMPLES,
    level: float = LEVEL,
    seed: int = SEED,
) -> tuple[float, float]:
    """Percentile interval of the mean of group means, queries resampled within their group.

    NaN values (a metric undefined for a query) are left out; groups with no defined value are
    dropped; (NaN, NaN) when nothing is left.

    Example:
        >>> bootstrap_ci([[1.0, 1.0], [0.0, 0.0, 0.0]])  # every draw has mean (1 + 0) / 2
        (0.5, 0.5)
    """
    arrays = [np.asarray([v for v in g if not math.isnan(v)], dtype=float) for g in groups]
    arrays = [a for a in arrays if a.size]
    if not arrays:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    draws = np.zeros(resamples)
    for values in arrays:
        picks = rng.integers(0, values.size, size=(resamples, values.size))
        draws += values[picks].mean(axis=1)
    draws /= len(arrays)
    tail = (1.0 - level) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return float(low), float(high)
