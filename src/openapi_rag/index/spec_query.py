"""A whole OpenAPI document as the query: which existing services match it?

After "Extending service composition with vector databases": an agent that writes the description of
a service it needs first asks the catalog whether one exists. The query document is chunked and
embedded the way the index's operations were, and compared with the vectors the index already holds
(computed at index time), so the catalog side costs a matrix product, not an embedding of the whole
catalog (32 minutes on a 16,000-operation catalog before). A service's score is the mean, over the
query's operations, of the best cosine similarity to one of the service's operations. Both sides are
operation views (the `compact` line: API title, method, path, summary); comparing raw JSON chunks
would make any two specs look alike (their structure dominates the vectors). Services at or above
the threshold are matches; when none is, the caller should fall back to generating the service.

An index whose chunks are not one per operation, or are written by an LLM (`summary`, `query`,
`craft`), is compared in the `fields` view instead, embedded per query through the cache.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.chunking import get_strategy
from openapi_rag.model import Service
from openapi_rag.spec import load_service

DEFAULT_SPEC_THRESHOLD = 0.6
OPERATION_VIEWS = ("compact", "thin", "fields", "endpoint")
"""Strategies whose chunks are one deterministic text per operation: the stored vectors serve."""
_FALLBACK_VIEW = "fields"


def _stored_operations(index: Any) -> dict[str, tuple[list[str], np.ndarray]]:
    """Per service, its operations and their vectors as stored at index time."""
    by_service: dict[str, tuple[list[str], list[str]]] = {}
    for source in index.manifest.sources.values():
        op_ids, chunk_ids = by_service.setdefault(source.service, ([], []))
        for chunk_id in source.chunks:
            # chunk ids are "service:strategy:METHOD /path" for one-per-operation strategies
            op_id = chunk_id.rsplit(":", 1)[-1]
            if " /" in op_id and chunk_id in index.store:
                op_ids.append(op_id)
                chunk_ids.append(chunk_id)
    return {
        service: (op_ids, index.store.get_vectors(chunk_ids))
        for service, (op_ids, chunk_ids) in by_service.items()
        if chunk_ids
    }


def _embedded_operations(
    index: Any, service: Service, view: str, params: dict[str, Any]
) -> tuple[list[str], np.ndarray]:
    from openapi_rag.index.index import embed_chunks

    chunks = [c for c in get_strategy(view, **params).chunk_service(service) if len(c.operations) == 1]
    return [c.operations[0] for c in chunks], embed_chunks(index.embedder, chunks)


def match_spec(
    index: Any, spec: str | Path, *, threshold: float = DEFAULT_SPEC_THRESHOLD, k: int = 10
) -> dict[str, Any]:
    """Rank the index's services against the description in `spec`."""
    wanted = load_service(spec, clean=list(index.manifest.clean))  # cleaned as the catalog was
    stored = index.manifest.strategy in OPERATION_VIEWS
    view = index.manifest.strategy if stored else _FALLBACK_VIEW
    params = dict(index.manifest.strategy_params) if stored else {}
    params.pop("size", None), params.pop("overlap", None)
    query_ids, query_vectors = _embedded_operations(index, wanted, view, params)
    if stored:
        catalog = _stored_operations(index)
    else:
        catalog = {
            service_id: _embedded_operations(index, index.service(service_id), view, {})
            for service_id in index.manifest_service_ids()
        }
    matches = []
    for service_id, (op_ids, vectors) in catalog.items():
        if not len(op_ids) or not len(query_ids):
            continue
        sims = query_vectors @ vectors.T  # (query ops, service ops)
        best = sims.argmax(axis=1)
        scores = sims[np.arange(len(query_ids)), best]
        score = float(scores.mean())
        matches.append(
            {
                "service": service_id,
                "score": round(score, 4),
                "passes": score >= threshold,
                "query_operations": len(query_ids),
                "covered": int((scores >= threshold).sum()),
                "pairs": [
                    {"query": q, "operation": op_ids[int(b)], "score": round(float(s), 4)}
                    for q, b, s in zip(query_ids, best, scores, strict=True)
                ],
            }
        )
    matches.sort(key=lambda m: (-m["score"], m["service"]))
    return {
        "spec": str(spec),
        "title": wanted.title,
        "threshold": threshold,
        "matches": matches[:k],
        "found": any(m["passes"] for m in matches),
    }
