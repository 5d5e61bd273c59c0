"""The HTTP methods a clause's action verb asks for.

A clause of a multi-intent query names one action: "submit feedback for a new product" wants a
`POST`, "remove outdated materials" a `DELETE`, "retrieve the status of all equipment" a `GET`.
Text similarity alone often prefers the wrong sibling (`GET /suppliers/list` for "add a supplier"),
so `Searcher` scales down, within that clause's list only, the operations whose method the verb
rules out (`weigh_verb`, by `SearchSettings.verb_mismatch`).

The verb is evidence, weighed against what the catalog offers: other methods give way only where
the clause's list offers an operation with an allowed method scoring close to its best
(`SearchSettings.verb_offer_share`). An API that models "cancel" as creating a cancellation
request, or "block an IP" as creating an access rule, offers no close `DELETE`, so its
operations keep their order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType

OpKey = tuple[str, str]  # (service id, `METHOD /path`)

_READ = frozenset({"GET"})
_CREATE = frozenset({"POST", "PUT"})
_UPDATE = frozenset({"PUT", "PATCH", "POST"})
_DELETE = frozenset({"DELETE"})
_CHANGE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ACTION_VERBS: Mapping[str, frozenset[str]] = {
    **dict.fromkeys(
        "get retrieve fetch obtain view list show check see access review verify display read "
        "download find search look lookup identify examine inspect browse monitor".split(),
        _READ,
    ),
    **dict.fromkeys(
        "create add submit register upload post log record schedule book send place make file "
        "subscribe enroll insert".split(),
        _CREATE,
    ),
    **dict.fromkeys("update modify change edit adjust rename replace patch amend revise".split(), _UPDATE),
    **dict.fromkeys("delete remove erase purge discard revoke deregister".split(), _DELETE),
    **dict.fromkeys("book buy purchase issue pay refund transfer".split(), _CREATE),
    **dict.fromkeys(
        "cancel stop terminate void withdraw approve reject confirm migrate enable disable reset restore "
        "revert trigger".split(),
        _CHANGE,
    ),
}
"""Verb -> the methods it allows. Create allows PUT (idempotent creation) and update allows POST
(many APIs update through POST), so only clear contradictions are scaled down. A change of state
("cancel", "approve", "restore") is modelled as a DELETE by one API, a POST creating a
cancellation request or a status update by the next: it only rules out a plain read."""

CATALOG_VERBS: Mapping[str, frozenset[str]] = {
    **dict.fromkeys("set assign associate activate".split(), _UPDATE),
    **dict.fromkeys("resend duplicate execute".split(), _CREATE),
    "disassociate": _CHANGE,
}
"""Verbs the APIs of `../shared/data/realworld` use for changes, beyond `ACTION_VERBS`: each opens
the summaries of at least 8 operations of at least 3 APIs (209 APIs, 9,532 operations), none of
them a GET, and each is allowed the methods it was seen with (`SearchSettings.catalog_verbs`).
Read from the corpus's summaries, not from any task: how APIs name actions, not how one task set
words them."""

IMPERATIVES = frozenset(
    """cancel confirm approve reject mark book buy purchase move transfer migrate take put set clear
    stop start restart end close open pay refund issue enter push pull produce withdraw revert
    restore enable disable power reset resend resize tag assign invite ban block unblock archive
    publish unpublish deploy rollback trigger run text call email notify top void""".split()
)
"""Verbs that open a command, many without naming an HTTP method (`ACTION_VERBS` names theirs): the
context rule reads a piece opening with one as an intent (`context.is_context`)."""

_NOT_COMMANDS = frozenset("run pull open take call produce enter end clear unblock".split())
"""Imperatives not read as updates: those that also open a read ("run a report", "pull up the
balance", "open the file", "take a look", "call the API", "produce a summary", "enter the portal")
and those that may well delete ("end", "clear", "unblock")."""

COMMAND_VERBS: Mapping[str, frozenset[str]] = dict.fromkeys(
    sorted((IMPERATIVES - ACTION_VERBS.keys() - _NOT_COMMANDS) | {"unarchive"}), _UPDATE
)
"""Verbs that open a command and change something without saying how (`SearchSettings.command_verbs`):
"mark order 3321 as paid", "move the opportunity to closed-won", "archive the project". Each changes
what exists (a status, a field, a membership) and allows what an update does. They are
`IMPERATIVES` less the verbs `ACTION_VERBS` holds (its methods win in `verb_lexicon` anyway) and
`_NOT_COMMANDS`, plus "unarchive" (kept out of `IMPERATIVES` so that the context rule reads as
it did)."""

LEAD_INS = frozenset(
    """i we you need needs want wants would like to please first then next finally also and after
    that afterwards lastly additionally subsequently now once can could should must help me us
    how let lets""".split()
)
"""Words skipped before a clause's verb."""

CONTRACTIONS = frozenset("d ll m re ve".split())
"""What is left of "I'd", "we'll", "I'm", "we're" and "I've" once words are split at the apostrophe:
skipped before a clause's verb too (`SearchSettings.verb_contractions`), so that "I'd like to record
that payment" is read as "record"."""


@functools.cache  # every search asks for it: built once per combination, read-only so it can be shared
def verb_lexicon(*, catalog: bool = False, commands: bool = False) -> Mapping[str, frozenset[str]]:
    """The verbs a search reads (`ACTION_VERBS`, with `CATALOG_VERBS` and `COMMAND_VERBS` as asked)."""
    if not (catalog or commands):
        return ACTION_VERBS
    merged = {**(COMMAND_VERBS if commands else {}), **(CATALOG_VERBS if catalog else {}), **ACTION_VERBS}
    return MappingProxyType(merged)


@functools.cache  # as `verb_lexicon`: a frozenset, built once per combination
def lead_ins(*, contractions: bool = False) -> frozenset[str]:
    """The words skipped before a clause's verb (`LEAD_INS`, with `CONTRACTIONS` as asked)."""
    return LEAD_INS | CONTRACTIONS if contractions else LEAD_INS


_WORD = re.compile(r"[a-z]+")


def clause_methods(
    clause: str, verbs: Mapping[str, frozenset[str]] = ACTION_VERBS, *, skip: frozenset[str] = LEAD_INS
) -> frozenset[str] | None:
    """The methods a clause's leading action verb allows, or None when it has no listed verb.

    Example:
        >>> sorted(clause_methods("then remove outdated materials from the system"))
        ['DELETE']
        >>> sorted(clause_methods("uploading smart meter data"))
        ['POST', 'PUT']
        >>> clause_methods("the weather impact between two dates") is None
        True
    """
    for word in _WORD.findall(clause.lower())[:8]:
        if word in skip:
            continue
        for verb in _base_forms(word):
            if verb in verbs:
                return verbs[verb]
        return None
    return None


def _base_forms(word: str) -> tuple[str, ...]:
    """The word and the verbs it may inflect: adds -> add, uploading -> upload, retrieving ->
    retrieve, logging -> log."""
    if word.endswith("ing") and len(word) > 5:
        stem = word[:-3]
        return (word, stem, stem + "e", stem[:-1]) if stem[-1] == stem[-2] else (word, stem, stem + "e")
    if word.endswith("s"):
        return (word, word[:-1])
    return (word,)


def weigh_verb(
    scores: Mapping[OpKey, float],
    clause: str | None,
    *,
    factor: float,
    offer_share: float = 0.0,
    verbs: Mapping[str, frozenset[str]] = ACTION_VERBS,
    skip: frozenset[str] = LEAD_INS,
) -> dict[OpKey, float]:
    """A clause's operation scores with those whose method its verb rules out scaled by `factor`.

    With `offer_share` > 0 the verb is weighed against what the catalog offers: operations are
    scaled only when an operation with an allowed method scores at least `offer_share` of the
    clause's best, so a catalog that offers the action only under another method keeps its order.

    Example:
        >>> scores = {("s", "GET /materials"): 1.0, ("s", "DELETE /materials/{id}"): 0.9,
        ...           ("s", "GET /alerts"): 0.8}
        >>> weighed = weigh_verb(scores, "remove outdated materials", factor=0.5, offer_share=0.8)
        >>> weighed[("s", "GET /materials")], weighed[("s", "DELETE /materials/{id}")]
        (0.5, 0.9)
        >>> weigh_verb(scores, "remove outdated materials", factor=0.5, offer_share=0.95) == scores
        True
    """
    allowed = clause_methods(clause or "", verbs, skip=skip)
    if allowed is None or factor == 1.0 or not scores:
        return dict(scores)
    best = max(scores.values())
    offered = max((score for (_, op_id), score in scores.items() if _method(op_id) in allowed), default=None)
    if offer_share > 0 and (offered is None or offered < offer_share * best):
        return dict(scores)
    return {key: score if _method(key[1]) in allowed else score * factor for key, score in scores.items()}


def _method(op_id: str) -> str:
    return op_id.partition(" ")[0]
