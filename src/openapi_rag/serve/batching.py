"""Embed the queries of requests that arrive together in one run of the model.

A worker serves its requests one at a time on its event loop, and the embedder is most of a
search's CPU. Running the model once for several short queries costs far less than once for each
(all-MiniLM-L6-v2 on one core: 6.4 ms a query alone, 3.6 ms each in batches of 8 to 16, measured
with the `bench serve` tasks), and the vectors are bit-identical to those embedded alone
(`tests/serve/test_batching.py`), so results do not change.

How requests meet, without threads: a request's handler plans the texts its search will embed
(`Searcher.texts_to_embed`), queues them here and awaits. The first queued schedules one flush with
`call_soon`, which runs after every handler already ready in this turn of the loop: under load,
the requests read from the sockets in one turn all queue before it. The flush embeds all their
texts in one `embed_many` call and hands each request its own vectors; each search then runs as
before with its vectors prepared (`PreparedEmbeddings`). Nothing is kept after a flush: identical
texts from different requests are each embedded, so repeated queries cost what distinct ones do.
(An earlier try ran searches in threads to batch them: the GIL and the threads' hand-offs cost
more latency than the batching saved.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import numpy as np

from openapi_rag.serve.timing import CURRENT, RequestTiming, Stopwatch, add_search_time

Embed = Callable[[list[str]], np.ndarray]
Pending = tuple[Embed, list[str], "asyncio.Future[np.ndarray]", RequestTiming | None]


class PreparedEmbeddings:
    """A searcher's embed function that answers from vectors prepared for the search now running.

    Texts that were not prepared (another caller, or a plan that differs) go to the wrapped
    function, so a search is never wrong for want of a prepared vector, only slower. A search in
    another thread that finds a text prepared gets the vector the model gives that text anyway.
    """

    def __init__(self, embed: Embed):
        self.embed = embed
        self.ready: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        ready = self.ready
        if texts and all(text in ready for text in texts):
            return np.stack([ready[text] for text in texts])
        return self.embed(texts)


class BothModels:
    """The first model's embed function for a batch of requests' texts, where the index's second
    list reads some of them too (`Searcher.second_texts`): such a batch runs once through both
    models (`Index._embed_both`, `embed/minilm_pair.py`), and the second list keeps its vectors of
    the texts it reads (`ViewVectors.remember`), which its search would otherwise embed one request
    at a time. A request marks its texts in `wanted` before it queues them; the flush, on the same
    event loop, takes them. The vectors are each model's own, bit for bit.
    """

    def __init__(
        self,
        embed: Embed,
        both: Callable[[list[str]], tuple[np.ndarray, np.ndarray] | None],
        keep: Callable[[list[str], list[np.ndarray]], None],
    ):
        self.embed = embed
        self.both = both
        self.keep = keep
        self.wanted: set[str] = set()

    def __call__(self, texts: list[str]) -> np.ndarray:
        wanted = self.wanted.intersection(texts)
        if wanted:
            self.wanted -= wanted
            both = self.both(texts)
            if both is not None:
                first, second = both
                kept = [(t, v) for t, v in zip(texts, second, strict=True) if t in wanted]
                self.keep([t for t, _ in kept], [v for _, v in kept])
                return np.asarray(first)
        return self.embed(texts)


class EmbedBatcher:
    """Collects the texts of the requests queued in one turn of the event loop; embeds them at once.

    `on_batch(texts)` is told each batch's size (the server's metrics count them).
    """

    def __init__(self, on_batch: Callable[[int], None] | None = None) -> None:
        self._pending: list[Pending] = []
        self.on_batch = on_batch

    async def embed(self, embed: Embed, texts: Sequence[str]) -> np.ndarray:
        """The vectors of `texts` (rows in order), embedded with whatever else is queued now."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[np.ndarray] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._flush)
        # The request's timing record, taken here: the flush runs in the first request's context.
        self._pending.append((embed, list(texts), future, CURRENT.get()))
        return await future

    def _flush(self) -> None:
        pending, self._pending = self._pending, []
        # Requests may straddle an index reload; each batch uses one embed function.
        groups: dict[int, list[Pending]] = {}
        for item in pending:
            groups.setdefault(id(item[0]), []).append(item)
        for group in groups.values():
            texts = [text for _, item_texts, _, _ in group for text in item_texts]
            clock = Stopwatch()
            try:
                vectors = np.asarray(group[0][0](texts))
            except Exception as exc:  # every waiting request fails as its own search would
                for _, _, future, _ in group:
                    if not future.done():
                        future.set_exception(exc)
                continue
            elapsed = clock.elapsed()
            if self.on_batch is not None:
                self.on_batch(len(texts))
            # Each request of the batch counts the whole run once as its search time (it waited
            # for all of it), however many of its queries were in it (a POST batch).
            for timing in {id(item[3]): item[3] for item in group if item[3] is not None}.values():
                add_search_time(elapsed, timing)
            row = 0
            for _, item_texts, future, _ in group:
                if not future.done():  # a request cancelled (client gone) while it waited
                    future.set_result(vectors[row : row + len(item_texts)])
                row += len(item_texts)
