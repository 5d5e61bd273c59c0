"""The training loop of `finetune_embedder.py`, needing only numpy, torch and transformers.

Kept apart from the scripts that build examples out of the corpus (which need the project and its
dependencies) so that a machine with an accelerator and no project install (`finetune_sweep.py`) runs
the very same loop, batches and held-out score on examples written here (`--write-examples`).
"""

from __future__ import annotations

import json
import random
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

SCALE = 20.0  # cosine scale of the ranking loss (sentence-transformers' default for MNRL)
HELD_OUT = 10  # one API in ten (by a hash of its id) is kept out of training and scored


@dataclass(frozen=True)
class Example:
    query: str
    positive: str
    negative: str
    operation: str  # service id + `METHOD /path`: no two examples of one operation share a batch
    source: str  # which template wrote the query (reported, never used in training)


def write_examples(examples: list[Example], path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for example in examples:
            out.write(json.dumps(asdict(example), ensure_ascii=False) + "\n")


def read_examples(path: Path) -> list[Example]:
    return [Example(**json.loads(line)) for line in path.open(encoding="utf-8")]


def split_held_out(examples: list[Example]) -> tuple[list[Example], list[Example], set[str]]:
    """(training examples, the held-out APIs' user requests, those APIs' ids): a tenth of the APIs by a
    hash of the id, the same whichever script or machine splits them."""
    services = {e.operation.split(" ")[0] for e in examples}
    held = {s for s in services if zlib.crc32(s.encode()) % HELD_OUT == 0}
    fit = [e for e in examples if e.operation.split(" ")[0] not in held]
    dev = [e for e in examples if e.operation.split(" ")[0] in held and e.source == "user"]
    return fit, dev, held


def batches(examples: list[Example], size: int, rng: random.Random) -> list[list[Example]]:
    """Shuffled batches in which no operation appears twice (its twin would be a false negative)."""
    pool = examples[:]
    rng.shuffle(pool)
    out: list[list[Example]] = []
    open_batches: list[tuple[list[Example], set[str]]] = []
    for example in pool:
        for batch, ops in open_batches:
            if example.operation not in ops:
                batch.append(example)
                ops.add(example.operation)
                break
        else:
            open_batches.append(([example], {example.operation}))
        if open_batches and len(open_batches[0][0]) == size:
            out.append(open_batches.pop(0)[0])
        open_batches = [b for b in open_batches if len(b[0]) < size]
    return out  # the few leftovers of an unfinished batch are dropped


def mrr_among(scores: np.ndarray, names: list[str], examples: list[Example]) -> float:
    """MRR of each example's positive, given its query's `scores` over the texts `names`."""
    where = {t: i for i, t in enumerate(names)}
    gold = np.array([scores[i, where[e.positive]] for i, e in enumerate(examples)])
    ranks = (scores > gold[:, None]).sum(axis=1) + 1
    return float((1.0 / ranks).mean())


class Encoder:
    """BertModel + mean pooling + normalisation: what sentence-transformers runs for this model."""

    def __init__(self, base: Path, max_tokens: int, device: str = "cpu"):
        import torch
        from transformers import AutoModel, AutoTokenizer

        self.torch = torch
        self.device = device
        self.model = AutoModel.from_pretrained(str(base), dtype=torch.float32).to(device)
        self.tokenizer = AutoTokenizer.from_pretrained(str(base))
        self.max_tokens = max_tokens

    def __call__(self, texts: list[str]):
        batch = self.tokenizer(
            texts, padding=True, truncation=True, max_length=self.max_tokens, return_tensors="pt"
        ).to(self.device)
        hidden = self.model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return self.torch.nn.functional.normalize(pooled, dim=-1)


@dataclass(frozen=True)
class Recipe:
    epochs: int = 1
    batch_size: int = 32
    lr: float = 2e-5
    freeze_layers: int = 3
    hard_negatives: bool = False


def frozen_prefixes(freeze_layers: int) -> list[str]:
    """The parameter names a recipe keeps as they are: the embeddings and the lowest layers."""
    return ["embeddings."] + [f"encoder.layer.{i}." for i in range(freeze_layers)]


def train(encoder: Encoder, examples: list[Example], recipe: Recipe, rng: random.Random) -> float:
    """One run of the recipe over `examples`; the seconds it took."""
    torch = encoder.torch
    schedule = [b for _ in range(recipe.epochs) for b in batches(examples, recipe.batch_size, rng)]
    # The embeddings and the lowest layers stay as they are: on 2 CPU cores the backward pass through
    # six layers costs more than the forward, and the words' contextual meaning lives in the top ones.
    # Layers the default model shares also let both models run as one graph (embed/minilm_pair.py).
    frozen = frozen_prefixes(recipe.freeze_layers)
    trained = []
    for name, parameter in encoder.model.named_parameters():
        parameter.requires_grad = not any(name.startswith(f) for f in frozen)
        if parameter.requires_grad:
            trained.append(parameter)
    optimizer = torch.optim.AdamW(trained, lr=recipe.lr, weight_decay=0.01)
    warm = max(1, len(schedule) // 10)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warm, max(0.0, (len(schedule) - s) / (len(schedule) - warm)))
    )
    encoder.model.train()
    start, total = time.perf_counter(), 0.0
    for step, batch in enumerate(schedule):
        queries = encoder([e.query for e in batch])
        negatives = [e.negative for e in batch] if recipe.hard_negatives else []
        docs = encoder([e.positive for e in batch] + negatives)
        labels = torch.arange(len(batch), device=queries.device)
        loss = torch.nn.functional.cross_entropy(SCALE * queries @ docs.T, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        scheduler.step()
        total += loss.item()
        if (step + 1) % 200 == 0 or step + 1 == len(schedule):
            spent = time.perf_counter() - start
            print(
                f"step {step + 1}/{len(schedule)} loss {total / (step + 1):.3f} "
                f"{spent:.0f} s ({(step + 1) * recipe.batch_size / spent:.1f} examples/s)",
                file=sys.stderr,
            )
    encoder.model.eval()
    return time.perf_counter() - start


def ranking_mrr(encoder: Encoder, examples: list[Example]) -> float:
    """MRR of each held-out request's operation among every text of the held-out APIs' examples."""
    torch = encoder.torch
    docs = list(dict.fromkeys(t for e in examples for t in (e.positive, e.negative)))
    with torch.no_grad():
        doc_vectors = torch.cat([encoder(docs[i : i + 64]) for i in range(0, len(docs), 64)])
        query_vectors = torch.cat(
            [encoder([e.query for e in examples[i : i + 64]]) for i in range(0, len(examples), 64)]
        )
    return mrr_among((query_vectors @ doc_vectors.T).cpu().numpy(), docs, examples)
