"""The HTTP methods a clause's action verb asks for.

A clause of a multi-intent query names one action: "submit feedback for a new product" wants a
`POST`, "remove outdated materials" a `DELETE`, "retrieve the status of all equipment" a `GET`.
Text similarity alone often prefers the wrong sibling (`GET /suppliers/list` for "add a supplier"),
so `Searcher` scales down, within that clause's list only, the operations whose method the verb
rules out (`METHOD_MISMATCH`).

Only the clause's first word after lead-ins ("I need to", "then", "finally") counts, and only
verbs whose REST meaning is plain are listed: "configure", "generate", "analyze", "cancel" or
"track" map to different methods from one API to the next and are left out, as is "set"
("set up" creates, "set" updates). A whole query is not read this way: its verb names the last
step of a chain that also needs reads ("make me a playlist of three songs" needs `GET /search`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

METHOD_MISMATCH = 0.9
"""Factor on a clause's score for an operation whose method its verb rules out (SOCBench-D R@5
+.011, P@5 +.009; RestBench unchanged, its queries are rarely split; ablation in the README).
Stronger factors (.85, .8) moved every figure by less than .005."""

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
