"""createQueries: tasks over a domain's endpoints, each checked for the endpoints it really needs.

For each query: draw |e_expected| ~ N(mean, sd) (at least 1) endpoints of the domain; the LLM writes a
task for them (t_q); asks which further endpoints the task needs (t_f); then, endpoint by endpoint,
whether it is necessary (t_n, Yes/No). When the necessary set differs from the expected one, a chat
turn names the extra and missing endpoints and the task is rewritten, a bounded number of times; a
task that still does not match, or whose embedding is too close to an earlier task of the domain, is
discarded and redrawn.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from openapi_rag.bench.generate import prompts
from openapi_rag.bench.generate.ask import ask_json
from openapi_rag.bench.generate.log import GenerationLog
from openapi_rag.embed import Embedder
from openapi_rag.llm import LLM


@dataclass(frozen=True)
class QuerySettings:
    """The query generator's knobs (defaults: the SOCBench-D paper's)."""

    size_mean: float = 5.0
    size_sd: float = 2.0
    rewrites: int = 2
    draws: int = 5  # draws per query before the step gives up on that query
    similarity: float = 0.8


@dataclass
class DrawnQuery:
    query: str
    endpoints: list[str]


def draw_size(rng: random.Random, settings: QuerySettings, available: int) -> int:
    """|e_expected|: a normal draw, rounded, clipped to 1..available."""
    return max(1, min(available, round(rng.gauss(settings.size_mean, settings.size_sd))))


def query_seed(seed: int, domain: str, index: int, draw: int) -> int:
    """A seed per (instance, domain, query, draw): redraws differ, a resumed run repeats them."""
    return random.Random(f"{seed}/{domain}/{index}/{draw}").randrange(2**31)


def necessary_endpoints(
    llm: LLM, log: GenerationLog, query: str, candidates: list[dict[str, str]], context: dict[str, Any]
) -> list[str]:
    """checkNecessary: the candidates the LLM says the query needs (Yes), in catalog order."""
    needed = []
    for endpoint in candidates:
        obj, response = ask_json(
            llm,
            prompts.t_n(query, endpoint),
            prompts.NECESSARY_SCHEMA,
            step="t_n",
            log=log,
            max_tokens=16,
            endpoint=endpoint["id"],
            **context,
        )
        answer = str((obj or {}).get("answer") or response.text).strip().lower()
        if answer.startswith("yes"):
            needed.append(endpoint["id"])
    return needed


def create_query(
    llm: LLM,
    log: GenerationLog,
    domain: str,
    catalog: list[dict[str, str]],
    expected: list[dict[str, str]],
    settings: QuerySettings,
    seed: int,
    context: dict[str, Any],
) -> DrawnQuery | None:
    """One query whose necessary endpoints are exactly `expected`, or None when the model could not."""
    by_id = {e["id"]: e for e in catalog}
    wanted = sorted(e["id"] for e in expected)
    messages = prompts.t_q(domain, expected)
    for rewrite in range(settings.rewrites + 1):
        obj, response = ask_json(
            llm, messages, prompts.QUERY_SCHEMA, step="t_q", log=log, seed=seed, rewrite=rewrite, **context
        )
        query = " ".join(str((obj or {}).get("query") or "").split())
        if not query:
            log.event("unparsed", step="t_q", **context)
            return None
        further, _ = ask_json(
            llm, prompts.t_f(query, catalog), prompts.FURTHER_SCHEMA, step="t_f", log=log, **context
        )
        named = [str(x).strip() for x in (further or {}).get("endpoints") or []]
        candidates = [by_id[i] for i in dict.fromkeys([*wanted, *named]) if i in by_id]
        needed = sorted(necessary_endpoints(llm, log, query, candidates, context))
        if needed == wanted:
            return DrawnQuery(query=query, endpoints=[e["id"] for e in expected])
        extra = sorted(set(needed) - set(wanted))
        missing = sorted(set(wanted) - set(needed))
        log.event("rewrite", extra=extra, missing=missing, **context)
        messages = [*messages, response.to_message(), prompts.rewrite_query(extra, missing)]
    return None


def too_similar(vector: np.ndarray, earlier: list[np.ndarray], threshold: float) -> float | None:
    """The highest cosine similarity to an earlier query when it reaches `threshold`, else None."""
    if not earlier:
        return None
    best = float(np.max(np.stack(earlier) @ vector))
    return best if best >= threshold else None


def create_queries(
    llm: LLM,
    log: GenerationLog,
    embedder: Embedder,
    domain: str,
    catalog: list[dict[str, str]],
    n_queries: int,
    settings: QuerySettings,
    seed: int,
    done: list[dict[str, Any]],
    save: Callable[[list[dict[str, Any]]], None],
) -> list[dict[str, Any]]:
    """`n_queries` accepted queries of the domain; `done` holds those of an earlier, interrupted run.

    `save` is called with the accepted list after every accepted query, so a resumed run starts at
    the next one.
    """
    accepted = list(done)
    # One at a time, as a fresh run embeds them: a padded batch could move a similarity across the
    # threshold, and a resumed run must make the same instance.
    vectors = [embedder.embed(q["query"]) for q in accepted]
    for index in range(len(accepted), n_queries):
        context = {"domain": domain, "query_no": index + 1}
        for draw in range(settings.draws):
            draw_seed = query_seed(seed, domain, index, draw)
            rng = random.Random(draw_seed)
            expected = rng.sample(catalog, draw_size(rng, settings, len(catalog)))
            drawn = create_query(
                llm, log, domain, catalog, expected, settings, draw_seed, {**context, "draw": draw}
            )
            if drawn is None:
                log.event("discard", reason="mismatch", draw=draw, **context)
                continue
            vector = embedder.embed(drawn.query)
            similarity = too_similar(vector, vectors, settings.similarity)
            if similarity is not None:
                log.event("discard", reason="similar", similarity=round(similarity, 3), draw=draw, **context)
                continue
            accepted.append({"query": drawn.query, "endpoints": drawn.endpoints})
            vectors.append(vector)
            save(accepted)
            break
        else:
            log.event("query-failed", draws=settings.draws, **context)
    return accepted
