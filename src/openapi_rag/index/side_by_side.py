"""An index's two models embed its new chunks at the same time, on half the cores each.

A build embeds every new text with the first model, then with the second (the second list). Each
model run splits one product across all cores, whose threads then wait on each other at every
layer; on a busy machine they wait for cores other processes hold. Two runs side by side, one per
half of the cores, keep every core busy with fewer waits. Measured on two shared cores (1,200
realworld texts, five alternating pairs): CPU 92-100 s -> 81-91 s, wall x0.51-0.96 (docs/discovery.md,
session 16). The vectors are the same bit for bit: the thread count never changes a sum.

The second model's vectors go to its embedding cache, where the second list reads them once the
store is written (`ViewVectors.of_embedder(..., cache=True)`); an interrupted run keeps every batch
either model finished.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from openapi_rag.embed import Embedder
from openapi_rag.embed.minilm import MiniLMEmbedder, available_cores
from openapi_rag.index.index import embed_chunks
from openapi_rag.model import Chunk

MIN_CHUNKS = 64
"""Fewer new chunks than this are embedded one model after the other: a second session's start
(~0.4 s) would cost more than the overlap saves."""


def embed_new_chunks(
    model: Embedder,
    second: Embedder | None,
    chunks: Sequence[Chunk],
    *,
    show_progress: bool = False,
    cores: int | None = None,
) -> np.ndarray:
    """The first model's vectors of `chunks` (through its cache); the second model's are cached
    meanwhile where both are local ONNX models, there are two cores or more and enough chunks.

    Args:
        cores: cores to share between the two (None: `available_cores()`).
    """
    cores = available_cores() if cores is None else cores
    if not (
        isinstance(model, MiniLMEmbedder)
        and isinstance(second, MiniLMEmbedder)
        and cores >= 2
        and len(chunks) >= MIN_CHUNKS
    ):
        return embed_chunks(model, chunks, show_progress=show_progress)
    first_half, second_half = model.with_threads(cores - cores // 2), second.with_threads(cores // 2)
    failed: list[BaseException] = []

    def cache_second() -> None:
        try:
            embed_chunks(second_half, chunks)
        except BaseException as exc:  # raised again in the caller's thread, below
            failed.append(exc)

    # A daemon: an interrupted build ends at once; the cache keeps each batch already written.
    worker = threading.Thread(target=cache_second, name="second-model", daemon=True)
    worker.start()
    vectors = embed_chunks(first_half, chunks, show_progress=show_progress)
    worker.join()
    if failed:
        raise failed[0]
    return vectors
