"""The first result of a request that names one action: its method and its resource.

"Please update employee emp_882's record with that termination date" names an action (update)
and an object (employee). Among operations that score close to the best, the first should be one
whose method the verb allows and whose resource the request names: `PATCH /hris/employees/{id}`
rather than `PUT /Employees/{EmployeeID}/Leave/{LeaveID}`, which updates an employee's *leave*.
Text similarity alone often ranks such a sibling first: the two share most of their words.

`settle_first` reorders only the head of the list (operations scoring at least `share` of the
best), and only when one of them matches both and belongs to the first operation's API (a sibling
in what that API offers: another API's near-namesake is a different answer, not a better
reading of the same one); everything else keeps its order. The verb is read from the intent, the
resource's words from the whole request (the context names the object as often as the intent:
"... changes to the charts ... Can you check for updates?"). A resource is the
last segment of the path that is not a parameter, split into words (`BankTransfers` -> bank,
transfer; `scheduled_sends` -> scheduled, send); the request names it when it holds all its words
(plural and singular alike). No word list: the words come from the catalog's own paths.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import takewhile

from openapi_rag.search.actions import _CREATE, ACTION_VERBS, LEAD_INS, clause_methods
from openapi_rag.search.context import identifiers
from openapi_rag.search.results import OperationHit

_SEGMENT_WORDS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_TEXT_WORDS = re.compile(r"[a-z]+")
# digits after "ID", "#" or "number" name one thing too ("order #1234", "account ID 0123")
_NUMBERED = re.compile(r"(?:\bid\b|#|\bnumber\b|\bno\.)\s*(?:is\s+|:\s*)?\d", re.IGNORECASE)


def resource_words(path: str) -> frozenset[str]:
    """The words of a path's last segment that is not a parameter, singular and lower-case.

    Example:
        >>> sorted(resource_words("/Employees/{EmployeeID}/Leave/{LeaveID}"))
        ['leave']
        >>> sorted(resource_words("/v3/user/scheduled_sends/{batch_id}"))
        ['scheduled', 'send']
        >>> sorted(resource_words("/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json"))
        ['message']
    """
    segments = [s for s in path.split("/") if s and not s.startswith("{") and not s[:1].isdigit()]
    if not segments:
        return frozenset()
    last = segments[-1].split(".")[0]  # "Messages.json" -> "Messages"
    return frozenset(_singular(w.lower()) for w in _SEGMENT_WORDS.findall(last) if len(w) > 1)


def names_resource(text: str, path: str) -> bool:
    """Whether `text` holds every word of the path's resource (`resource_words`).

    Example:
        >>> names_resource("update employee emp_882's record", "/hris/employees/{id}")
        True
        >>> names_resource("update employee emp_882's record", "/Employees/{EmployeeID}/Leave/{LeaveID}")
        False
    """
    wanted = resource_words(path)
    return bool(wanted) and wanted <= {_singular(w) for w in _TEXT_WORDS.findall(text.lower())}


def names_identifier(text: str) -> bool:
    """Whether `text` names one thing by an identifier (`context.identifiers`), or by digits after
    "ID", "#" or "number" (amounts, dates, ordinals and times do not count).

    Example:
        >>> names_identifier("move opportunity opp_4410 to closed-won"), names_identifier("order #1234")
        (True, True)
        >>> names_identifier("the trial balance as of 31 March 2024, in 5th place at 10am")
        False
    """
    return bool(_NUMBERED.search(text) or identifiers(text))


def is_item_path(path: str) -> bool:
    """Whether a path addresses one item: its last segment is a parameter (`/orders/{id}`)."""
    segments = [s for s in path.split("/") if s]
    return bool(segments) and segments[-1].split(".")[0].startswith("{")


def settle_first(
    operations: Sequence[OperationHit],
    intent: str,
    *,
    share: float,
    verbs: Mapping[str, frozenset[str]] = ACTION_VERBS,
    words_of: str | None = None,
    skip: frozenset[str] = LEAD_INS,
    shape: bool = False,
    exclude: frozenset[tuple[str, str]] = frozenset(),
) -> list[OperationHit]:
    """`operations` (best first) with the head's first operation being one of the first one's API
    whose method the intent's verb allows (any, when it names no listed verb) and whose resource
    it names (`words_of`: where to look for the resource's words, the intent by default), when the
    head holds one; it takes the best score. The head: operations scoring at least `share` of the
    best. With `shape`, a request that names one thing by its identifier ("opportunity opp_4410")
    with a verb that changes what exists (not a read, not only a create) settles on an operation on
    one item (`/opportunities/{id}`) where the head holds one that fits. No operation in `exclude`
    ((service, id) keys: lifted producers) is moved first.

    Example:
        >>> ops = [OperationHit("s", "GET", "/orders/{id}/items", "GET /orders/{id}/items", 1.0),
        ...        OperationHit("s", "DELETE", "/orders/{id}", "DELETE /orders/{id}", 0.9)]
        >>> [op.id for op in settle_first(ops, "remove order 12", share=0.8)]
        ['DELETE /orders/{id}', 'GET /orders/{id}/items']
        >>> [op.id for op in settle_first(ops, "remove order 12", share=0.95)]
        ['GET /orders/{id}/items', 'DELETE /orders/{id}']
    """
    if not operations:
        return list(operations)
    best = operations[0].score
    allowed = clause_methods(intent, verbs, skip=skip)
    named_in = intent if words_of is None else words_of
    # a change to what exists (update, delete, a change of state) acts on the thing it names; a read
    # or a create often names a parent or a filter ("invoices of contact C-12")
    changes = allowed is not None and "GET" not in allowed and allowed != _CREATE
    one_item = shape and changes and names_identifier(named_in)

    def fits(op: OperationHit) -> bool:
        return (
            (allowed is None or op.method.upper() in allowed)
            and names_resource(named_in, op.path)
            and (op.service, op.id) not in exclude
        )

    head = [  # what the first one's API offers among those scoring close to it
        (i, op)
        for i, op in takewhile(lambda pair: pair[1].score >= share * best, enumerate(operations))
        if op.service == operations[0].service
    ]

    def fits_item(op: OperationHit) -> bool:
        return fits(op) and is_item_path(op.path)

    for wanted in (fits_item, fits) if one_item else (fits,):
        if wanted(operations[0]):
            return list(operations)
        for i, op in head:
            if wanted(op):
                return [replace(op, score=best), *operations[:i], *operations[i + 1 :]]
    return list(operations)


def _singular(word: str) -> str:
    """A plural's singular, roughly: transfers -> transfer, policies -> policy, addresses -> address."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
