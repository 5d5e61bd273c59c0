"""createBenchmark's LLM steps: a domain's services, each service's endpoints, each service's document.

Every list must have exactly the asked length (the model is told what was wrong and asked again, a
bounded number of times), and every document is checked three ways before it is kept: valid OpenAPI
(openapi-spec-validator), exactly the listed endpoints, and an LLM judge's semantic check. A failed
check goes back to the model with the error (repair), a bounded number of times; past that the step
fails with a `GenerationFailed` that says what the model could not do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from openapi_rag.bench.generate import prompts
from openapi_rag.bench.generate.ask import ask_json
from openapi_rag.bench.generate.log import GenerationLog
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm import LLM, Message

_METHODS = {m.lower() for m in prompts.HTTP_VERBS}


class GenerationFailed(OpenAPIRagError):
    """The LLM could not produce a valid step within the retry and repair budget."""

    def __init__(self, step: str, where: str, reason: str) -> None:
        super().__init__(f"{where}: {step} failed: {reason}")
        self.step = step
        self.where = where
        self.reason = reason


@dataclass(frozen=True)
class Budget:
    """How often the model is asked again: wrong list lengths, failed documents."""

    retries: int = 3
    repairs: int = 3


def endpoint_id(verb: str, path: str) -> str:
    """The benchmark's endpoint id, ``VERB /path``, as SOCBench-D writes it."""
    path = "/" + path.strip().strip("/")
    return f"{verb.strip().upper()} {path}"


def _shape(path: str) -> str:
    # Parameter names do not make two endpoints different: /meters/{id} is /meters/{meterId}.
    return re.sub(r"\{[^}]*\}", "{}", path)


def create_services(
    llm: LLM, log: GenerationLog, domain: str, n_services: int, budget: Budget, seed: int
) -> list[dict[str, str]]:
    """t_s: exactly `n_services` distinct services (name, description) of `domain`."""
    messages = prompts.t_s(domain, n_services)

    def parse(obj: dict[str, Any]) -> list[dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for item in obj.get("services") or []:
            if isinstance(item, dict) and str(item.get("name") or "").strip():
                name = " ".join(str(item["name"]).split())
                out.setdefault(
                    name.lower(), {"name": name, "description": str(item.get("description") or "")}
                )
        return list(out.values())

    return _exact_list(
        llm,
        log,
        messages,
        prompts.SERVICES_SCHEMA,
        parse,
        n_services,
        "services",
        budget,
        seed,
        domain=domain,
    )


def create_endpoints(
    llm: LLM,
    log: GenerationLog,
    domain: str,
    service: dict[str, str],
    n_endpoints: int,
    taken: set[str],
    budget: Budget,
    seed: int,
) -> list[dict[str, str]]:
    """t_e: exactly `n_endpoints` distinct endpoints (verb, path, description) of one service.

    `taken` holds the endpoint ids of the domain's earlier services: a query's gold names endpoints
    by ``VERB /path`` alone, so two services of a domain may not share one.
    """
    messages = prompts.t_e(domain, service, n_endpoints)

    def parse(obj: dict[str, Any]) -> list[dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        for item in obj.get("endpoints") or []:
            if not isinstance(item, dict):
                continue
            verb, path = str(item.get("verb") or "").upper(), str(item.get("path") or "")
            if verb not in prompts.HTTP_VERBS or not path.strip():
                continue
            eid = endpoint_id(verb, path)
            key = _shape(eid)
            if key in {_shape(t) for t in taken}:
                continue  # another service of the domain has it
            out.setdefault(
                key,
                {
                    "id": eid,
                    "verb": verb,
                    "path": eid.split(" ", 1)[1],
                    "description": str(item.get("description") or ""),
                },
            )
        return list(out.values())

    return _exact_list(
        llm,
        log,
        messages,
        prompts.ENDPOINTS_SCHEMA,
        parse,
        n_endpoints,
        "endpoints",
        budget,
        seed,
        domain=domain,
        service=service["name"],
    )


def _exact_list(
    llm: LLM,
    log: GenerationLog,
    messages: list[Message],
    schema: dict[str, Any],
    parse: Any,
    wanted: int,
    kind: str,
    budget: Budget,
    seed: int,
    **context: Any,
) -> list[dict[str, str]]:
    step = "t_s" if kind == "services" else "t_e"
    messages = list(messages)
    got: list[dict[str, str]] = []
    for attempt in range(budget.retries + 1):
        obj, response = ask_json(
            llm,
            messages,
            schema,
            step=step,
            log=log,
            max_tokens=1024,
            seed=seed + attempt,
            attempt=attempt,
            **context,
        )
        got = parse(obj) if obj is not None else []
        if len(got) == wanted:
            return got
        if len(got) > wanted:
            return got[:wanted]  # a longer list holds an exact one: keep its first items
        log.event("retry", step=step, got=len(got), wanted=wanted, **context)
        messages += [response.to_message(), prompts.count_retry(kind, len(got), wanted)]
    where = "/".join(str(v) for v in context.values())
    raise GenerationFailed(
        step, where, f"gave {len(got)} distinct {kind} of {wanted} after {budget.retries} retries"
    )


def document_problems(document: Any, endpoints: list[dict[str, str]]) -> str | None:
    """Why `document` is not a valid OpenAPI description of exactly `endpoints`, or None."""
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation.exceptions import OpenAPIValidationError

    if not isinstance(document, dict):
        return "the reply is not a JSON object"
    remote = _non_local_ref(document)
    if remote:
        return f"$ref {remote!r} points outside the document; use only #/components/... references"
    try:
        validate(document)
    except OpenAPIValidationError as exc:
        return f"not valid OpenAPI: {str(exc).splitlines()[0]}"
    except Exception as exc:  # the validator raises assorted errors for odd documents
        return f"not valid OpenAPI: {type(exc).__name__}: {exc}"
    found = {
        _shape(endpoint_id(method, path))
        for path, item in (document.get("paths") or {}).items()
        if isinstance(item, dict)
        for method in item
        if method in _METHODS
    }
    wanted = {_shape(e["id"]) for e in endpoints}
    missing, extra = sorted(wanted - found), sorted(found - wanted)
    if missing or extra:
        return "endpoints differ from the list: " + "; ".join(
            part
            for part in (
                f"missing {', '.join(missing)}" if missing else "",
                f"not listed {', '.join(extra)}" if extra else "",
            )
            if part
        )
    return None


def _non_local_ref(node: Any) -> str | None:
    # The validator would follow a remote or file $ref; generated documents must be self-contained.
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                return ref
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def create_openapi(
    llm: LLM,
    log: GenerationLog,
    domain: str,
    service: dict[str, str],
    endpoints: list[dict[str, str]],
    budget: Budget,
    seed: int,
) -> dict[str, Any]:
    """t_o: the service's OpenAPI document, validated, endpoint-checked and judged, repaired if need be."""
    context = {"domain": domain, "service": service["name"]}
    ask = prompts.t_o(domain, service, endpoints)
    messages = ask
    problem = ""
    for attempt in range(budget.repairs + 1):
        document, response = ask_json(
            llm,
            messages,
            prompts.OPENAPI_SCHEMA,
            step="t_o",
            log=log,
            max_tokens=min(4096, 600 + 350 * len(endpoints)),
            seed=seed + attempt,
            attempt=attempt,
            **context,
        )
        problem = document_problems(document, endpoints) or ""
        if not problem and isinstance(document, dict):
            verdict, _ = ask_json(
                llm,
                prompts.t_judge(domain, service, document),
                prompts.JUDGE_SCHEMA,
                step="judge",
                log=log,
                attempt=attempt,
                **context,
            )
            if verdict is None:
                log.event("judge-unanswered", **context)  # the syntactic checks passed: keep it
                return document
            if verdict.get("ok") is True:
                return document
            problem = f"a reviewer found: {verdict.get('problems') or 'it does not describe the service'}"
        log.event("repair", step="t_o", attempt=attempt, problem=problem[:500], **context)
        # Only the latest reply goes back: a chain of failed drafts would outgrow a small model's context.
        messages = [*ask, prompts.shortened(response.to_message()), prompts.repair(problem)]
    raise GenerationFailed(
        "t_o",
        f"{domain}/{service['name']}",
        f"no acceptable document after {budget.repairs} repairs: {problem}",
    )
