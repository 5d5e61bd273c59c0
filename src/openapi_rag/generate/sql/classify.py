"""Is a request a read (answered by SQL) or a change (answered by an API call)?

Offline, the request's leading verb decides: a request opens with what it wants done ("Cancel
reservation 12", "How many rooms ..."), after any politeness ("Could you please ..."). Read cues
(question words, show/list/count) and a question mark say read; a verb that changes state (create,
delete, book, follow, pause, ...) says change. With an LLM, the model answers `{"kind": ...}` in a
constrained form and the rules decide only when its reply cannot be read.
"""

from __future__ import annotations

import re
from typing import Any

from openapi_rag.agents.policies import parse_json_object
from openapi_rag.llm.base import LLM, structured_output

KINDS = ("read", "change")
_POLITE = re.compile(
    r"^(?:please|kindly|hey|hi|ok|okay|now|then|also|and|so|i\s+(?:want|need|would\s+like|'d\s+like)\s+(?:you\s+)?to|"
    r"i'd\s+like\s+to|could\s+you|can\s+you|would\s+you|will\s+you|help\s+me|let's|let\s+us|go\s+ahead\s+and|"
    r"i\s+want|i\s+need|i'd\s+like)\b[\s,]*",
    re.I,
)
READ_WORDS = frozenset(
    "how what which who whom whose when where why is are was were do does did has have can list show count "
    "find get give tell display return look check see compare average total sum many much any".split()
)
CHANGE_WORDS = frozenset(
    "create add make update change edit modify rename set delete remove cancel book reserve schedule submit "
    "send post pay save follow unfollow like unlike subscribe unsubscribe upload transfer approve reject assign "
    "move replace reset enable disable turn start stop pause play resume skip queue register record mark "
    "archive restore insert put reorder shuffle repeat seek invite share order purchase buy refund close "
    "open block unblock revoke grant activate deactivate publish unpublish apply clear empty increase "
    "decrease raise lower transfer upgrade downgrade attach detach link unlink rate review comment reply "
    "write store keep put install uninstall sign log".split()
)
KIND_SCHEMA = {
    "type": "object",
    "properties": {"kind": {"type": "string", "enum": list(KINDS)}},
    "required": ["kind"],
}


def classify_rules(request: str) -> str:
    """ "read" or "change" from the request's wording alone."""
    text = request.strip()
    for _ in range(4):
        stripped = _POLITE.sub("", text)
        if stripped == text:
            break
        text = stripped
    tokens = re.findall(r"[a-z']+", text.lower())
    if not tokens:
        return "read"
    if (
        tokens[0] in CHANGE_WORDS
        and tokens[0] not in ("record",)
        or tokens[0] == "record"
        and "that" in tokens[1:3]
    ):
        return "change"
    if tokens[0] in READ_WORDS or text.rstrip().endswith("?"):
        return "read"
    # No opening verb ("I lost my card, please block it"): any state-changing verb makes it a change.
    # Only base forms count ("block it"): participles describe ("blocked cards") and nouns name
    # ("the transfer", "records of payments").
    for i, token in enumerate(tokens):
        if token in CHANGE_WORDS and (i == 0 or tokens[i - 1] not in _DETERMINERS):
            return "change"
    return "read"


_DETERMINERS = {
    "the",
    "a",
    "an",
    "of",
    "my",
    "your",
    "our",
    "this",
    "that",
    "these",
    "those",
    "each",
    "every",
}


def classify(request: str, llm: LLM | None = None) -> tuple[str, dict[str, Any]]:
    """(kind, details): by the LLM when one is given (the rules where its reply is unreadable)."""
    if llm is None:
        return classify_rules(request), {"by": "rules"}
    params = structured_output(llm, "kind", KIND_SCHEMA)
    response = llm.chat(
        [
            {
                "role": "system",
                "content": "You sort requests to a business system: 'read' asks for data (answered with a "
                "database query), 'change' asks to create, update, delete or trigger something (answered "
                "with an API call).",
            },
            {
                "role": "user",
                "content": f'Request: {request}\nAnswer as JSON: {{"kind": "read" or "change"}}',
            },
        ],
        max_tokens=16,
        temperature=0.0,
        **params,
    )
    obj = parse_json_object(response.text)
    kind = str(obj.get("kind", "")).lower() if obj else ""
    if kind in KINDS:
        return kind, {"by": "llm"}
    return classify_rules(request), {"by": "rules", "llm_reply": response.text[:200]}
