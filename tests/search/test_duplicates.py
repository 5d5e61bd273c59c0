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


NEAR = {  # Twilio's Chat v1 and the same API under its older name, IP Messaging
    "chat:POST /v1/Services": "Twilio - Chat – ChatV1Service – POST /v1/Services: create service. Top level scope"
    " for all chat resources Returns: sid, account_sid, friendly_name, limits, webhooks, url, links.",
    "ipm:POST /v1/Services": "Twilio - Ip_messaging – IpMessagingV1Service – POST /v1/Services: create service"
    " Returns: sid, account_sid, friendly_name, limits, webhooks, url, links.",
    "other:POST /v1/Services": "Verify – POST /v1/Services: create a verification service Parameters: code_length."
    " Returns: sid, code_length, lookup_enabled.",
}


def test_near_copies_fold_by_the_words_after_the_operation_and_other_apis_stay() -> None:
    ranked = [hit(s, "POST /v1/Services", 1 - i / 10) for i, s in enumerate(("ipm", "other", "chat"))]
    folded = fold_duplicates(ranked, NEAR.get, similarity=0.5)  # these two share 10 of 17 words
    assert [(op.service, op.also_in) for op in folded] == [("ipm", ("chat",)), ("other", ())]
    # word for word only (similarity 1): the renamed API's line differs, nothing folds
    assert [op.service for op in fold_duplicates(ranked, NEAR.get)] == ["ipm", "other", "chat"]


def test_a_renamed_copy_of_a_real_api_is_returned_once() -> None:
    from openapi_rag.index import Index
    from openapi_rag.spec import load_services
    from tests.conftest import shared_data

    specs = shared_data("realworld", "twilio", "spec", "json")
    services = load_services([specs / "twilio_chat_v1.json", specs / "twilio_ip_messaging_v1.json"])
    index = Index.build(services.services)
    query = "send a message to a channel"
    hits = index.search(query, k=10, expand=False)
    pair = {"twilio-chat", "twilio-ip-messaging"}
    folded = [h for h in hits if h.also_in and {h.service, *h.also_in} == pair]  # either may rank first
    assert len(folded) >= 5
    index.searcher.configure(fold_similarity=1.0)  # word for word only: the renamed copies come back
    assert len({h.id for h in index.search(query, k=10, expand=False)}) < len({h.id for h in hits})
