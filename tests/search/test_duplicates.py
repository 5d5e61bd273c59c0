"""Word-for-word copies of an operation in several services are returned once."""

from __future__ import annotations

from openapi_rag.search.duplicates import fold_duplicates
from openapi_rag.search.results import OperationHit


def hit(service: str, op_id: str, score: float) -> OperationHit:
    method, _, path = op_id.partition(" ")
    return OperationHit(service, method, path, op_id, score, chunk_ids=(f"{service}:{op_id}",))


TEXTS = {
    "a:POST /pins.add": "Slack – POST /pins.add: pin an item",
    "b:POST /pins.add": "Slack – POST /pins.add: pin an item",
    "c:POST /pins.add": "Slack – POST /pins.add: pin an item",
    "d:POST /pins.add": "Other chat – POST /pins.add: pin a message",
}


def test_copies_fold_into_the_best_ranked_one_and_other_texts_stay() -> None:
    ranked = [hit(s, "POST /pins.add", 1 - i / 10) for i, s in enumerate("adbce")]
    folded = fold_duplicates(ranked, TEXTS.get)
    assert [(op.service, op.also_in) for op in folded] == [("a", ("b", "c")), ("d", ()), ("e", ())]


def test_one_api_indexed_from_two_identical_files_returns_each_operation_once() -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services
    from tests.conftest import shared_data

    nytimes = shared_data("realworld", "nytimes")  # community.yaml is a copy of community/…_v3.yaml
    services = load_services([nytimes / "community.yaml", nytimes / "community" / "community_api_v3.yaml"])
    index = Index.build(services.services)
    query = "comments readers left on an article"
    hits = index.search(query, k=4, expand=False)
    assert len({h.id for h in hits}) == 4  # the API's four operations, none twice
    assert all(h.service == "community-api" and h.also_in == ("community-api-2",) for h in hits)
    index.searcher.configure(fold_duplicates=False)
    assert len({h.id for h in index.search(query, k=4, expand=False)}) == 2
