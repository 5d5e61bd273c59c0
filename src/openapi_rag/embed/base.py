"""The `Embedder` base class every embedding model implements."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

from openapi_rag.errors import EmbedderError

__all__ = ["Embedder", "normalize_rows"]


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors.

    Subclasses set the class attributes (or assign them in ``__init__``) and implement one method,
    `_embed_batch`. The base class adds batching by length, order restoring and progress.

    Example::

        embedder = get_embedder("minilm")
        vectors = embedder.embed_many(["list playlists", "delete a card"])  # shape (2, 384)
    """

    model_id: str = ""  # a name `get_embedder` accepts, recorded in indexes and cache keys
    dimensions: int | None = None  # None until known (remote models learn it from the first reply)
    max_tokens: int = 512  # input longer than this is truncated (local) or refused (remote)
    batch_size: int = 32
    needs_key: bool = False
    key_env_var: str | None = None
    remote: bool = False  # sends texts over the network: an index naming it needs the user's consent

    @abstractmethod
    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        """Embed one batch: a float32 array of shape ``(len(texts), dimensions)``, rows L2-normalised."""

    @property
    def cache_key(self) -> str:
        """What identifies this embedder's vectors in a cache (model id plus options that change them)."""
        return self.model_id

    def embed(self, text: str) -> np.ndarray:
        """The vector of one text, shape ``(dimensions,)``."""
        return self._checked_batch([text])[0]

    def embed_many(
        self, texts: Iterable[str], *, show_progress: bool = False, batch_size: int | None = None
    ) -> np.ndarray:
        """Vectors of ``texts`` in their order, shape ``(len(texts), dimensions)``.

        Texts are embedded in batches of similar length (less padding), then put back in order.
        """
        texts = list(texts)
        out: np.ndarray | None = None
        with progress_bar(len(texts), show_progress) as advance:
            for indices, vectors in self.iter_batches(texts, batch_size=batch_size):
                if out is None:
                    out = np.empty((len(texts), vectors.shape[1]), dtype=np.float32)
                out[indices] = vectors
                advance(len(indices))
        if out is None:
            return np.empty((0, self.dimensions or 0), dtype=np.float32)
        return out

    def iter_batches(
        self, texts: Sequence[str], *, batch_size: int | None = None
    ) -> Iterator[tuple[list[int], np.ndarray]]:
        """Yield ``(indices into texts, vectors)`` batch by batch, longest texts first.

        Longest first so that the slowest, most memory-hungry batch comes at once, not at 99%.
        """
        size = batch_size or self.batch_size
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]), reverse=True)
        for start in range(0, len(order), size):
            indices = order[start : start + size]
            yield indices, self._checked_batch([texts[i] for i in indices])

    def _checked_batch(self, texts: list[str]) -> np.ndarray:
        vectors = np.asarray(self._embed_batch(texts), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts):
            raise EmbedderError(
                f"{self.model_id} returned {vectors.shape[0] if vectors.ndim else 0} vectors "
                f"for {len(texts)} texts"
            )
        if self.dimensions is not None and vectors.shape[1] != self.dimensions:
            raise EmbedderError(
                f"{self.model_id} returned vectors of {vectors.shape[1]} dimensions, "
                f"expected {self.dimensions}"
            )
        return vectors

    def close(self) -> None:  # noqa: B027 - optional hook, most embedders hold nothing to release
        """Release resources (network clients); the base class holds none."""

    def __enter__(self) -> Embedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.model_id} dims={self.dimensions}>"


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 norm, as float32 (all-zero rows stay zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


@contextmanager
def progress_bar(total: int, enabled: bool, desc: str = "embedding") -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)`` for a tqdm bar on stderr, or a no-op.

    ``OPENAPI_RAG_NO_PROGRESS`` turns bars off everywhere.
    """
    if not enabled or os.environ.get("OPENAPI_RAG_NO_PROGRESS"):
        yield lambda n: None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, unit="text", leave=False, **bar_shape()) as bar:
        yield bar.update


def bar_shape() -> dict[str, int]:
    """`ncols` and `nrows` for tqdm: the terminal's size, or 80 x 24 where it reports none.

    Terminals opened by `script`, `docker exec -t`, CI runners and some IDEs report a 0 x 0 size;
    tqdm then computes -1 rows and draws nothing at all, which is why no bar ever appeared there.
    shutil falls back on $COLUMNS/$LINES, then on the given default, for a size of 0.
    """
    import shutil

    size = shutil.get_terminal_size((80, 24))
    return {"ncols": size.columns, "nrows": size.lines}
