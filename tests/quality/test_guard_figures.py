"""CI guards the published figures: the default configuration on RestBench and SOCBench-D 1.

Retrieval is deterministic, so the default must stay at or above the README's R@5 and R@10 (less
.005 of slack for floating-point ties) on both benchmarks. Measured the way `openapi-rag eval`
measures them: one search per query at the deepest k (20), cut to 5 and 10; RestBench as one index
over both APIs, SOCBench-D as one index per domain, averaged per domain then over the 11 domains.
Not marked slow: this is the test that keeps a change from quietly costing quality. Nothing is
cached outside the test's temporary folders; it skips where ../shared/data is absent.
"""

from __future__ import annotations

import pytest

from openapi_rag.bench import grid, load_dataset, run_eval, summary_rows
from openapi_rag.bench.retrievers import IndexRetrieverFactory
from openapi_rag.index import DEFAULT_STRATEGY
from tests.conftest import shared_data

SLACK = 0.005
# Figures of the default (compact · hybrid) in the README's Results section. RestBench R@5 was .711
# when it was measured from a 20-deep search and .700 from a 5- or 10-deep one; since the ranking no
# longer depends on k (issue 18) it was .704 at any depth, and with the second list on a request's
# clauses and focused intents (the default since issue 18's second-list round) .706. Session 20's
# retrained second list (minilm-users, recipe chosen on a GPU) traded RestBench R@5 .706 -> .701 and
# R@10 .870 -> .864 for the real catalog (reporting half R@5 +.037, R@10 +.047), StableToolBench,
# NESTFUL and SOCBench-D R@5 (.844 -> .847), under the tuning rule (docs/discovery.md, session 20).
# Session 21's weight of that list on a one-sentence request's whole text (.75 -> 1.25) traded RestBench
# R@5 .701 -> .697 and R@10 .864 -> .861 for the real catalog (reporting half R@5 +.066), same rule.
# Session 23's flat-words rule (the second list leads where BM25 singles out no operation): RestBench R@5
# .697 -> .703, R@10 .861 -> .860; SOCBench-D unchanged; realworld reporting R@1 +.096, same rule.
FLOORS = {
    "restbench": {"5": 0.703, "10": 0.860},
    "socbench-d": {"5": 0.847, "10": 0.968},
}


@pytest.mark.parametrize(
    ("kind", "parts"),
    [("restbench", ("restbench",)), ("socbench-d", ("socbench-d", "socbenchd_1"))],
)
def test_default_keeps_its_published_recall(kind: str, parts: tuple[str, ...], tmp_path) -> None:
    dataset = load_dataset(kind, shared_data(*parts))
    configs = grid([DEFAULT_STRATEGY], ["default"], ["hybrid"])
    result = run_eval(dataset, configs, IndexRetrieverFactory(), tmp_path, ks=[5, 10, 20])
    recall = {row["k"]: row["recall"] for row in summary_rows(result.results)}
    for k, floor in FLOORS[kind].items():
        assert recall[k] >= floor - SLACK, f"{kind} R@{k} {recall[k]:.3f} fell below {floor:.3f}"
