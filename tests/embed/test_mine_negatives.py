"""scripts/mine_negatives.py: each training request's negative is what the embedder ranks best by
mistake, never its own operation, a twin of it, or an operation of an API held out of training."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _script():  # the script is no package module: load it from its file, beside its own imports
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location("mine_negatives", SCRIPTS / "mine_negatives.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(SCRIPTS))


MINE = _script()
OPENAI = "openai-api POST /moderations"
USAGE = "openai-api GET /organization/usage/moderations"
COMMENTS = "community-api GET /user-content/user.json"
TEXTS = {
    OPENAI: "OpenAI API – Moderations – POST /moderations: Classifies if text and/or image inputs are "
    "potentially harmful.",
    USAGE: "OpenAI API – Usage – GET /organization/usage/moderations: Get moderations usage details "
    "for the organization.",
    COMMENTS: "Community API – GET /user-content/user.json: Comments by User Parameters: userID.",
}


def _examples(query: str) -> list:
    return [
        MINE.Example(query, TEXTS[key], TEXTS[USAGE if key != USAGE else OPENAI], key, "user")
        for key in (OPENAI, USAGE, COMMENTS)
    ]


def _vectors(rows: list[list[float]]) -> np.ndarray:
    vectors = np.asarray(rows, dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_the_best_ranked_other_operation_becomes_the_negative_within_the_scope() -> None:
    examples = _examples("screen comments for hate")
    keys = sorted(TEXTS)  # comments, usage, moderations
    texts = [TEXTS[k] for k in keys]
    text_vectors = _vectors([[1, 0, 0], [0, 1, 0], [0, 0.2, 1]])
    queries = _vectors([[0.9, 0, 0.3]] * 3)  # closest to the comments, then the moderations
    anywhere, wrong = MINE.mined(
        examples, queries, keys, texts, text_vectors, held=set(), same=0.97, same_api=False
    )
    assert anywhere[0].negative == TEXTS[COMMENTS]  # the moderations request's worst confusion
    assert wrong == [True, True, False]  # both OpenAI requests rank the comments above their own
    same_api, _ = MINE.mined(examples, queries, keys, texts, text_vectors, held=set(), same=0.97)
    assert same_api[0].negative == TEXTS[USAGE]
    assert same_api[2] == examples[2]  # the comments' API has no other operation: its own negative stays


def test_twins_held_out_apis_and_their_requests_are_left_alone() -> None:
    twin = "openai-api-2 POST /moderations"
    held_op = "held-api POST /check"
    keys = [COMMENTS, held_op, OPENAI, twin, USAGE]
    texts = [TEXTS[COMMENTS], "Held API - POST /check", TEXTS[OPENAI], TEXTS[OPENAI] + " ", TEXTS[USAGE]]
    text_vectors = _vectors([[1, 0, 0], [0.1, 0, 1], [0, 0, 1], [0, 0.01, 1], [0, 1, 0.5]])
    examples = [
        MINE.Example("check text", TEXTS[OPENAI], TEXTS[COMMENTS], OPENAI, "user"),
        MINE.Example("check text", texts[1], TEXTS[COMMENTS], held_op, "user"),
    ]
    queries = _vectors([[0, 0, 1], [0, 0, 1]])
    out, mistakes = MINE.mined(
        examples, queries, keys, texts, text_vectors, held={"held-api"}, same=0.97, same_api=False
    )
    assert out[0].negative == TEXTS[USAGE]  # neither the twin (same METHOD /path) nor the held-out API's
    assert out[1] == examples[1] and mistakes == [False, False]  # a held-out request is scored as written


def test_mistakes_are_written_with_a_replay_of_the_rest_and_every_held_out_request() -> None:
    examples = [MINE.Example(f"q{i}", "p", "n", f"api{i % 3} GET /x{i}", "user") for i in range(12)]
    mistakes = [i < 2 for i in range(12)]  # q0 and q1 wrong (q0 of api0, held out)
    kept = MINE.mistakes_and_replay(examples, mistakes, {"api0"}, 2.0, MINE.random.Random(1))
    queries = [e.query for e in kept]
    assert "q1" in queries and len(queries) == 1 + 2 + 4  # q1, two of the right ones, api0's four
    assert {"q0", "q3", "q6", "q9"} <= set(queries)


def test_the_shipped_users_model_mines_the_confusion_a_same_api_negative_misses() -> None:
    from openapi_rag.embed import get_embedder

    embedder = get_embedder("minilm-users")  # the real model, on real operation texts
    examples = _examples("I want to screen user comments for hate or violence before posting.")
    keys = sorted(TEXTS)
    texts = [TEXTS[k] for k in keys]
    text_vectors = np.asarray(embedder.embed_many(texts), dtype=np.float32)
    queries = np.asarray(embedder.embed_many([e.query for e in examples]), dtype=np.float32)
    out, wrong = MINE.mined(
        examples, queries, keys, texts, text_vectors, held=set(), same=0.97, same_api=False
    )
    moderation = out[[e.operation for e in out].index(OPENAI)]
    assert moderation.negative == TEXTS[COMMENTS]
    assert wrong[[e.operation for e in out].index(OPENAI)]
