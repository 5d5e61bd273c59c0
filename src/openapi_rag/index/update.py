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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tqdm import tqdm

from openapi_rag.chunking import get_strategy
from openapi_rag.chunking.compact import OPTIONAL_PARAMS
from openapi_rag.clean import DEFAULT_STEPS
from openapi_rag.embed import DEFAULT_EMBEDDER, Embedder, get_embedder
from openapi_rag.embed.base import bar_shape
from openapi_rag.embed.minilm import available_cores
from openapi_rag.errors import IndexNotFound, NothingIndexed, SpecError
from openapi_rag.index.consent import embedder_from_manifest
from openapi_rag.index.fingerprint import fingerprint
from openapi_rag.index.index import DEFAULT_STRATEGY, Index, service_record
from openapi_rag.index.manifest import Manifest, Source, check_settings
from openapi_rag.index.side_by_side import embed_new_chunks
from openapi_rag.model import Chunk, Service
from openapi_rag.search.bm25 import BM25Index
from openapi_rag.search.settings import SearchSettings
from openapi_rag.search.views import NO_SECOND, ViewVectors, default_second, with_second_weight
from openapi_rag.spec import load_service
from openapi_rag.spec.discover import discover_entries
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.load import default_service_id, unique_id
from openapi_rag.spec.parallel import LoadFailed, load_many
from openapi_rag.store import FaissStore
from openapi_rag.store.lock import writer_lock
from openapi_rag.store.pg_target import PgTarget

T = TypeVar("T")


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
    directory: str | Path | PgTarget,
    *,
    strategy: str | None = None,
    embedder: str | None = None,
    clean: list[str] | None = None,
    size: int | None = None,
    overlap: int | None = None,
    index_type: str | None = None,
    rebuild: bool = False,
    show_progress: bool = False,
    wait: bool = False,
    allow_refs: Iterable[str | Path] = (),
    settings: SearchSettings | None = None,
    strategy_params: Mapping[str, Any] | None = None,
    second_embedder: str | None = None,
    second_scope: str | None = None,
    second_whole_weight: float | None = None,
    workers: int | None = None,
    jargon_weight: float | None = None,
    second_flat_weight: float | None = None,
) -> UpdateReport:
    """Index every API description under `paths` into `directory` (created or updated in place).

    Settings left as None are taken from the existing index, or the defaults for a new one
    (cleaning: `clean.DEFAULT_STEPS`, so HTML and markdown are stripped before anything is embedded;
    search: `SearchSettings()`). One writer at a time: the directory's writer lock is held from
    reading the existing index to swapping in the new one, so a concurrent update is never lost
    (readers are not blocked). Local `$ref`s are read only inside the folders of `paths` and
    `allow_refs`.

    Args:
        wait: wait for another process writing `directory` instead of failing.
        allow_refs: more folders that `$ref`s may read from.
        settings: the search settings recorded with the index.
        strategy_params: more parameters of the chunking strategy (`compact`'s `views_llm`,
            `aliases`); None: an update keeps those the index recorded (`compact.OPTIONAL_PARAMS`).
        second_embedder: another embedder whose vectors of the chunks the hybrid search fuses as
            a third list (`search/views.py`; weight `SECOND_EMBEDDER_WEIGHT` unless `settings`
            give one); "none" drops the index's; None keeps what the index has, and gives a new
            index directory the default's (`views.DEFAULT_SECOND` beside MiniLM; a PostgreSQL
            collection holds none).
        second_scope: which texts of a request the second list serves (`SearchSettings.static_scope`:
            "intents", "every", "whole", "one_intent", "sentences"), recorded with the index; None
            keeps the recorded one.
        second_whole_weight: the second list's weight on a whole request's text where the scope
            serves it (`SearchSettings.static_whole_weight`), recorded; None keeps the recorded one.
        second_flat_weight: the second list's weight on a whole request whose words single out no
            operation (`SearchSettings.static_flat_weight`; 0: off), recorded; None keeps the recorded one.
        jargon_weight: the weight of the lexicon's words as a list of their own
            (`SearchSettings.jargon_weight`; the words from `compact`'s `jargon_list`), recorded;
            None keeps the recorded one.
        workers: processes that read the descriptions (`spec/parallel.py`); None: one per usable
            core. The index is the same whatever the number.

    Raises:
        IndexMismatch: the existing index was built with other settings (pass `rebuild=True`).
        IndexLocked: another process is writing `directory` (and `wait` is off).
        NothingIndexed: no API description was found, or every one failed to load.
        RemoteNotConfigured: the existing index names a remote embedder the user did not configure.
    """
    paths = list(paths)
    if isinstance(directory, PgTarget) and second_embedder not in (None, NO_SECOND):
        raise ValueError(
            "a second embedder is kept in an index directory; a --store collection does not hold one"
        )
    if isinstance(directory, PgTarget):  # a PostgreSQL collection: its advisory lock, same steps
        from openapi_rag.store.pg_write import collection_lock, ensure_writable

        lock: Any = collection_lock(directory, wait=wait)
    else:
        lock = writer_lock(directory, wait=wait)
    with lock:
        if isinstance(directory, PgTarget):
            ensure_writable(directory)  # no pgvector or no rights: say so before any work
        return _build_locked(
            paths,
            directory if isinstance(directory, PgTarget) else Path(directory),
            strategy=strategy,
            embedder=embedder,
            clean=clean,
            size=size,
            overlap=overlap,
            index_type=index_type,
            rebuild=rebuild,
            show_progress=show_progress,
            allow_refs=allow_refs,
            settings=settings,
            strategy_params=strategy_params,
            second_embedder=second_embedder,
            second_scope=second_scope,
            second_whole_weight=second_whole_weight,
            workers=workers,
            jargon_weight=jargon_weight,
            second_flat_weight=second_flat_weight,
        )


def _build_locked(
    paths: Iterable[str | Path],
    directory: Path | PgTarget,
    *,
    strategy: str | None,
    embedder: str | None,
    clean: list[str] | None,
    size: int | None,
    overlap: int | None,
    index_type: str | None,
    rebuild: bool,
    show_progress: bool,
    allow_refs: Iterable[str | Path],
    settings: SearchSettings | None,
    strategy_params: Mapping[str, Any] | None = None,
    second_embedder: str | None = None,
    second_scope: str | None = None,
    second_whole_weight: float | None = None,
    workers: int | None = None,
    jargon_weight: float | None = None,
    second_flat_weight: float | None = None,
) -> UpdateReport:
    start = time.perf_counter()
    report = UpdateReport(str(directory))
    existing = None
    if not rebuild:
        try:
            existing = Index.open(directory)
        except IndexNotFound:
            existing = None
    old = existing.manifest if existing else None
    strategy = strategy or (old.strategy if old else DEFAULT_STRATEGY)
    clean = list(clean) if clean is not None else (list(old.clean) if old else list(DEFAULT_STEPS))
    recorded = SearchSettings.from_dict(old.search) if old else None  # read once: it warns of unknown names
    settings = settings or recorded or SearchSettings()
    if second_scope is not None:
        settings = settings.replace(static_scope=second_scope)  # refused here if not a scope
    if second_whole_weight is not None:
        settings = settings.replace(static_whole_weight=second_whole_weight)
    if second_flat_weight is not None:
        settings = settings.replace(static_flat_weight=second_flat_weight)
    if jargon_weight is not None:
        settings = settings.replace(jargon_weight=jargon_weight)
    index_type = index_type or (old.store.get("index_type", "flat") if old else "flat")
    if strategy_params is None and old is not None and old.strategy == strategy:
        strategy_params = {k: v for k, v in old.strategy_params.items() if k in OPTIONAL_PARAMS}
    chunker = get_strategy(strategy, size=size, overlap=overlap, **(strategy_params or {}))
    if embedder is None and old is not None:
        model = embedder_from_manifest(old.embedder, where=directory)  # remote only with consent
    else:
        model = get_embedder(embedder or DEFAULT_EMBEDDER)
    if second_embedder is None and existing is None and not isinstance(directory, PgTarget):
        second_embedder = default_second(model.model_id)  # a new directory: the default's second list
    had_model = _second_of(existing)  # its remote consent checked when the index was opened
    had = had_model.model_id if had_model is not None else None
    second_model = None if second_embedder == NO_SECOND else had_model
    if second_embedder not in (None, NO_SECOND):
        second_model = get_embedder(second_embedder)  # now: a wrong name stops the run before any work
        if second_model.model_id == had:  # the index's own, kept as it is
            second_model = had_model
    second = second_model.model_id if second_model is not None else None
    settings = with_second_weight(settings) if second is not None else settings.replace(static_weight=0.0)
    if old is not None:
        wanted = {
            "strategy": strategy,
            "strategy_params": chunker.params,
            "embedder": model.model_id,
            "clean": clean,
        }
        check_settings(old, wanted, directory)

    limits = ReadLimits.for_paths(paths, allow_refs)
    found = discover_entries(paths, limits)
    report.failed += [{"file": str(s.path), "error": s.reason, "where": None} for s in found.skipped]
    # Sorted, so that the ids assigned below do not depend on the order PATHS were given in.
    entries = sorted(str(p.resolve()) for p in found.entries)
    old_sources = dict(old.sources) if old else {}
    sources: dict[str, Source] = {}
    loaded: dict[str, Service] = {}
    bases: dict[str, str] = {}
    kept_failed: set[str] = set()

    to_load = []
    for entry in entries:
        previous = old_sources.get(entry)
        if previous is not None and previous.base_id and previous.fingerprint == fingerprint(previous.files):
            sources[entry] = previous
            bases[entry] = previous.base_id
        else:
            to_load.append(entry)
    cores = available_cores() if workers is None else workers
    outcomes = load_many(to_load, clean=clean, limits=limits, workers=cores)
    for entry, outcome in _progress(outcomes, "loading", "spec", show_progress, total=len(to_load)):
        previous = old_sources.get(entry)
        if isinstance(outcome, LoadFailed):
            report.failed.append({"file": entry, "error": outcome.reason, "where": outcome.where})
            if previous is not None:  # keep the last good version rather than lose the service
                sources[entry] = previous
                kept_failed.add(entry)
            continue
        loaded[entry] = outcome
        bases[entry] = default_service_id(outcome.title, Path(entry))

    if not sources and not loaded:
        raise NothingIndexed(_nothing_message(paths, entries, report.failed), failed=report.failed)

    ids = assign_service_ids(entries, bases, {e: sources[e].service for e in kept_failed})
    # An unchanged spec whose id the corpus now assigns differently (a clash appeared or went away)
    # is chunked again under its new id, as a fresh build would name it; its vectors come from the cache.
    for entry, source in list(sources.items()):
        if entry not in kept_failed and ids[entry] != source.service:
            try:
                loaded[entry] = load_service(entry, clean=clean, limits=limits)
            except SpecError as exc:  # changed under our feet: keep it as it was
                report.failed.append({"file": entry, "error": exc.reason, "where": exc.where})
                kept_failed.add(entry)

    new_chunks: list[Chunk] = []
    records: dict[str, dict[str, Any]] = {}
    stale_chunk_ids: list[str] = []
    for entry in _progress(sorted(loaded), "chunking", "spec", show_progress):
        service = loaded.pop(entry)
        service_id = ids[entry]
        service.id = service_id
        for op in service.operations:
            op.service = service_id
        chunks = chunker.chunk_service(service)
        files = _source_files(entry, service.files)
        previous = old_sources.get(entry)
        sources[entry] = Source(
            entry,
            fingerprint(files),
            files,
            service_id,
            [c.id for c in chunks],
            len(service.operations),
            bases[entry],
        )
        records[service_id] = service_record(service)
        new_chunks.extend(chunks)
        if previous is None:
            report.added.append(entry)
            continue
        stale_chunk_ids.extend(previous.chunks)
        # Same files and id: re-read only to learn its base id (an index written before base ids).
        if previous.fingerprint != sources[entry].fingerprint or previous.service != service_id:
            report.changed.append(entry)
    done = set(report.changed) | kept_failed
    report.unchanged = [e for e in sorted(sources) if e in old_sources and e not in done]

    for entry, previous in old_sources.items():
        if entry not in sources:
            stale_chunk_ids.extend(previous.chunks)
            report.removed.append(entry)

    sources = {entry: sources[entry] for entry in sorted(sources)}
    report.operations = sum(s.operations for s in sources.values())
    report.chunks = sum(len(s.chunks) for s in sources.values())
    report.chunks_new = len(new_chunks)
    # a second list made by other weights of its model (`ViewVectors.load`) is re-embedded
    stale_second = existing is not None and existing.static is not None and existing.static.stale
    unchanged = second == had and settings == recorded and not stale_second
    if (
        existing is not None
        and unchanged
        and not (report.added or report.changed or report.removed or new_chunks)
    ):
        report.seconds = round(time.perf_counter() - start, 2)
        return report

    # the second model's vectors of the new chunks are cached meanwhile, read back below
    vectors = embed_new_chunks(model, second_model, new_chunks, show_progress=show_progress)
    manifest = Manifest(
        strategy=strategy,
        strategy_params=chunker.params,
        embedder=model.model_id,
        dimensions=int(existing.store.dimensions if existing is not None else vectors.shape[1]),
        clean=clean,
        store={"index_type": index_type},  # a PostgreSQL collection records its own (`write_update`)
        sources=sources,
        failed=report.failed,
        search=settings.to_dict(),
    )
    if isinstance(directory, PgTarget):
        from openapi_rag.store.pg_write import write_update

        write_update(
            directory,
            manifest=manifest,
            existing=existing,  # type: ignore[arg-type]
            stale_chunk_ids=stale_chunk_ids,
            new_chunks=new_chunks,
            vectors=vectors,
            records=records,
            bm25_b=settings.bm25_b,
        )
    else:
        if existing is not None:
            store = existing.store
            store.remove(stale_chunk_ids)
            for source in sources.values():
                if source.service not in records:
                    records[source.service] = existing.service_record(source.service)
        else:
            store = FaissStore(vectors.shape[1], index_type=index_type)
        if new_chunks:
            store.add([c.id for c in new_chunks], vectors, new_chunks)
        chunks = list(store.chunks())
        bm25 = BM25Index.from_chunks(chunks, b=settings.bm25_b)
        views = ViewVectors.of_views(model, chunks)  # through the cache: only new views are embedded
        static = (
            ViewVectors.of_embedder(second_model, chunks, cache=True) if second_model is not None else None
        )
        index = Index(
            manifest=manifest,
            store=store,
            bm25=bm25,
            embedder=model,
            services=records,
            views=views,
            static=static,
        )
        index.save(directory, lock=False)  # the lock is ours already
    report.written = True
    report.seconds = round(time.perf_counter() - start, 2)
    return report


def assign_service_ids(entries: list[str], bases: dict[str, str], fixed: dict[str, str]) -> dict[str, str]:
    """Service ids for `entries`: each its base id, with `-2`, `-3`... in path order on clashes.

    A function of the corpus alone (not of which specs an earlier run saw first), so a fresh build
    and any sequence of incremental ones give a spec the same id. `fixed`: entries whose id cannot
    change (their last good version is kept after a failed reload); they keep theirs.
    """
    taken = set(fixed.values())
    ids = dict(fixed)
    for entry in sorted(entries):
        if entry in bases and entry not in fixed:
            ids[entry] = unique_id(bases[entry], taken)
    return ids


def _nothing_message(paths: Iterable[str | Path], entries: list[str], failed: list[dict[str, Any]]) -> str:
    given = ", ".join(str(p) for p in paths)
    if not entries:
        return (
            f"no API description found under {given} (OpenAPI 3.x, Swagger 2.0 or Postman, as "
            ".json/.yaml/.yml): nothing was indexed"
        )
    return f"all {len(failed)} API descriptions under {given} failed to load (see above): nothing was indexed"


def _progress(
    items: Iterable[T], desc: str, unit: str, enabled: bool, total: int | None = None
) -> Iterable[T]:
    if not enabled or os.environ.get("OPENAPI_RAG_NO_PROGRESS"):
        return items
    return tqdm(items, desc=desc, unit=unit, leave=False, total=total, **bar_shape())


def _second_of(index: Index | None) -> Embedder | None:
    """The index's second embedder (`search/views.py`), None when it has none."""
    static = getattr(index, "static", None)  # a PostgreSQL collection has none
    return static.embedder if static is not None else None
