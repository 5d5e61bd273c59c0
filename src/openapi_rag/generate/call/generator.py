"""`generate_call`: from a request to a call, over an index.

The operation comes from the index's own search (`Index.search`, which already weighs the request's
verbs); the candidates it returns are then re-ranked by how well the request fills them: an
operation whose path needs an identifier the request never states ("GET /playlists/{id}/tracks" for
"my playlists") loses ground to one it fills completely, and the request's leading verb adds a
little evidence for its method ("remove", "cancel", "update" are evidence, not rules: some APIs
cancel with a POST). A request whose best match is not similar enough gets no operation at all.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from openapi_rag.generate.call.assign import Assignment, assign_values, placeholder
from openapi_rag.generate.call.fields import Field, operation_fields
from openapi_rag.generate.call.result import GeneratedCall, build_parts, render_endpoint
from openapi_rag.generate.call.values import Value, extract_values, words
from openapi_rag.model import Operation, Service

__all__ = [
    "GENERATORS",
    "POLICIES",
    "CallSettings",
    "Candidate",
    "Plan",
    "call_of",
    "generate_call",
    "plan_call",
    "rank_candidates",
]

GENERATORS = ("offline", "llm")
POLICIES = ("rag", "self-rag", "corag")

# The request's first action verb, as evidence for a method (never a filter).
VERB_METHODS: dict[str, tuple[str, ...]] = {
    "POST": ("add", "create", "post", "submit", "send", "register", "book", "place", "open", "start",
             "upload", "schedule", "make", "log", "record", "transfer", "deposit", "pay", "initiate",
             "request", "generate", "assess", "calculate", "analyze", "analyse", "follow", "save", "apply",
             "rate", "review", "report", "enroll"),
    "PUT": ("update", "change", "modify", "set", "replace", "edit", "rename", "adjust", "reorder"),
    "PATCH": ("update", "change", "modify", "set", "edit", "adjust"),
    "DELETE": ("delete", "remove", "cancel", "unfollow", "unsave", "deactivate", "revoke", "drop", "erase",
               "terminate", "close"),
    "GET": ("get", "list", "show", "find", "fetch", "retrieve", "search", "look", "check", "view", "what",
            "which", "display", "see", "lookup", "download", "tell", "give", "who", "how"),
}  # fmt: skip


@dataclass(frozen=True)
class CallSettings:
    """What `generate_call` may be tuned by (data, not module globals).

    Attributes:
        k: operations retrieved and considered.
        min_similarity: the best operation's cosine similarity below which, with no lexical match
            either, the request matches nothing (`"operation": null`).
        path_miss: rank penalty per path parameter the request does not fill.
        required_miss: rank penalty per other required field the request does not fill.
        fill_bonus: rank bonus per field filled from the request.
        verb_bonus: rank bonus when the operation's method is the request's verb's.
    """

    k: int = 10
    min_similarity: float = 0.2
    path_miss: float = 0.25
    required_miss: float = 0.04
    fill_bonus: float = 0.06
    verb_bonus: float = 0.08


DEFAULT_SETTINGS = CallSettings()
MAX_REQUEST_CHARS = 4000


@dataclass
class Candidate:
    """One operation considered for the call, with the assignment the request gives it."""

    service: Service
    operation: Operation
    search_score: float
    rank_score: float = 0.0
    fields: list[Field] = field(default_factory=list)
    media_type: str | None = None
    assignments: list[Assignment] = field(default_factory=list)

    @property
    def ref(self) -> dict[str, str]:
        return {"service": self.service.id, "method": self.operation.method, "path": self.operation.path}


# Services rebuilt from the index's stored descriptions, once per index object.
_SERVICES: weakref.WeakKeyDictionary[Any, dict[str, Service]] = weakref.WeakKeyDictionary()


def index_service(index: Any, service_id: str) -> Service:
    cache = _SERVICES.setdefault(index, {})
    if service_id not in cache:
        cache[service_id] = index.service(service_id)
    return cache[service_id]


def request_verbs(request: str) -> set[str]:
    """Methods the request's first action verb points to (empty when it names none)."""
    for token in words(request)[:6]:
        methods = {m for m, verbs in VERB_METHODS.items() if token in verbs}
        if methods:
            return methods
    return set()


def fill(candidate: Candidate, values: list[Value], request: str) -> None:
    fields, media = operation_fields(candidate.operation, candidate.service)
    candidate.fields, candidate.media_type = fields, media
    candidate.assignments = assign_values(fields, values, request)


def _fit(candidate: Candidate, settings: CallSettings) -> float:
    filled = {(a.field.location, a.field.name) for a in candidate.assignments}
    score = settings.fill_bonus * min(len(filled), 4)
    for f in candidate.fields:
        if (f.location, f.name) in filled:
            continue
        if f.location == "path":
            score -= settings.path_miss
        elif f.required:
            score -= settings.required_miss
    return score


def rank_candidates(
    request: str, hits: list[Any], index: Any, settings: CallSettings = DEFAULT_SETTINGS
) -> list[Candidate]:
    """The hits as candidates, filled from the request and re-ranked by how well they fill."""
    # A request is a sentence or a paragraph; reading values from more would only slow a hostile one down.
    values = extract_values(request[:MAX_REQUEST_CHARS])
    verbs = request_verbs(request)
    out = []
    for hit in hits:
        service = index_service(index, hit.service)
        op = service.operation(hit.id)
        if op is None:
            continue
        cand = Candidate(
            service,
            op,
            float(hit.score),
        )
        fill(cand, values, request)
        cand.rank_score = cand.search_score + _fit(cand, settings)
        if op.method in verbs:
            cand.rank_score += settings.verb_bonus
        out.append(cand)
    out.sort(key=lambda c: (-c.rank_score, c.service.id, c.operation.id))
    return out


def complete(candidate: Candidate) -> tuple[list[Assignment], list[str]]:
    """The candidate's assignments with every required field present, and the problems that left."""
    problems = []
    filled = {(a.field.location, a.field.name) for a in candidate.assignments}
    out = list(candidate.assignments)
    for f in candidate.fields:
        if f.required and (f.location, f.name) not in filled:
            value = placeholder(f)
            out.append(Assignment(f, value, placeholder=True))
            where = "path parameter" if f.location == "path" else f"{f.location} field"
            problems.append(f"{where} {f.name!r} is required but the request does not say it; used {value!r}")
    return out, problems


def call_from(candidate: Candidate, assignments: list[Assignment], problems: list[str]) -> GeneratedCall:
    """The call that `assignments` make for `candidate`'s operation."""
    path_values, query, headers, body = build_parts(assignments)
    body_fields = [f for f in candidate.fields if f.location == "body"]
    if body is None and body_fields and any(f.required for f in body_fields):
        body = {}
    path, endpoint = render_endpoint(candidate.operation.path, path_values, query)
    if re.search(r"\{[^}]+\}", path):
        problems = [*problems, f"path {path!r} still holds a template"]
    return GeneratedCall(
        operation=candidate.ref,
        method=candidate.operation.method,
        endpoint=endpoint,
        path=path,
        query=query,
        headers=headers,
        body=body,
        media_type=candidate.media_type if body is not None else None,
        problems=problems,
    )


def retrieve(request: str, index: Any, policy: str, llm: Any, k: int) -> tuple[list[Any], dict[str, int]]:
    """The hits of the chosen retrieval policy and the LLM tokens it spent."""
    if policy == "rag":
        return list(index.search(request, k=k)), {"prompt": 0, "completion": 0}
    from openapi_rag.agents.policy_index import PolicyIndex

    wrapped = PolicyIndex(index, policy, llm if llm is not None else default_llm())
    hits = list(wrapped.search(request, k=k))
    # A policy that judged everything away leaves the plain search: an empty call helps no one.
    if not hits:
        hits = list(index.search(request, k=k))
    usage = wrapped.usage
    return hits, {"prompt": usage.prompt_tokens, "completion": usage.completion_tokens}


def default_llm() -> Any:
    """The configured LLM (`OPENAPI_RAG_LLM`; the local SmolLM2 by default), replies cached on disk."""
    from openapi_rag.llm import get_llm

    return get_llm(None, cache=True)


def no_match(hits: list[Any], settings: CallSettings) -> str | None:
    """Why nothing matches well enough, or None when the best hit does."""
    if not hits:
        return "the index returned no operation for this request"
    best = hits[0]
    dense = getattr(best, "dense_score", None)
    lexical = getattr(best, "bm25_score", None)
    if dense is not None and dense < settings.min_similarity and not lexical:
        return (
            f"no operation is similar enough (best: {best.service} {best.id}, similarity {dense:.2f} "
            f"< {settings.min_similarity}, and no word of the request matches it)"
        )
    return None


@dataclass
class Plan:
    """Retrieval's outcome for one request: ranked candidates (or why there are none) and LLM tokens."""

    request: str
    candidates: list[Candidate]
    reason: str | None = None
    tokens: dict[str, int] = field(default_factory=lambda: {"prompt": 0, "completion": 0})


def plan_call(
    request: str, index: Any, *, policy: str = "rag", llm: Any = None, settings: CallSettings | None = None
) -> Plan:
    """The operations a call for `request` could use, best first (empty, with a reason, when none fits)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose from {', '.join(POLICIES)}")
    settings = settings or DEFAULT_SETTINGS
    hits, tokens = retrieve(request, index, policy, llm, settings.k)
    reason = no_match(hits, settings)
    if reason is not None:
        return Plan(request, [], reason, tokens)
    candidates = rank_candidates(request, hits, index, settings)
    if not candidates:
        return Plan(request, [], "the operations found are not in the index's services", tokens)
    return Plan(request, candidates, None, tokens)


def call_of(plan: Plan, choice: int = 0, *, generator: str = "offline", llm: Any = None,
            feedback: str | None = None) -> GeneratedCall:  # fmt: skip
    """The call for the plan's `choice`-th candidate, the others listed as candidates."""
    if not plan.candidates:
        call = GeneratedCall(operation=None, reason=plan.reason)
    else:
        call = call_for(
            plan.request, plan.candidates[choice], generator=generator, llm=llm, feedback=feedback
        )
        call.candidates = [
            {**c.ref, "score": round(c.rank_score, 4)} for i, c in enumerate(plan.candidates) if i != choice
        ]
    call.add_tokens(plan.tokens["prompt"], plan.tokens["completion"])
    return call


def generate_call(
    request: str,
    index: Any,
    *,
    generator: str = "offline",
    policy: str = "rag",
    llm: Any = None,
    settings: CallSettings | None = None,
) -> GeneratedCall:
    """The API call that does what `request` asks, over the operations of `index`.

    Args:
        request: what the caller wants, in natural language.
        index: an `openapi_rag.index.Index` (or anything with `search`, `service`).
        generator: "offline" (values assigned by rules, no LLM) or "llm" (the LLM writes the
            call as JSON constrained by a schema built from the operation).
        policy: "rag" (plain search), "self-rag" or "corag" (LLM-judged retrieval).
        llm: the LLM for the llm generator and the policies (the configured one when None).
        settings: tuning (`CallSettings`); the tuned defaults when None.

    Returns:
        The call; `operation` is None (with `reason`) when nothing matches well enough.
    """
    llm = llm_for(generator, policy, llm)
    plan = plan_call(request, index, policy=policy, llm=llm, settings=settings)
    return call_of(plan, generator=generator, llm=llm)


def llm_for(generator: str, policy: str, llm: Any) -> Any:
    """The LLM a generator and policy need: `llm`, else the configured one when either needs one.

    Raises:
        ValueError: an unknown generator.
    """
    if generator not in GENERATORS:
        raise ValueError(f"unknown generator {generator!r}; choose from {', '.join(GENERATORS)}")
    if llm is None and (generator == "llm" or policy != "rag"):
        return default_llm()
    return llm


def call_for(request: str, candidate: Candidate, *, generator: str = "offline", llm: Any = None,
             feedback: str | None = None) -> GeneratedCall:  # fmt: skip
    """The call for one chosen candidate, by either generator (`feedback`: a server's last refusal)."""
    if generator == "llm":
        from openapi_rag.generate.call.llm_writer import llm_call

        return llm_call(request, candidate, llm, feedback=feedback)
    assignments, problems = complete(candidate)
    return call_from(candidate, assignments, problems)
