"""Issue 18 items 5-6, fourth pass: a conversation's first result settled from a lower share, the
whole request's dense list beside its clauses', values left out of the texts searched."""

from __future__ import annotations

import pytest

from openapi_rag.index import Index
from openapi_rag.search.context import without_names, without_quoted, without_values
from openapi_rag.spec import load_services
from tests.conftest import shared_data

LEAVE = (
    "Tom is going on two weeks of annual leave from 10 July. Please book that leave for employee "
    "E-204 in payroll. He has enough balance, I checked."
)


@pytest.fixture(scope="module")
def payroll() -> Index:
    """Xero's UK payroll and Apideck's HRIS: two real APIs holding leave, the real embedder."""
    realworld = shared_data("realworld")
    specs = [realworld / "xero" / "xero-payroll-uk.yaml", realworld / "apideck" / "hris.yml"]
    return Index.build(load_services(specs).services)


def test_values_are_words_holding_a_digit() -> None:
    assert without_values("Please mark order ord_3321 as paid. The tip was 12.50.") == (
        "Please mark order as paid. The tip was."
    )
    assert without_values("Is 1.2.3.4 abusive? Convert $200 at 80%, by 10am") == "Is abusive? Convert at, by"
    assert without_values("Get invoice INV-0310") == "Get invoice"
    assert without_values("2023") == "2023"  # nothing would be left: the text itself
    assert without_values("holidays 2023") == "holidays 2023"  # one word left: the text itself


def test_quoted_titles_and_values_are_not_searched_but_a_quoted_term_is() -> None:
    assert without_quoted('make a card for "update pricing page" on our board') == "make a card for on our board"
    assert without_quoted('Who directed the movie "Twilight"?') == "Who directed the movie?"
    assert without_quoted("Rename my first playlist to ‘My First’.") == "Rename my first playlist to."
    # a lower-case word in quotes is the term asked about; apostrophes open no quote
    assert without_quoted("what does 'deductible' mean") == "what does 'deductible' mean"
    assert without_quoted("Push Xero's lines for yesterday's feed. We'll check") == (
        "Push Xero's lines for yesterday's feed. We'll check"
    )
    assert without_quoted('"Love Mariah"') == '"Love Mariah"'  # nothing would be left: the text itself


def test_names_past_a_sentence_start_are_not_searched_but_api_names_and_terms_are() -> None:
    assert without_names("assign this bug to Priya") == "assign this bug to"
    assert without_names("ask a colleague to review a file by Friday.") == "ask a colleague to review a file by."
    assert without_names("Who directed Inception? Then find its cast.") == "Who directed? Then find its cast."
    # the catalog's API names, a word in capitals, "I" and a sentence's first word stay
    assert without_names("list my issues in Jira", known=frozenset({"jira"})) == "list my issues in Jira"
    assert without_names("I want SSH open. Block it now") == "I want SSH open. Block it now"
    assert without_names("Follow Taylor Swift") == "Follow Taylor Swift"  # one word would be left


def test_masking_names_changes_only_the_texts_searched(payroll: Index) -> None:
    searcher = payroll.searcher
    try:
        searcher.configure(mask_names=True)
        assert searcher.texts_to_embed("Show the leave of employee Priya") == ["Show the leave of employee"]
    finally:
        searcher.configure(mask_names=False)
    assert searcher.texts_to_embed("Show the leave of employee Priya") == ["Show the leave of employee Priya"]


def test_masking_quoted_values_changes_only_the_texts_searched(payroll: Index) -> None:
    searcher = payroll.searcher
    try:
        searcher.configure(mask_quoted=True)
        assert searcher.texts_to_embed('Show the employee "Update Pay"') == ["Show the employee"]
        masked = payroll.search('Show the employee "Update Pay"', k=5, mode="bm25", expand=False)
        plain = payroll.search("Show the employee", k=5, mode="bm25", expand=False)
        assert [h.id for h in masked] == [h.id for h in plain]
    finally:
        searcher.configure(mask_quoted=False)
    assert searcher.texts_to_embed('Show the employee "Update Pay"') == ['Show the employee "Update Pay"']


def test_a_conversation_settles_its_intent_from_a_lower_share(payroll: Index) -> None:
    """The leave balances (a read the context's "balance" and "leave" pull up) scored well above
    the booking; in a conversation the intent's verb and resource are trusted from .6 of the best."""
    searcher = payroll.searcher
    try:
        searcher.configure(settle_share_conversation=None)  # .8 as for every request
        before = payroll.search(LEAVE, k=5, expand=False)
        searcher.configure(settle_share_conversation=0.6)
        after = payroll.search(LEAVE, k=5, expand=False)
        assert before[0].method == "GET" and "Balance" in before[0].path
        assert after[0].method in {"POST", "PUT"} and "/Leave" in after[0].path
        assert {h.id for h in after} >= {h.id for h in before[:4]}  # reordered, nothing dropped
        # a request of one sentence keeps `settle_share`
        assert searcher._settle_share("Please book that leave for employee E-204.") == 0.8
        assert searcher._settle_share(LEAVE) == 0.6
    finally:
        searcher.configure(settle_share_conversation=None)


def test_a_conversations_whole_text_may_count_below_its_intent(payroll: Index) -> None:
    """"He has enough balance" pulls the leave balances up in the whole request's list; counted at
    .8 against the intent searched alone ("Please book that leave ..."), the booking comes first."""
    searcher = payroll.searcher
    try:
        before = payroll.search(LEAVE, k=4, expand=False)
        searcher.configure(focus_whole_share=0.8)
        after = payroll.search(LEAVE, k=4, expand=False)
        assert before[0].method == "GET" and "Balance" in before[0].path
        assert after[0].id == "POST /Employees/{EmployeeID}/Leave"
        # a request of one sentence has no focus: its order does not move
        one = "Please book annual leave for employee E-204."
        searcher.configure(focus_whole_share=1.0)
        plain = [h.id for h in payroll.search(one, k=5, expand=False)]
        searcher.configure(focus_whole_share=0.8)
        assert [h.id for h in payroll.search(one, k=5, expand=False)] == plain
    finally:
        searcher.configure(focus_whole_share=1.0)


def test_values_are_not_searched_but_still_read(payroll: Index) -> None:
    searcher = payroll.searcher
    try:
        searcher.configure(mask_values=True)
        # the identifier is not embedded nor matched by BM25 ...
        assert searcher.texts_to_embed("Show employee E-204") == ["Show employee"]
        masked = payroll.search("Show employee E-204 12345 99", k=5, mode="bm25", expand=False)
        plain = payroll.search("Show employee", k=5, mode="bm25", expand=False)
        assert [h.id for h in masked] == [h.id for h in plain]
        # ... nor by the dense side: the scores are those of the request without it
        dense_masked = payroll.search("Show employee E-204", k=5, mode="dense", expand=False)
        dense_plain = payroll.search("Show employee", k=5, mode="dense", expand=False)
        assert [h.score for h in dense_masked] == pytest.approx([h.score for h in dense_plain])
        searcher.configure(mask_values=False)
        assert searcher.texts_to_embed("Show employee E-204") == ["Show employee E-204"]
        unmasked = payroll.search("Show employee E-204", k=5, mode="dense", expand=False)
        assert [h.score for h in unmasked] != pytest.approx([h.score for h in dense_masked])
    finally:
        searcher.configure(mask_values=False)


def test_the_whole_requests_dense_list_is_fused_into_its_clauses(payroll: Index) -> None:
    """A request of two intents: each clause's fused list takes in the whole request's dense list."""
    searcher = payroll.searcher
    query = "List the employees and show the leave balances of one of them"
    try:
        searcher.configure(whole_dense_weight=0.0)
        texts, vectors = searcher._texts(query, None, "hybrid", None)
        assert len(texts) == 3 and vectors[0] is not None  # the whole request and two clauses
        _, _, lists_off, _ = searcher._chunk_hits(texts, vectors, "hybrid", 50, None, None, None)
        searcher.configure(whole_dense_weight=1.0)
        _, _, lists_on, _ = searcher._chunk_hits(texts, vectors, "hybrid", 50, None, None, None)
        assert lists_on[0] == lists_off[0]  # the whole request's own list is as it was
        assert lists_on[1] != lists_off[1] and lists_on[2] != lists_off[2]
        whole_best = lists_off[0][0][0]
        rank_off = [c for c, _ in lists_off[2]].index(whole_best) if whole_best in dict(lists_off[2]) else 99
        rank_on = [c for c, _ in lists_on[2]].index(whole_best)
        assert rank_on <= rank_off  # what the whole request finds best does not fall in a clause's list
    finally:
        searcher.configure(whole_dense_weight=0.0)
