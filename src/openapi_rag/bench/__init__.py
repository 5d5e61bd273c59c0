"""Evaluation of endpoint retrieval on RestBench, SOCBench-D and users' own query sets.

    from openapi_rag.bench import IndexRetrieverFactory, grid, load_dataset, run_eval, write_report

    dataset = load_dataset("socbench-d", "../shared/data/socbench-d/socbenchd_1")
    result = run_eval(dataset, grid(["endpoint", "thin"], ["default"], ["dense"]),
                      IndexRetrieverFactory(), "out/", ks=[5, 10, 20, "auto"])
    write_report(result, "out/", compare_paper=True)

scipy (Friedman test) and matplotlib (plots) are imported only when a report is written
(``pip install "openapi-rag[eval]"``).
"""

from openapi_rag.bench.aggregate import DOMAIN_COLUMNS, SUMMARY_COLUMNS, domain_rows, summary_rows
from openapi_rag.bench.dataset import Dataset, GoldEntry, GoldIssue, Group, Query
from openapi_rag.bench.loaders import DATASET_KINDS, DatasetError, load_dataset
from openapi_rag.bench.metrics import QueryScores, score_query
from openapi_rag.bench.report import write_report
from openapi_rag.bench.retrievers import (
    IndexRetrieverFactory,
    RetrievedOp,
    Retriever,
    RetrieverFactory,
    RunConfig,
    grid,
    make_index_retriever,
)
from openapi_rag.bench.runner import RESULT_COLUMNS, EvalResult, QueryResult, parse_ks, run_eval
from openapi_rag.bench.stats import FriedmanCell, friedman_tests

__all__ = [
    "DATASET_KINDS",
    "DOMAIN_COLUMNS",
    "RESULT_COLUMNS",
    "SUMMARY_COLUMNS",
    "Dataset",
    "DatasetError",
    "EvalResult",
    "FriedmanCell",
    "GoldEntry",
    "GoldIssue",
    "Group",
    "IndexRetrieverFactory",
    "Query",
    "QueryResult",
    "QueryScores",
    "RetrievedOp",
    "Retriever",
    "RetrieverFactory",
    "RunConfig",
    "domain_rows",
    "friedman_tests",
    "grid",
    "load_dataset",
    "make_index_retriever",
    "parse_ks",
    "run_eval",
    "score_query",
    "summary_rows",
    "write_report",
]
