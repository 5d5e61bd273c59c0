"""An index's two models embed its new chunks together, on all the cores.

A build embeds every new text with the first model and with the second (the second list). Where
the second is a fine-tune of the first that kept its lowest layers (`minilm-users` beside the
default), one graph computes both (`embed/minilm_pair.py`): the shared layers run once, ~26% less
CPU, the same vectors bit for bit. The texts are shared out between worker threads, one per core,
each with a one-thread session of its own: a model run split across cores makes their threads wait
on each other at every layer, and on a busy machine for cores other processes hold (two models side
by side, one per half of the cores, measured on two shared cores: CPU 92-100 s -> 81-91 s, wall
x0.51-0.96; docs/discovery.md, session 16). Other pairs of local ONNX models still run side by side,
one per half of the cores. Thread counts never change a sum, so the vectors never depend on them.

The second model's vectors go to its embedding cache, where the second list reads them once the
store is written (`ViewVectors.of_embedder(..., cache=True)`); an interrupted run keeps every batch
either model finished.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np

from openapi_rag.embed import Embedder, EmbeddingCache
from openapi_rag.embed.base import progress_bar
from openapi_rag.embed.cache import _FLUSH_EVERY
from openapi_rag.embed.minilm import MiniLMEmbedder, available_cores
from openapi_rag.embed.minilm_pair import PairedMiniLM
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
    meanwhile where there are enough chunks and both are local ONNX models: as one graph where
    they share layers (`PairedMiniLM`), side by side on two cores or more otherwise.

    Args:
        cores: cores to share between the two (None: `available_cores()`).
    """
    cores = available_cores() if cores is None else cores
    pair = PairedMiniLM.of(model, second) if len(chunks) >= MIN_CHUNKS else None
    if pair is not None:
        cache_both(pair, [c.embed_text for c in chunks], workers=cores, show_progress=show_progress)
        return embed_chunks(model, chunks)  # every vector is in the cache now
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


def cache_both(
    pair: PairedMiniLM, texts: Sequence[str], *, workers: int, show_progress: bool = False
) -> None:
    """Put the vectors of `texts` of both models of `pair` in their embedding caches: texts that
    both lack through the pair, texts one lacks through that model alone. `workers` threads, each
    with a one-thread session, take the texts in turns from the longest down (even shares of work)."""
    first, second = pair.first, pair.second
    with EmbeddingCache(first.cache_key) as first_cache, EmbeddingCache(second.cache_key) as second_cache:
        lacking = [
            set(map(texts.__getitem__, cache.get_many(texts)[1])) for cache in (first_cache, second_cache)
        ]
        both = sorted(lacking[0] & lacking[1])
        jobs = [
            (pair, both, (first_cache, second_cache)),
            (first, sorted(lacking[0] - lacking[1]), (first_cache,)),
            (second, sorted(lacking[1] - lacking[0]), (second_cache,)),
        ]
        with progress_bar(len(lacking[0] | lacking[1]), show_progress) as advance:
            for embedder, todo, caches in jobs:
                if todo:
                    _embed_into(embedder, todo, caches, workers=workers, advance=advance)


def _embed_into(
    embedder: MiniLMEmbedder,
    texts: list[str],
    caches: tuple[EmbeddingCache, ...],
    *,
    workers: int,
    advance: Callable[[int], None],
) -> None:
    """Embed `texts` on `workers` one-thread sessions and store each model's columns in its cache."""
    # Dealt by characters, longest first: each share then sorts its texts by tokens itself.
    order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
    shares = [[texts[i] for i in order[w::workers]] for w in range(workers)]
    lock = threading.Lock()
    failed: list[BaseException] = []

    def run(share: list[str]) -> None:
        pending: list[str] = []
        rows: list[np.ndarray] = []

        def flush() -> None:
            if pending:
                stacked = np.vstack(rows)
                parts = PairedMiniLM.split(stacked) if len(caches) == 2 else (stacked,)
                for cache, part in zip(caches, parts, strict=True):
                    cache.put_many(pending, part)
                pending.clear()
                rows.clear()

        try:
            for indices, vectors in embedder.with_threads(1).iter_batches(share):
                pending.extend(share[j] for j in indices)
                rows.append(vectors)
                if len(pending) >= _FLUSH_EVERY:
                    flush()
                with lock:
                    advance(len(indices))
        except BaseException as exc:  # raised again in the caller's thread, below
            failed.append(exc)
        finally:
            flush()  # an interrupted run keeps what it embedded

    # Daemons: an interrupted build ends at once; the caches keep each batch already written.
    threads = [threading.Thread(target=run, args=(share,), daemon=True) for share in shares if share]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failed:
        raise failed[0]
