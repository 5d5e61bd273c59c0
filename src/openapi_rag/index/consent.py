"""A manifest never decides by itself to send data to a remote service.

An index records the embedder it was built with, and `search` and `index` updates reuse it. When that
embedder sends texts over the network (`Embedder.remote`), an index copied from someone else, or
edited, would make this machine send the user's queries and specs to a host the user never chose.
So a remote embedder named by a manifest is used only when the user also names it for this run:
`--embedder NAME`, or `OPENAPI_RAG_EMBEDDER=NAME` in the environment. LLMs need no such check: they
are always the user's choice (`--llm`, `OPENAPI_RAG_LLM`), and an update whose LLM differs from the
manifest's is refused as a settings mismatch (`manifest.check_settings`).
"""

from __future__ import annotations

import os
from pathlib import Path

from openapi_rag.embed import Embedder, get_embedder
from openapi_rag.errors import NeedsKey, RemoteNotConfigured

EMBEDDER_ENV = "OPENAPI_RAG_EMBEDDER"


def user_embedder() -> str | None:
    """The embedder the user configured through the environment, if any."""
    return os.environ.get(EMBEDDER_ENV) or None


def embedder_from_manifest(name: str, *, where: str | Path | None = None) -> Embedder:
    """The embedder `name` read from a manifest, refused when it is remote and not configured.

    Raises:
        RemoteNotConfigured: `name` sends texts to a remote service and the user did not name it.
    """
    configured = user_embedder() == name
    index = f"{where} was" if where is not None else "This index was"
    refusal = RemoteNotConfigured(
        f"{index} built with the remote embedder {name!r}, which would receive your texts: "
        f"pass --embedder {name} (or set {EMBEDDER_ENV}={name}) to allow it"
    )
    try:
        model = get_embedder(name)
    except NeedsKey:
        if configured:
            raise
        raise refusal from None  # only remote embedders need keys
    if getattr(model, "remote", False) and not configured:
        model.close()
        raise refusal
    return model
