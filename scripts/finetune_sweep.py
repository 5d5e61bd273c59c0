"""Train several recipes of `finetune_embedder.py` on the same examples and score each on the held-out APIs.

A recipe costs 75 minutes on two CPU cores and seconds on a GPU, so recipes are compared where a GPU is
lent, on examples written here (`finetune_embedder.py --write-examples FILE`: needs the project and the
realworld corpus, which that machine lacks), with the same loop, batches and held-out split
(`minilm_training.py`: numpy, torch and transformers only). For each recipe it prints the held-out APIs'
MRR, then saves the layers the best recipes trained (in fp16: the int8 export rounds far more),
which `finetune_embedder.py --trained-state FILE` exports over the exact fp32 base.

    python scripts/finetune_sweep.py --examples examples.jsonl --base MINILM_DIR --device cuda \\
        --recipes '[{"epochs": 1}, {"epochs": 3, "freeze_layers": 0}]' --out OUT
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import asdict
from pathlib import Path

from minilm_training import (
    Encoder,
    Recipe,
    frozen_prefixes,
    ranking_mrr,
    read_examples,
    split_held_out,
    train,
)

MAX_FILE_BYTES = 15_000_000  # what one returned file may hold (the accelerator machine's limit is 16 MiB)


def trained_layers(encoder: Encoder, recipe: Recipe) -> dict:
    """The weights the recipe trained, in fp16 on the CPU."""
    torch = encoder.torch
    frozen = frozen_prefixes(recipe.freeze_layers)
    return {
        k: v.detach().to("cpu", torch.float16)
        for k, v in encoder.model.state_dict().items()
        if not any(k.startswith(f) for f in frozen)
    }


def save_state(torch, state: dict, out: Path, name: str) -> list[str]:
    """`state` split over files of at most MAX_FILE_BYTES; their names."""
    parts: list[dict] = [{}]
    size = 0
    for key, tensor in state.items():
        nbytes = tensor.numel() * tensor.element_size()
        if size + nbytes > MAX_FILE_BYTES and parts[-1]:
            parts.append({})
            size = 0
        parts[-1][key] = tensor
        size += nbytes
    paths = []
    for number, part in enumerate(parts):
        path = out / f"{name}.{number}.pt"
        torch.save(part, path)
        paths.append(path.name)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=Path, required=True)
    parser.add_argument("--base", type=Path, required=True, help="folder of all-MiniLM-L6-v2 (safetensors)")
    parser.add_argument("--recipes", required=True, help='JSON list of Recipe fields, e.g. [{"epochs": 2}]')
    parser.add_argument("--max-tokens", type=int, default=128, help="tokens per text while training")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--keep-layers",
        type=int,
        nargs="*",
        default=[3],
        help="also save, for each number, the best recipe that keeps at least that many lowest layers frozen",
    )
    parser.add_argument(
        "--init-state",
        type=Path,
        help="weights every recipe starts from (a .pt of trained layers, e.g. a shipped model's saved "
        "state), over --base; default: --base alone",
    )
    parser.add_argument("--out", type=Path, default=Path("."))
    parser.add_argument(
        "--budget", type=float, default=float("inf"), help="seconds after which no recipe starts"
    )
    args = parser.parse_args()
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # fp32 as on the CPU: recipes, not kernels, should differ
    fields = json.loads(args.recipes)
    tokens = [f.pop("max_tokens", args.max_tokens) for f in fields]  # a recipe may cut texts elsewhere
    recipes = [Recipe(**f) for f in fields]
    fit, dev, held = split_held_out(read_examples(args.examples))
    print(
        f"{len(fit)} training examples; {len(dev)} held-out requests over {len(held)} APIs", file=sys.stderr
    )
    args.out.mkdir(parents=True, exist_ok=True)
    results, states, began = [], [], time.perf_counter()
    for number, recipe in enumerate(recipes):
        if time.perf_counter() - began > args.budget:
            print(f"budget spent: recipes {number}- not run", file=sys.stderr)
            recipes = recipes[:number]
            break
        torch.manual_seed(args.seed)
        encoder = Encoder(args.base, tokens[number], args.device)
        if args.init_state:  # continue from trained weights (fp16 saved: copied into the fp32 model)
            encoder.model.load_state_dict(torch.load(args.init_state, map_location=args.device), strict=False)
        before = ranking_mrr(encoder, dev) if number == 0 else results[0]["mrr_before"]
        started = time.perf_counter()
        seconds = train(encoder, fit, recipe, random.Random(args.seed))
        after = ranking_mrr(encoder, dev)
        row = {"recipe": asdict(recipe), "max_tokens": tokens[number], "mrr_before": round(before, 4)}
        row |= {"mrr_after": round(after, 4), "train_seconds": round(seconds, 1)}
        states.append(trained_layers(encoder, recipe))
        row["seconds"] = round(time.perf_counter() - started, 1)
        results.append(row)
        print(json.dumps(row), flush=True)
        (args.out / "sweep.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")

    # Saved: the best recipe, and the best that keeps the layers the default model shares (the two
    # models then run as one graph, embed/minilm_pair.py).
    def best(indexes: list[int]) -> set[int]:
        return {max(indexes, key=lambda i: results[i]["mrr_after"])} if indexes else set()

    saved = best(list(range(len(results))))
    for layers in args.keep_layers:
        saved |= best([i for i, r in enumerate(recipes) if r.freeze_layers >= layers])
    for index in sorted(saved):
        results[index]["saved"] = save_state(torch, states[index], args.out, f"recipe{index}")
    (args.out / "sweep.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
