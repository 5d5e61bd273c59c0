"""Index-time expansion: the words an operation implies, from a learned sparse model (SPLADE).

Users and APIs name the same thing differently. SPLADE (`embed/splade.py`), trained on real user
queries against the passages that answered them, gives each vocabulary word a weight for a text,
including words the text does not contain but its queries use. For each operation it reads the
line `compact` embeds; the strongest implied words at or above `min_weight`, at most `limit`, whole
words of three letters or more that the operation's own text does not already say (in another
form, or as the start of a longer word: "ref" for "refund"), are written on a line that only BM25 reads
(`compact`'s `expansion`); the embedded line is left as it is. Nothing here names a word of any API
or task.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from openapi_rag.chunking.aliases import words_of
from openapi_rag.embed.splade import SpladeEncoder
from openapi_rag.search.tokenize import stem

CANDIDATES = 64
"""Strongest words kept per text before the settings choose: enough for any `limit` tried."""
FAMILY = 5
"""Letters a word shares with one the operation says to count as said: "removed" for "remove",
"charges" for "charge", "spot" for "spotify" (shorter words must be a whole prefix)."""
SLICE = 256
"""Texts whose full weights are held at once (32 MB)."""
MEMO_TEXTS = 100_000
"""Texts whose strongest words are remembered (about 15 MB); past it the memory starts again."""


@dataclass(frozen=True)
class ExpansionSettings:
    """At most `limit` implied words per operation, each weighing at least `min_weight`."""

    limit: int = 8
    min_weight: float = 1.0


@cache
def shared_encoder() -> SpladeEncoder:
    """One SPLADE session per process: strategy instances (ablation rows, updates) share it."""
    return SpladeEncoder()


class ExpansionWriter:
    """Writes each operation's implied words; remembers each text's strongest words, so writers with
    other settings over the same texts (ablation rows) run the model once."""

    def __init__(self, settings: ExpansionSettings | None = None, encoder: SpladeEncoder | None = None):
        self.settings = settings or ExpansionSettings()
        self.encoder = encoder or shared_encoder()

    def expansions(self, embedded: Sequence[str], said: Sequence[str]) -> list[list[str]]:
        """For each operation, given its embedded line and all its own text, the words to add."""
        limit, floor = self.settings.limit, self.settings.min_weight
        out = []
        for candidates, text in zip(_strongest(self.encoder, embedded), said, strict=True):
            own = set(words_of(text))
            picked: list[str] = []
            for word, weight in candidates:
                if len(picked) >= limit or weight < floor:
                    break
                if not word.isalpha() or len(word) < 3:
                    continue
                family = stem(word)[:FAMILY]
                if any(w.startswith(family) for w in own):
                    continue
                picked.append(word)
            out.append(picked)
        return out


_memo: dict[tuple[int, str], list[tuple[str, float]]] = {}
_memo_lock = threading.Lock()


def _strongest(encoder: SpladeEncoder, texts: Sequence[str]) -> list[list[tuple[str, float]]]:
    """Each text's `CANDIDATES` strongest words with their weights, strongest first."""
    key = id(encoder)
    with _memo_lock:
        if len(_memo) + len(texts) > MEMO_TEXTS:
            _memo.clear()
        found = {t: _memo[(key, t)] for t in texts if (key, t) in _memo}
    missing = sorted(set(texts) - found.keys())
    vocab = encoder.vocabulary if missing else []
    for start in range(0, len(missing), SLICE):  # a slice's weights are SLICE x 30522 floats
        part = missing[start : start + SLICE]
        weights = encoder.weights(part)
        top = np.argpartition(weights, -CANDIDATES, axis=1)[:, -CANDIDATES:]
        for text, row, cols in zip(part, weights, top, strict=True):
            ranked = sorted(((float(row[c]), vocab[c]) for c in cols if row[c] > 0), reverse=True)
            found[text] = [(word, weight) for weight, word in ranked]
        with _memo_lock:
            _memo.update(((key, t), found[t]) for t in part)
    return [found[t] for t in texts]
