"""A whole OpenAPI document as the query: which existing services match it?

After "Extending service composition with vector databases": an agent that writes the description of
a service it needs first asks the catalog whether one exists. Both the query document and every
indexed service are reduced to what an operation *means* (the `fields` view: API title, method,
path, summary, description) and embedded; a service's score is the mean, over the query's
operations, of the best cosine similarity to one of the service's operations. Comparing raw JSON
chunks instead would make any two specs look alike (their structure dominates the vectors).
Services at or above the threshold are matches; when none is, the caller should fall back to
generating the service. Vectors go through the embedding cache, so only the first query pays for
the catalog side.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.chunking import get_strategy
from openapi_rag.model import Service
from openapi_rag.spec import load_service

DEFAULT_SPEC_THRESHOLD = 0.6


def _operation_vectors(index: Any, service: Service) -> tuple[list[str], np.ndarray]:
    from openapi_rag.index.index import embed_chunks

    chunks = [c for c in get_strategy("fields").chunk_service(service) if c.operations]
    ids = [c.operations[0] for c in chunks]
    return ids, embed_chunks(index.embedder, chunks)


def match_spec(
    index: Any, spec: str | Path, *, threshold: float = DEFAULT_SPEC_THRESHOLD, k: int = 10
) -> dict[str, Any]:
    """Rank the index's services against the description in `spec`."""
    wanted = load_service(spec, clean=list(index.manifest.clean))  # cleaned as the catalog was
    query_ids, query_vectors = _operation_vectors(index, wanted)
    matches = []
    for service_id in index.manifest_service_ids():
        op_ids, vectors = _operation_vectors(index, index.service(service_id))
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
