"""Retrieved lists cached per (dataset, strategy, embedder, mode), so evaluations resume.

One JSON file per configuration in ``OUT/cache/``, rewritten atomically (temporary file, then
``os.replace``), so an interrupted run leaves the last complete file behind. It holds, per group
and query, the operations retrieved at the deepest k asked so far and, separately, the result of an
adaptive (``k=None``) search:

    {"format": 1, "code": ..., "dataset": ..., "strategy": ..., "embedder": ..., "mode": ...,
     "groups": {"<group>": {
         "fingerprint": "...",
         "ranked": {"<query id>": {"q": text, "k": 20, "hits": [[service, id, score, tokens], ...]}},
         "auto": {"<query id>": {"q": text, "hits": [...]}}}}}

A ranked entry answers any k up to the one it was fetched at, and every k once the retriever
returned fewer operations than asked (the index holds no more). Entries are dropped when the
group's fingerprint (its description files) or the query text changed, and the whole file when
the retrieval code changed (`code_fingerprint`: a new default or a fix must not be scored from
results the old code retrieved).
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from openapi_rag.bench.retrievers import RetrievedOp, RunConfig

CACHE_FORMAT = 1
RETRIEVAL_PACKAGES = (
    "chunking",
    "clean",
    "embed",
    "index",
    "llm",
    "agents",
    "refs",
    "search",
    "spec",
    "store",
)
"""The subpackages whose code decides what a retriever returns."""


@functools.cache
def code_fingerprint() -> str:
    """A hash of the retrieval code's source files (`RETRIEVAL_PACKAGES`)."""
    root = Path(__file__).resolve().parents[1]
    digest = hashlib.sha1()
    for package in RETRIEVAL_PACKAGES:
        for file in sorted((root / package).rglob("*.py")):
            digest.update(file.relative_to(root).as_posix().encode() + b"\x00" + file.read_bytes())
    return digest.hexdigest()[:16]


def cache_path(cache_dir: Path, dataset: str, config: RunConfig) -> Path:
    """``<dataset>__<strategy>__<embedder>__<mode>-<hash>.json``; the hash keeps distinct names
    distinct after slugging (``BAAI/bge-small`` vs ``BAAI-bge-small``)."""
    parts = (dataset, config.strategy, config.embedder, config.mode)
    slug = "__".join(re.sub(r"[^A-Za-z0-9.+-]+", "-", p).strip("-") or "x" for p in parts)
    digest = hashlib.sha1("\x00".join(parts).encode()).hexdigest()[:8]
    return cache_dir / f"{slug[:150]}-{digest}.json"


class ResultCache:
    """The cached retrievals of one configuration."""

    def __init__(self, path: Path, dataset: str, config: RunConfig) -> None:
        self.path = path
        self.header = {
            "format": CACHE_FORMAT,
            "code": code_fingerprint(),
            "dataset": dataset,
            **config.to_dict(),
        }
        self.groups: dict[str, dict[str, Any]] = {}
        self.dirty = False

    @classmethod
    def open(cls, cache_dir: Path, dataset: str, config: RunConfig) -> ResultCache:
        """The cache file of `config`, empty when missing, unreadable or of another format."""
        cache = cls(cache_path(cache_dir, dataset, config), dataset, config)
        try:
            data = json.loads(cache.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cache
        if isinstance(data, dict) and all(data.get(k) == v for k, v in cache.header.items()):
            groups = data.get("groups")
            cache.groups = groups if isinstance(groups, dict) else {}
        return cache

    def _group(self, name: str, fingerprint: str) -> dict[str, Any]:
        group = self.groups.get(name)
        if not isinstance(group, dict) or group.get("fingerprint") != fingerprint:
            group = {"fingerprint": fingerprint, "ranked": {}, "auto": {}}
            self.groups[name] = group
        return group

    def get(
        self, group: str, fingerprint: str, query_id: str, text: str, k: int | None
    ) -> list[RetrievedOp] | None:
        """The cached ranked list good for `k` (None: the adaptive result), or None."""
        entry = self._group(group, fingerprint)["auto" if k is None else "ranked"].get(query_id)
        if not isinstance(entry, dict) or entry.get("q") != text:
            return None
        hits = [RetrievedOp(str(s), str(i), float(sc), int(t)) for s, i, sc, t in entry.get("hits", [])]
        if k is not None:
            fetched = int(entry.get("k", 0))
            if fetched < k and len(hits) >= fetched:  # asked for fewer than k and got all it asked
                return None
        return hits

    def put(
        self, group: str, fingerprint: str, query_id: str, text: str, k: int | None, hits: list[RetrievedOp]
    ) -> None:
        entry: dict[str, Any] = {"q": text, "hits": [[h.service, h.id, h.score, h.tokens] for h in hits]}
        if k is not None:
            entry["k"] = k
        self._group(group, fingerprint)["auto" if k is None else "ranked"][query_id] = entry
        self.dirty = True

    def save(self) -> None:
        """Write the file atomically if anything changed."""
        if not self.dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        tmp.write_text(
            json.dumps({**self.header, "groups": self.groups}, ensure_ascii=False), encoding="utf-8"
        )
        os.replace(tmp, self.path)
        self.dirty = False
