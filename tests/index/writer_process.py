"""Run the `openapi-rag` CLI in a child process with a deterministic, optionally slow, embedder.

Tests that need a second process (two writers racing, a terminal for progress bars) start this file
with `sys.executable`; the word-hash embedder of `conftest.py` is registered only in the test
process, so it is registered here again under the name `slow-hash`, sleeping
`OPENAPI_RAG_TEST_EMBED_DELAY` seconds per batch so that a writer stays inside its lock long enough
to be raced. With `OPENAPI_RAG_TEST_EMBED_GATE=PATH` it also waits (up to two minutes) until PATH
exists: a test that must race a writer holds it inside its lock for as long as the race takes,
however slowly the other process starts on a loaded machine.

    python tests/index/writer_process.py index specs/ --index idx/ --embedder slow-hash
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
import time

import numpy as np

from openapi_rag.embed import Embedder, normalize_rows, register_embedder

GATE_TIMEOUT_S = 120  # a bound: a writer whose gate never opens goes on rather than hang (the tests wait 60 s)


class SlowHashEmbedder(Embedder):
    model_id = "slow-hash"
    dimensions = 32
    max_tokens = 10_000
    batch_size = 8

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        time.sleep(float(os.environ.get("OPENAPI_RAG_TEST_EMBED_DELAY", "0")))
        gate = os.environ.get("OPENAPI_RAG_TEST_EMBED_GATE")
        deadline = time.monotonic() + GATE_TIMEOUT_S
        while gate and not os.path.exists(gate) and time.monotonic() < deadline:
            time.sleep(0.05)
        rows = np.zeros((len(texts), 32), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                rows[i, hashlib.sha256(word.encode()).digest()[0] % 32] += 1.0
        rows[~rows.any(axis=1)] = 1.0
        return normalize_rows(rows)


def main() -> None:
    register_embedder("slow-hash", lambda **_: SlowHashEmbedder())
    from openapi_rag.cli import cli

    cli(sys.argv[1:], prog_name="openapi-rag")


if __name__ == "__main__":
    main()
