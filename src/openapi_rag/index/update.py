"""Build or update an index directory from files and folders, re-processing only what changed.

Each entry document is fingerprinted over every file it was read from (a multi-file description
changes when any of its fragments does). Unchanged sources keep their chunks and vectors; changed
and new ones are loaded, chunked and embedded (through the embedding cache, so a text embedded once
is never embedded again); sources no longer present are removed. Nothing is written when nothing
changed.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from openapi_rag.chunking import get_strategy
from openapi_rag.clean import DEFAULT_STEPS
from openapi_rag.embed import DEFAULT_EMBEDDER, get_embedder
from openapi_rag.errors import IndexNotFound, SpecError
from openapi_rag.index.fingerprint import fingerprint
from openapi_rag.index.index import DEFAULT_STRATEGY, Index, embed_chunks, service_record
from openapi_rag.index.manifest import Manifest, Source, check_settings
from openapi_rag.model import Chunk
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.settings import SearchSettings
from openapi_rag.spec import discover, load_service
from openapi_rag.spec.load import default_service_id, unique_id
from openapi_rag.store import FaissStore


@dataclass
class UpdateReport:
    directory: str
    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[dict[str, Any]] = field(default_factory=list)
    chunks: int = 0
    chunks_new: int = 0
    operations: int = 0
    seconds: float = 0.0
    written: bool = False

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _source_files(entry: str, service_files: list[str]) -> list[str]:
    base = os.path.dirname(entry)
    return sorted({os.path.normpath(os.path.join(base, f)) for f in service_files} | {entry})


def build_index(
    paths: Iterable[str | Path],
    directory: str | Path,
    *,
    strategy: str | None = None,
    embedder: str | None = None,
    clean: list[str] | None = None,
    size: int | None = None,
    overlap: int | None = None,
    index_type: str | None = None,
    rebuild: bool = False,
    show_progress: bool = False,
    settings: SearchSettings | None = None,
) -> UpdateReport:
    """Index every API description under `paths` into `directory` (created or updated in place).

    Settings left as None are taken from the existing index, or the defaults for a new one
    (cleaning: `clean.DEFAULT_STEPS`, so HTML and markdown are stripped before anything is embedded;
    search: `SearchSettings()`).

    Raises:
        IndexMismatch: the existing index was built with other settings (pass `rebuild=True`).
    """
    start = time.perf_counter()
    directory = Path(directory)
    report = UpdateReport(str(directory))
    existing = None
    if not rebuild:
        try:
            existing = Index.open(directory)
        except IndexNotFound:
            existing = None
    old = existing.manifest if existing else None
    strategy = strategy or (old.strategy if old else DEFAULT_STRATEGY)
    embedder_name = embedder or (old.embedder if old else DEFAULT_EMBEDDER)
    clean = list(clean) if clean is not None else (list(old.clean) if old else list(DEFAULT_STEPS))
    settings = settings or (SearchSettings.from_dict(old.search) if old else SearchSettings())
    index_type = index_type or (old.store.get("index_type", "flat") if old else "flat")
    chunker = get_strategy(strategy, size=size, overlap=overlap)
    model = get_embedder(embedder_name)
    if old is not None:
        wanted = {
            "strategy": strategy,
            "strategy_params": chunker.params,
            "embedder": model.model_id,
            "clean": clean,
        }
        check_settings(old, wanted, directory)

    entries = [str(p.resolve()) for p in discover(paths)]
    old_sources = dict(old.sources) if old else {}
    taken = {s.service for s in old_sources.values()}
    sources: dict[str, Source] = {}
    new_chunks: list[Chunk] = []
    records: dict[str, dict[str, Any]] = {}
    stale_chunk_ids: list[str] = []

    for entry in tqdm(entries, desc="loading", unit="spec", disable=not show_progress, leave=False):
        previous = old_sources.get(entry)
        if previous is not None and previous.fingerprint == fingerprint(previous.files):
            sources[entry] = previous
            report.unchanged.append(entry)
            continue
        try:
            service = load_service(entry, clean=clean)
        except SpecError as exc:
            report.failed.append({"file": entry, "error": exc.reason, "where": exc.where})
            if previous is not None:  # keep the last good version rather than lose the service
                sources[entry] = previous
            continue
        if previous is not None:
            service_id = previous.service
        else:
            service_id = unique_id(default_service_id(service.title, Path(entry)), taken)
        service.id = service_id
        for op in service.operations:
            op.service = service_id
        chunks = chunker.chunk_service(service)
        files = _source_files(entry, service.files)
        sources[entry] = Source(
            entry, fingerprint(files), files, service_id, [c.id for c in chunks], len(service.operations)
        )
        records[service_id] = service_record(service)
        new_chunks.extend(chunks)
        if previous is not None:
            stale_chunk_ids.extend(previous.chunks)
            report.changed.append(entry)
        else:
            report.added.append(entry)

    for entry, previous in old_sources.items():
        if entry not in sources:
            stale_chunk_ids.extend(previous.chunks)
            report.removed.append(entry)

    report.operations = sum(s.operations for s in sources.values())
    report.chunks = sum(len(s.chunks) for s in sources.values())
    report.chunks_new = len(new_chunks)
    if existing is not None and not (report.added or report.changed or report.removed):
        report.seconds = round(time.perf_counter() - start, 2)
        return report

    vectors = embed_chunks(model, new_chunks, show_progress=show_progress)
    if existing is not None:
        store = existing.store
        store.remove(stale_chunk_ids)
    else:
        store = FaissStore(vectors.shape[1], index_type=index_type)
    if new_chunks:
        store.add([c.id for c in new_chunks], vectors, new_chunks)
    bm25 = BM25Index.from_chunks(store.chunks(), b=settings.bm25_b)
    manifest = Manifest(
        strategy=strategy,
        strategy_params=chunker.params,
        embedder=model.model_id,
        dimensions=store.dimensions,
        clean=clean,
        store={"index_type": index_type},
        sources=sources,
        failed=report.failed,
        search=settings.to_dict(),
    )
    if existing is not None:
        for source in sources.values():
            if source.service not in records:
                records[source.service] = existing.service_record(source.service)
    index = Index(manifest=manifest, store=store, bm25=bm25, embedder=model, services=records)
    index.save(directory)
    report.written = True
    report.seconds = round(time.perf_counter() - start, 2)
    return report
