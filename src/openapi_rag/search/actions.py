"""The HTTP methods a clause's action verb asks for.

A clause of a multi-intent query names one action: "submit feedback for a new product" wants a
`POST`, "remove outdated materials" a `DELETE`, "retrieve the status of all equipment" a `GET`.
Text similarity alone often prefers the wrong sibling (`GET /suppliers/list` for "add a supplier"),
so `Searcher` scales down, within that clause's list only, the operations whose method the verb
rules out (`weigh_verb`, by `SearchSettings.verb_mismatch`).

The verb is evidence, weighed against what the catalog offers: an operation is scaled down only
where its resource (its path's first word: `/materials` for `GET /materials` and
`DELETE /materials/{id}`, `/supplier/add` and `/suppliers/list`) is offered in the clause's list
under a method the verb allows. An API that models "cancel" as creating a cancellation request, or "block an IP" as
creating an access rule, offers no matching sibling, so its operations keep their scores.

Only the clause's first word after lead-ins ("I need to", "then", "finally") counts, and only
verbs whose REST meaning is plain are listed: "configure", "generate", "analyze", "cancel" or
"track" map to different methods from one API to the next and are left out, as is "set"
("set up" creates, "set" updates). A whole query is not read this way: its verb names the last
step of a chain that also needs reads ("make me a playlist of three songs" needs `GET /search`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from openapi_rag.search.tokenize import stem

OpKey = tuple[str, str]  # (service id, `METHOD /path`)
_API_PREFIX = re.compile(r"^(?:api|rest|v?\d+(?:\.\d+)*)$", re.IGNORECASE)  # /api/2, /v3, /rest

_READ = frozenset({"GET"})
_CREATE = frozenset({"POST", "PUT"})
_UPDATE = frozenset({"PUT", "PATCH", "POST"})
_DELETE = frozenset({"DELETE"})
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
}
"""Verb -> the methods it allows. Create allows PUT (idempotent creation) and update allows POST
(many APIs update through POST), so only clear contradictions are scaled down."""

LEAD_INS = frozenset(
    """i we you need needs want wants would like to please first then next finally also and after
    that afterwards lastly additionally subsequently now once can could should must help me us
    how let lets""".split()
)
"""Words skipped before a clause's verb."""

_WORD = re.compile(r"[a-z]+")


def clause_methods(clause: str) -> frozenset[str] | None:
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
        if word in LEAD_INS:
            continue
        for verb in _base_forms(word):
            if verb in ACTION_VERBS:
                return ACTION_VERBS[verb]
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
    scores: Mapping[OpKey, float], clause: str | None, *, factor: float, siblings_only: bool = True
) -> dict[OpKey, float]:
    """A clause's operation scores with those whose method its verb rules out scaled by `factor`.

    With `siblings_only`, an operation is scaled only when its resource is offered in `scores`
    under an allowed method too, by any service (see the module docstring).

    Example:
        >>> scores = {("s", "GET /materials"): 1.0, ("s", "DELETE /materials/{id}"): 0.9,
        ...           ("s", "GET /alerts"): 0.8}
        >>> weighed = weigh_verb(scores, "remove outdated materials", factor=0.5)
        >>> weighed[("s", "GET /materials")], weighed[("s", "GET /alerts")]
        (0.5, 0.8)
    """
    allowed = clause_methods(clause or "")
    if allowed is None or factor == 1.0:
        return dict(scores)
    # catalog-wide: a catalog's services often split one domain (suppliers listed by one API,
    # added through another)
    offered = {resource_of(op_id) for _, op_id in scores if _method(op_id) in allowed}

    def ruled_out(key: OpKey) -> bool:
        if _method(key[1]) in allowed:
            return False
        return not siblings_only or resource_of(key[1]) in offered

    return {key: score * factor if ruled_out(key) else score for key, score in scores.items()}


def resource_of(op_id: str) -> str:
    """The resource an operation acts on: its path's first segment that is neither an API prefix
    (`api`, `v2`) nor a parameter, lightly stemmed, so `/supplier/add`, `/suppliers/list` and
    `/v1/suppliers/{id}` are one resource.

    Example:
        >>> resource_of("DELETE /v1/materials/{id}"), resource_of("GET /material/list")
        ('material', 'material')
    """
    for segment in op_id.partition(" ")[2].split("/"):
        if segment and not segment.startswith("{") and not _API_PREFIX.match(segment):
            return stem(segment.lower())
    return ""


def _method(op_id: str) -> str:
    return op_id.partition(" ")[0]
