"""Replace each training example's same-API negative with the operation a model ranks highest by mistake.

`finetune_embedder.py --hard-negatives` pairs each request with an operation of the same API sharing the
longest path prefix. The mistakes the shipped `minilm-users` still makes are mostly elsewhere: "I want
to screen user comments for hate or violence before posting" (OpenAI's `POST /moderations`) scores .61
against another API's "Comments by User" and .37 against its own operation, a confusion no same-API
negative teaches. This script ranks every operation text of the examples for each request with a
project embedder and takes the best-ranked one that is not the request's own operation (ANCE's
negatives, Xiong et al. 2021), so that a later training run learns from them. It trains nothing:
training runs where an accelerator is lent (`finetune_sweep.py --examples OUT`).

By default the candidates are the operations of the request's own API (`--scope api`: "restrict who can
make public boards" gets Trello's `.../boardVisibilityRestrict/private`, "continue a paused fine-tuning"
the pause). `--scope catalog` takes every API's, which teaches cross-API confusions like the one above
but also marks equally right operations of other providers wrong ("delete an environment variable" for
Twilio Serverless gets Netlify's env var delete): a recipe for the sweep to judge, not a default.

Left out as negatives: the operation itself and its twins (any operation with the same `METHOD /path`,
the same API loaded from another file or version), texts nearly identical to the positive (cosine
>= `--same`: a twin under another path spelling), and every operation of the APIs held out of training
(`minilm_training.split_held_out`), so that their score stays one on operations training never saw.

    python scripts/finetune_embedder.py --per-op 3 --hard-negatives --write-examples examples.jsonl
    python scripts/mine_negatives.py --examples examples.jsonl --out mined.jsonl [--embedder minilm-users]
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

import numpy as np
from minilm_training import Example, read_examples, split_held_out, write_examples

from openapi_rag.embed import EmbeddingCache, embed_with_cache, get_embedder


def operation_texts(examples: list[Example]) -> dict[str, str]:
    """Each operation's text (its positive), by operation key (service id + `METHOD /path`)."""
    return {e.operation: e.positive for e in examples}


def mined(
    examples: list[Example],
    query_vectors: np.ndarray,
    keys: list[str],
    texts: list[str],
    text_vectors: np.ndarray,
    *,
    held: set[str],
    same: float,
    same_api: bool = True,
) -> tuple[list[Example], list[bool]]:
    """The examples with their mined negatives (`keys[i]`'s text is `texts[i]`, its vector
    `text_vectors[i]`), and for each whether its mined negative ranks above its positive: the
    embedder's mistakes on its own training data. With `same_api`, only operations of the example's
    own API are candidates. An example of a held-out API, or left with no candidate, is kept as it
    is (the held-out score then reads the same texts whichever negatives training had)."""
    row = {key: i for i, key in enumerate(keys)}
    apis = np.array([key.split(" ")[0] for key in keys])
    _, path_ids = np.unique([key.split(" ", 1)[1] for key in keys], return_inverse=True)
    usable = ~np.isin(apis, sorted(held))
    out, mistakes = [], []
    candidates_of: dict[int, np.ndarray] = {}  # an operation's candidates, for each of its requests
    for query_vector, example in zip(query_vectors, examples, strict=True):
        own = row[example.operation]
        if own not in candidates_of:
            allowed = usable & (path_ids != path_ids[own]) & (text_vectors @ text_vectors[own] < same)
            if same_api:
                allowed &= apis == apis[own]
            candidates_of[own] = np.flatnonzero(allowed)
        candidates = candidates_of[own]
        if not usable[own] or not len(candidates):
            out.append(example)
            mistakes.append(False)
            continue
        scores = text_vectors[candidates] @ query_vector
        best = int(candidates[int(np.argmax(scores))])
        mistakes.append(bool(scores.max() > text_vectors[own] @ query_vector))
        out.append(dataclasses.replace(example, negative=texts[best]))
    return out, mistakes


def mistakes_and_replay(
    examples: list[Example], mistakes: list[bool], held: set[str], replay: float, rng: random.Random
) -> list[Example]:
    """The examples the embedder gets wrong, `replay` times as many of the others (so that training
    on its mistakes does not unlearn the rest), and every held-out API's example (the score's)."""
    is_held = [e.operation.split(" ")[0] in held for e in examples]
    wrong = [e for e, m, h in zip(examples, mistakes, is_held, strict=True) if m and not h]
    right = [e for e, m, h in zip(examples, mistakes, is_held, strict=True) if not m and not h]
    kept = rng.sample(right, min(len(right), round(replay * len(wrong))))
    return wrong + kept + [e for e, h in zip(examples, is_held, strict=True) if h]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--examples", type=Path, required=True, help="written by finetune_embedder.py --write-examples"
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--embedder", default="minilm-users", help="the project embedder that ranks")
    parser.add_argument(
        "--scope",
        choices=("api", "catalog"),
        default="api",
        help="where negatives are mined: the example's own API (default), or every API, whose best "
        "match is often an equally right operation of another provider (a false negative)",
    )
    parser.add_argument(
        "--replay",
        type=float,
        help="write only the examples the embedder gets wrong, this many times as many others, and the "
        "held-out APIs' (default: every example)",
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--same", type=float, default=0.97, help="cosine to the positive that counts as a twin"
    )
    args = parser.parse_args()
    examples = read_examples(args.examples)
    _, _, held = split_held_out(examples)
    texts = operation_texts(examples)
    keys = sorted(texts)
    op_texts = [texts[k] for k in keys]
    start = time.perf_counter()
    embedder = get_embedder(args.embedder)
    cache = EmbeddingCache.for_embedder(embedder)  # the project's: a second run embeds nothing again
    text_vectors = np.asarray(embed_with_cache(embedder, op_texts, cache), dtype=np.float32)
    query_vectors = np.asarray(
        embed_with_cache(embedder, [e.query for e in examples], cache), dtype=np.float32
    )
    seconds = time.perf_counter() - start
    out, mistakes = mined(
        examples,
        query_vectors,
        keys,
        op_texts,
        text_vectors,
        held=held,
        same=args.same,
        same_api=args.scope == "api",
    )
    changed = sum(a.negative != b.negative for a, b in zip(examples, out, strict=True))
    if args.replay is not None:
        out = mistakes_and_replay(out, mistakes, held, args.replay, random.Random(args.seed))
    write_examples(out, args.out)
    wrong = sum(mistakes)
    print(
        f"{len(examples)} examples, {changed} negatives replaced; {wrong} ({wrong / len(examples):.1%}) "
        f"rank their mined negative above their positive with {args.embedder}; {len(keys)} operation "
        f"texts and {len(examples)} requests embedded in {seconds:.0f} s; negatives from {args.scope}; "
        f"{len(out)} examples written -> {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
