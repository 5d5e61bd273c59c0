"""The shipped `minilm-users` model: loads from the package, embeds real text, ranks real operations."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from openapi_rag.chunking import get_strategy
from openapi_rag.embed import EmbedderError, get_embedder, list_embedders
from openapi_rag.embed.minilm import MiniLMEmbedder
from openapi_rag.embed.tuned import TunedMiniLMEmbedder, tuned_model_path
from openapi_rag.spec import load_service

CATALOG = Path(__file__).resolve().parents[2] / "src" / "openapi_rag" / "data" / "catalog"

# Spotify is a RestBench API: never in the training data. The requests are worded as users say
# them, not as the operations' summaries, and were written before either model was run on them.
SPOTIFY_REQUESTS = {
    "turn the music down a bit": "PUT /me/player/volume",
    "what song is on right now": "GET /me/player/currently-playing",
    "skip this song": "POST /me/player/next",
    "stop following this band": "DELETE /me/following",
    "rename my road trip mix": "PUT /playlists/{playlist_id}",
    "which speakers and phones can I play music on": "GET /me/player/devices",
    "songs I liked": "GET /me/tracks",
    "make a new mix for my workout": "POST /users/{user_id}/playlists",
    "bands similar to this one": "GET /artists/{id}/related-artists",
    "loop this track over and over": "PUT /me/player/repeat",
}

# The shipped model ranks 8 of the 10 first and none below 26th; the default ranks 6 first and
# "make a new mix for my workout" 36th (a mix is a playlist): both bounds fail for the default.
FIRST, WORST = 7, 30


@pytest.fixture(scope="module")
def tuned() -> TunedMiniLMEmbedder:
    embedder = get_embedder("minilm-users")
    assert isinstance(embedder, TunedMiniLMEmbedder)
    return embedder


def test_shipped_model_and_names(tuned):
    path = tuned_model_path()
    assert path.stat().st_size > 20_000_000  # the int8 transformer itself, not a pointer file
    card = json.loads((path.parent / "training.json").read_text("utf-8"))
    assert card["data"].startswith("realworld")  # trained on the realworld specs only
    assert card["int8_least_cosine_to_fp32"] > 0.99  # the export is the trained model
    assert "minilm-users" in list_embedders()
    assert get_embedder("minilm-users-int8").model_id == tuned.model_id == "all-MiniLM-L6-v2-users-onnx-int8"
    # Its own cache entries: another model's (or an older training's) vectors are never reused.
    assert tuned.cache_key.startswith(tuned.model_id + "-") and tuned.cache_key != get_embedder("minilm").cache_key


def test_bad_option_is_an_embedder_error():
    with pytest.raises(EmbedderError, match="minilm-users"):
        get_embedder("minilm-users", model_path="elsewhere.onnx")


def test_embeds_real_text_near_but_not_equal_to_the_default(tuned):
    texts = ["ban a user from my Discord server", "Stripe API – POST /v1/refunds: Create a refund", ""]
    vectors = tuned.embed_many(texts)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors[:2], axis=1), 1.0, rtol=1e-5)
    base = get_embedder("minilm").embed_many(texts[:2])
    agreement = (vectors[:2] * base).sum(axis=1)
    assert np.all(agreement > 0.5) and np.all(agreement < 0.999)  # fine-tuned, not replaced


def test_fused_graph_runs_the_shipped_weights(tuned):
    texts = ["which phone numbers can I buy in Canada", "GET /v1/AvailablePhoneNumbers/{CountryCode}"]
    plain = MiniLMEmbedder(model_path=tuned_model_path(), fused=False).embed_many(texts)
    fused = TunedMiniLMEmbedder(fused=True).embed_many(texts)
    assert np.all((plain * fused).sum(axis=1) > 0.9999)


def spotify_ranks(embedder) -> dict[str, int]:
    service = load_service(CATALOG / "spotify.json")
    chunks = get_strategy("compact").chunk_service(service)
    ids = [chunk.operations[0] for chunk in chunks]
    documents = embedder.embed_many([chunk.embed_text for chunk in chunks])
    ranks = {}
    for request, wanted in SPOTIFY_REQUESTS.items():
        order = np.argsort(-(documents @ embedder.embed(request)), kind="stable")
        ranks[request] = [ids[i] for i in order].index(wanted) + 1
    return ranks


def test_user_requests_find_their_operation_on_an_api_it_never_saw(tuned):
    ranks = spotify_ranks(tuned)
    assert sum(rank == 1 for rank in ranks.values()) >= FIRST, ranks
    assert max(ranks.values()) <= WORST, ranks  # of 40 operations


def test_index_built_with_it_records_it_and_searches_with_it(tmp_path):
    from click.testing import CliRunner

    from openapi_rag.cli import cli
    from openapi_rag.index import Index

    runner = CliRunner()
    built = runner.invoke(
        cli,
        ["index", str(CATALOG / "spotify.json"), "--index", str(tmp_path / "idx"), "--embedder", "minilm-users"],
    )
    assert built.exit_code == 0, built.output
    index = Index.open(tmp_path / "idx")
    assert index.manifest.embedder == "all-MiniLM-L6-v2-users-onnx-int8"
    hits = index.search("rename my road trip mix", k=3)
    assert hits[0].id == "PUT /playlists/{playlist_id}"
