"""LLM retrieval policies on top of a search: a Self-RAG relevance filter and CoRAG.

- `SelfRAGFilter`: after top-k retrieval the LLM scores each operation's relevance to the
  request (0..1); those under the threshold (0.2, as in the SAP banking study) are dropped. A reply
  that holds no score keeps its operation and counts as a parse failure, so a confused model
  never empties the list.
- `CoRAG`: iterative retrieval. Each round the LLM writes a sub-query, the top-k for it are
  retrieved, and the LLM answers in JSON which of them are relevant and whether the information
  now suffices. It stops on ``enough`` or at the round budget (default 3) and returns the union of
  the operations judged relevant, in first-seen order (it also stops, ``repeat``, when the model
  has no new sub-query).

Hits are anything with `id` (``METHOD /path``) and optionally `summary` (an `OperationHit`, a
`RetrievedOp`); they are returned as they came, so callers keep services and scores. What the hits
are is a `Subject` (its words in the prompts, how a name in a reply becomes an id): API operations
by default, database tables for SQL (`generate.sql.llm_sql`), so both share one implementation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.agents.discovery import normalize_endpoint
from openapi_rag.llm.base import LLM, Usage, structured_output

__all__ = [
    "CORAG_BUDGET",
    "OPERATIONS",
    "POLICIES",
    "SELF_RAG_THRESHOLD",
    "CoRAG",
    "PolicyResult",
    "SelfRAGFilter",
    "Subject",
    "parse_json_object",
    "parse_score",
]

POLICIES = ("self-rag", "corag")
"""The retrieval policies' names (`search --policy`, `eval --policy`, `discover --policy`)."""
SELF_RAG_THRESHOLD = 0.2  # the SAP banking study's cut: below it an operation is judged irrelevant
CORAG_BUDGET = 3

# JSON-schema grammars for models that take them (llama.cpp): even a 135M model then answers in form.
SCORE_SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "number", "minimum": 0, "maximum": 1}},
    "required": ["score"],
}
QUERY_SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}
JUDGE_SCHEMA = {
    "type": "object",
    "properties": {"relevant": {"type": "array", "items": {"type": "string"}}, "enough": {"type": "boolean"}},
    "required": ["relevant", "enough"],
}


@dataclass(frozen=True)
class Subject:
    """What a policy retrieves and judges: its words in the prompts, and how a reply names one.

    Attributes:
        one: the singular ("API operation"), as the Self-RAG judgement names a hit.
        many: the plural ("API operations"), in the system prompts.
        short: the plural in running text ("operations").
        example: how the CoRAG judgement shows a name ("METHOD /path").
        normalize: a name from a reply → the id of the hit it means (None: no such name).
    """

    one: str
    many: str
    short: str
    example: str
    normalize: Callable[[str], str | None]


OPERATIONS = Subject("API operation", "API operations", "operations", "METHOD /path", normalize_endpoint)
"""The default subject: operations of an index (`Index.search` hits)."""

_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?|\.\d+)\s*(%)?")
_SCORE_KEYS = ("score", "relevance", "relevant", "rating")


@dataclass
class PolicyResult:
    """What a policy kept, with its cost.

    Attributes:
        hits: the kept hits, in order.
        usage: prompt and completion tokens of every LLM call.
        calls: LLM calls made.
        parse_failures: replies that could not be read (their hits were kept).
        stop: ``filter`` (Self-RAG); ``enough``, ``budget`` or ``repeat`` (no new sub-query) for CoRAG.
        trace: one record per LLM call, for debugging.
    """

    hits: list[Any]
    usage: Usage = field(default_factory=Usage)
    calls: int = 0
    parse_failures: int = 0
    stop: str = "filter"
    trace: list[dict[str, Any]] = field(default_factory=list)


def parse_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in a reply (small models wrap it in prose or code fences), or None."""
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _as_score(value: Any) -> float | None:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        score = float(value)
    elif isinstance(value, str):
        return parse_score(value)
    else:
        return None
    if 1.0 < score <= 100.0:
        score /= 100.0  # a percentage written without the sign
    return score if 0.0 <= score <= 1.0 else None


def parse_score(text: str) -> float | None:
    """A relevance score in [0, 1] from a reply: ``{"score": 0.7}``, ``0.7``, ``70%``, ``yes``/``no``.

    None when the reply holds no such score.
    """
    obj = parse_json_object(text)
    if obj is not None:
        for key in _SCORE_KEYS:
            if key in obj:
                score = _as_score(obj[key])
                if score is not None:
                    return score
    for match in _NUMBER.finditer(text):
        value = float(match.group(1))
        if match.group(2):
            value /= 100.0
        if 0.0 <= value <= 1.0:
            return value
    words = set(re.findall(r"[a-z]+", text.lower()))
    if words & {"yes", "relevant"} and not words & {"no", "not", "irrelevant"}:
        return 1.0
    if words & {"no", "not", "irrelevant"}:
        return 0.0
    return None


def _line(hit: Any) -> str:
    summary = " ".join(str(getattr(hit, "summary", "") or "").split())
    return f"{hit.id}: {summary}" if summary else str(hit.id)


class SelfRAGFilter:
    """Drops retrieved operations the LLM judges irrelevant to the request.

    Args:
        llm: the judge; one call per operation.
        threshold: the lowest score kept.
        max_tokens: the longest reply per judgement.
        subject: what the hits are (API operations unless told).

    Example::

        kept = SelfRAGFilter(get_llm()).filter(request, index.search(request, k=10)).hits
    """

    def __init__(
        self,
        llm: LLM,
        *,
        threshold: float = SELF_RAG_THRESHOLD,
        max_tokens: int = 32,
        subject: Subject = OPERATIONS,
    ) -> None:
        self.llm = llm
        self.threshold = threshold
        self.max_tokens = max_tokens
        self.subject = subject

    def judge(self, request: str, hit: Any) -> tuple[float | None, Usage, str]:
        """The score the LLM gives one operation (None: unreadable), its usage and its reply."""
        one = self.subject.one
        prompt = (
            f"Request: {request}\n"
            f"{one[0].upper() + one[1:]}: {_line(hit)}\n\n"
            f"Is this {one} needed to fulfil the request? Answer with a relevance score "
            'between 0 and 1 as JSON, for example {"score": 0.8}.'
        )
        response = self.llm.chat(
            [
                {"role": "system", "content": f"You judge whether {self.subject.many} fit a user's request."},
                {"role": "user", "content": prompt},
            ],
            max_tokens=self.max_tokens,
            temperature=0.0,
            **structured_output(self.llm, "relevance", SCORE_SCHEMA),
        )
        return parse_score(response.text), response.usage, response.text

    def filter(self, request: str, hits: Sequence[Any]) -> PolicyResult:
        """The hits scoring at least the threshold, in their order; unreadable replies keep theirs."""
        result = PolicyResult(hits=[], stop="filter")
        for hit in hits:
            score, usage, reply = self.judge(request, hit)
            result.usage = result.usage + usage
            result.calls += 1
            if score is None:
                result.parse_failures += 1
            keep = score is None or score >= self.threshold
            if keep:
                result.hits.append(hit)
            result.trace.append({"id": hit.id, "score": score, "kept": keep, "reply": reply[:200]})
        return result


class CoRAG:
    """Chain-of-retrieval: sub-query, retrieve, judge; repeated until enough or out of budget.

    Args:
        llm: writes the sub-queries and judges the results (two calls per round).
        search: ``search(query, k) -> hits``, best first.
        k: hits retrieved per sub-query.
        budget: the most rounds.
        max_tokens: the longest reply per call.
        subject: what the hits are (API operations unless told).
    """

    def __init__(
        self,
        llm: LLM,
        search: Callable[[str, int], Sequence[Any]],
        *,
        k: int = 5,
        budget: int = CORAG_BUDGET,
        max_tokens: int = 128,
        subject: Subject = OPERATIONS,
    ) -> None:
        if budget < 1:
            raise ValueError("CoRAG needs a budget of at least one round")
        self.llm = llm
        self.search = search
        self.k = k
        self.budget = budget
        self.max_tokens = max_tokens
        self.subject = subject

    def _ask(self, prompt: str, result: PolicyResult, name: str, schema: dict[str, Any]) -> str:
        response = self.llm.chat(
            [
                {"role": "system", "content": f"You find the {self.subject.many} a user's request needs."},
                {"role": "user", "content": prompt},
            ],
            max_tokens=self.max_tokens,
            temperature=0.0,
            **structured_output(self.llm, name, schema),
        )
        result.usage = result.usage + response.usage
        result.calls += 1
        return response.text

    def _sub_query(self, request: str, found: list[Any], asked: list[str], result: PolicyResult) -> str:
        have = "\n".join(_line(h) for h in found) or "nothing yet"
        prompt = (
            f"Request: {request}\n"
            f"{self.subject.short.capitalize()} found so far:\n{have}\n"
            f"Searches done: {json.dumps(asked)}\n\n"
            "Write one short search query for the part of the request not covered yet. "
            'Answer as JSON: {"query": "..."}'
        )
        reply = self._ask(prompt, result, "sub_query", QUERY_SCHEMA)
        obj = parse_json_object(reply)
        query = obj.get("query") if obj else None
        if not isinstance(query, str) or not query.strip():
            result.parse_failures += 1
            # The first round falls back to the request itself; later ones have nothing new to ask.
            query = request if not asked else ""
        result.trace.append({"call": "sub-query", "query": query, "reply": reply[:200]})
        return query.strip()

    def _judge(self, request: str, hits: Sequence[Any], result: PolicyResult) -> tuple[set[str] | None, bool]:
        short = self.subject.short
        listing = "\n".join(_line(h) for h in hits) or f"no {short}"
        prompt = (
            f"Request: {request}\n"
            f"Retrieved {short}:\n{listing}\n\n"
            f"Which of these {short} does the request need, and do the {short} found so far "
            "suffice to fulfil it? Answer as JSON: "
            f'{{"relevant": ["{self.subject.example}", ...], "enough": true or false}}'
        )
        reply = self._ask(prompt, result, "judgement", JUDGE_SCHEMA)
        obj = parse_json_object(reply)
        relevant: set[str] | None = None
        enough = False
        if obj is not None and isinstance(obj.get("relevant"), list):
            relevant = {e for e in (self.subject.normalize(str(x)) for x in obj["relevant"]) if e}
            enough = obj.get("enough") is True or str(obj.get("enough")).lower() == "true"
        else:
            result.parse_failures += 1  # keep the whole round rather than lose it
        result.trace.append(
            {"call": "judge", "relevant": sorted(relevant or []), "enough": enough, "reply": reply[:200]}
        )
        return relevant, enough

    def run(self, request: str) -> PolicyResult:
        """The operations judged relevant over all rounds, first-seen order."""
        result = PolicyResult(hits=[], stop="budget")
        seen: dict[str, Any] = {}  # every hit retrieved, first-seen order
        kept: set[str] = set()
        asked: list[str] = []
        for _ in range(self.budget):
            query = self._sub_query(request, [seen[i] for i in seen if i in kept], asked, result)
            if not query or query in asked:
                result.stop = "repeat"  # nothing new to look for
                break
            asked.append(query)
            hits = list(self.search(query, self.k))
            for hit in hits:
                seen.setdefault(hit.id, hit)
            relevant, enough = self._judge(request, hits, result)
            if relevant is None:
                kept |= {h.id for h in hits}
            else:  # an id the subject spells differently from its hits' (a table's case) still counts;
                # `relevant & seen` is not redundant: table names do not normalize idempotently
                kept |= relevant & seen.keys() | {i for i in seen if self.subject.normalize(i) in relevant}
            if enough:
                result.stop = "enough"
                break
        result.hits = [hit for op_id, hit in seen.items() if op_id in kept]
        return result
