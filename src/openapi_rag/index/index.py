"""`Index`: chunks of loaded services, embedded and stored, searchable by dense, BM25 or hybrid search.

    >>> from openapi_rag import Index, load_services
    >>> index = Index.build(load_services(["specs/"]).services)          # doctest: +SKIP
    >>> index.save("idx/")                                               # doctest: +SKIP
    >>> index = Index.open("idx/")                                       # doctest: +SKIP
    >>> [hit.id for hit in index.search("create a playlist", k=3)]       # doctest: +SKIP
    ['POST /users/{user_id}/playlists', ...]

On disk an index is a directory: `manifest.json` (settings and sources), `store/` (FAISS vectors and
chunk texts), `bm25/` (the lexical index) and `services/` (each service's bundled description, for
`show`). It is always written as a whole into a temporary sibling and swapped in, so an interrupted
build leaves the previous index readable.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import numpy as np

from openapi_rag.chunking import Strategy, get_strategy
from openapi_rag.embed import DEFAULT_EMBEDDER, Embedder, EmbeddingCache, embed_with_cache, get_embedder
from openapi_rag.errors import IndexDamaged, IndexMismatch, IndexNotFound, OpenAPIRagError
from openapi_rag.index.consent import embedder_from_manifest
from openapi_rag.index.manifest import MANIFEST_JSON, Manifest, Source
from openapi_rag.model import Chunk, Service
from openapi_rag.refs.inline import resolved_operation
from openapi_rag.search import Searcher
from openapi_rag.search.bm25 import BM25_JSON, BM25Index
from openapi_rag.search.bm25 import IDS_JSON as BM25_IDS_JSON
from openapi_rag.search.clauses import QueryLimits, check_query
from openapi_rag.search.craft import CraftSearcher
from openapi_rag.search.results import OperationHit, SearchResults
from openapi_rag.search.settings import SearchSettings
from openapi_rag.search.views import NO_SECOND, STATIC_DIR, ViewVectors, default_second, with_second_weight
from openapi_rag.search.views import VIEWS as VIEWS_DIR
from openapi_rag.spec.extract import extract_service
from openapi_rag.store import FaissStore
from openapi_rag.store.atomic import atomic_dir, resolve_dir, resolve_optional_dir
from openapi_rag.store.filters import ChunkFilter
from openapi_rag.store.integrity import read_json
from openapi_rag.store.lock import writer_lock
from openapi_rag.store.pg_target import PgTarget

DEFAULT_STRATEGY = "compact"
SERVICES_DIR = "services"
# Folders other commands add to an index from other inputs than the API descriptions (`schema index`:
# a database's table chunks); a save carries them over from the version it replaces.
CARRIED_DIRS = ("tables",)


class OperationNotFound(OpenAPIRagError):
    """`show` was asked for an operation the index does not hold."""


def service_record(service: Service) -> dict[str, Any]:
    """What `show` needs to rebuild a service without re-reading its files."""
    return {
        "id": service.id,
        "title": service.title,
        "file": service.file,
        "format": service.format,
        "document": service.document,
    }


def service_from_record(record: dict[str, Any]) -> Service:
    return extract_service(
        record["document"], service_id=record["id"], file=record["file"], format=record["format"], problems=[]
    )


class Index:
    """A searchable index of API operations. Build with `build`, open with `open`."""

    def __init__(
        self,
        *,
        manifest: Manifest,
        store: FaissStore,
        bm25: BM25Index,
        embedder: Embedder | None = None,
        services: dict[str, dict[str, Any]] | None = None,
        directory: Path | None = None,
        query_limits: QueryLimits | None = None,
        settings: SearchSettings | None = None,
        views: ViewVectors | None = None,
        static: ViewVectors | None = None,
    ):
        self.manifest = manifest
        self.views = views  # the chunks' short views, embedded (`search/views.py`)
        self.static = static  # a second embedder's vectors of the chunks (`search/views.py`)
        self.store = store
        self.bm25 = bm25
        self._embedder = embedder
        self._records = services or {}  # service id -> record (in memory, or loaded from disk lazily)
        self.directory = directory
        self.query_limits = query_limits or QueryLimits()
        # The embedder is resolved lazily: clause vectors of multi-intent queries need it.
        embed = lambda texts: self.embedder.embed_many(texts)  # noqa: E731
        # The settings it was built with unless told otherwise. A `craft` index holds three views
        # per operation, searched apart and voted on.
        settings = settings or SearchSettings.from_dict(manifest.search)
        self.searcher: Searcher | CraftSearcher = (
            CraftSearcher(store, bm25, embed=embed, settings=settings)
            if manifest.strategy == "craft"
            else Searcher(
                store,
                bm25,
                embed=embed,
                settings=settings,
                views=views,
                static=None if static is not None and static.stale else static,  # kept for the update
                embed_both=self._embed_both,
            )
        )
        self._pairs: dict[int, Any] = {}  # `_embed_both`'s paired models, by the second embedder

    # ---- building ---------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        services: Iterable[Service],
        *,
        strategy: str | Strategy = DEFAULT_STRATEGY,
        embedder: str | Embedder | None = None,
        clean: Sequence[str] = (),
        size: int | None = None,
        overlap: int | None = None,
        index_type: str = "flat",
        cache: bool = True,
        show_progress: bool = False,
        settings: SearchSettings | None = None,
        static: str | Embedder | None = "default",
    ) -> Index:
        """Chunk, embed and index `services` in memory (`save` writes it to disk).

        Args:
            services: loaded services (`load_services(...).services`).
            strategy: chunking strategy name (`openapi_rag.chunking.list_strategies()`), or a
                strategy object with its own parameters (`get_strategy("compact", returns=0)`).
            embedder: embedder name or object (`openapi_rag.embed.list_embedders()`); minilm when None.
            clean: the cleaning steps the services were loaded with (recorded in the manifest).
            size, overlap: chunk size and overlap in tokens (strategy defaults when None).
            index_type: "flat" (exact) or "hnsw" (approximate, for very large corpora).
            cache: reuse and fill the on-disk embedding cache.
            show_progress: progress bars on stderr.
            settings: how the index is searched (defaults when None), recorded in the manifest.
            static: a second embedder (`"minilm-users"`, `"wordllama"`) whose vectors of the chunks
                the hybrid search reads as a third list when `settings.static_weight` > 0;
                "default": the default's (`views.DEFAULT_SECOND` beside MiniLM, read at
                `SECOND_EMBEDDER_WEIGHT` unless `settings` give a weight), as a new index directory
                gets; None or "none": no second list.
        """
        settings = settings or SearchSettings()
        services = list(services)
        model = embedder if isinstance(embedder, Embedder) else get_embedder(embedder or DEFAULT_EMBEDDER)
        if static == "default":
            static = default_second(model.model_id)
            if static is not None:
                settings = with_second_weight(settings)
        if static == NO_SECOND:
            static = None
        chunker = (
            strategy if isinstance(strategy, Strategy) else get_strategy(strategy, size=size, overlap=overlap)
        )
        chunks = chunker.chunk(services)
        vectors = embed_chunks(model, chunks, cache=cache, show_progress=show_progress)
        store = FaissStore(vectors.shape[1] if len(chunks) else _dimensions(model), index_type=index_type)
        if chunks:
            store.add([c.id for c in chunks], vectors, chunks)
        manifest = Manifest(
            strategy=chunker.name,
            strategy_params=chunker.params,
            embedder=model.model_id,
            dimensions=store.dimensions,
            clean=list(clean),
            store={"index_type": index_type},
            search=settings.to_dict(),
        )
        by_service: dict[str, list[str]] = {}
        for chunk in chunks:
            by_service.setdefault(chunk.service, []).append(chunk.id)
        for service in services:
            manifest.sources[service.file] = Source(
                file=service.file,
                fingerprint="",
                files=[],
                service=service.id,
                chunks=by_service.get(service.id, []),
                operations=len(service.operations),
            )
        return cls(
            manifest=manifest,
            store=store,
            bm25=BM25Index.from_chunks(chunks, b=settings.bm25_b),
            embedder=model,
            services={s.id: service_record(s) for s in services},
            views=ViewVectors.of_views(model, chunks, cache=cache),
            static=ViewVectors.of_embedder(static, chunks, cache=cache) if static is not None else None,
        )

    # ---- persistence ------------------------------------------------------------------------
    def save(self, directory: str | Path, *, lock: bool = True) -> None:
        """Write the whole index to `directory`, atomically, holding its writer lock.

        Args:
            directory: the index directory (created or replaced as a whole).
            lock: take the writer lock (`store.lock`); False only for a caller that holds it already.

        Raises:
            IndexLocked: another process is writing `directory`.
        """
        directory = Path(directory)
        with writer_lock(directory) if lock else nullcontext():
            self._save(directory)
        self.directory = directory

    def _save(self, directory: Path) -> None:
        with atomic_dir(directory) as tmp:
            self.store.save(tmp / "store", atomic=False)
            self.bm25.save(tmp / "bm25", atomic=False)
            (tmp / SERVICES_DIR).mkdir()
            for service_id in self.manifest_service_ids():
                record = self.service_record(service_id)
                path = tmp / SERVICES_DIR / f"{service_id}.json"
                path.write_text(json.dumps(record, ensure_ascii=False, separators=(",", ":")), "utf-8")
            if self.views is not None:
                self.views.save(tmp / VIEWS_DIR)
            if self.static is not None:
                self.static.save(tmp / STATIC_DIR)
            for name in CARRIED_DIRS:  # from their backup where their own swap was cut off
                carried = resolve_optional_dir(directory / name, locked_by=directory)
                if carried is not None:
                    shutil.copytree(carried, tmp / name)
            self.manifest.write(tmp)  # last: a directory without a manifest is never taken for an index

    @classmethod
    def open(
        cls,
        directory: str | Path | PgTarget,
        *,
        embedder: str | Embedder | None = None,
        settings: SearchSettings | None = None,
    ) -> Index:
        """Open an index written by `save` or `openapi-rag index`.

        Args:
            directory: the index directory, or a `PgTarget` (a collection in PostgreSQL).
            embedder: only to check or supply an object; the index's own embedder is used by default.
            settings: search with these instead of the settings recorded at build time (a
                `bm25_b` other than the built one applies only when the index is rebuilt).

        Raises:
            IndexNotFound: no index there.
            IndexMismatch: `embedder` is not the one the index was built with.
            StoreUnavailable: `directory` is a `PgTarget` whose database cannot be used.
        """
        if isinstance(directory, PgTarget):  # a collection in PostgreSQL (`store/pg_index.py`)
            from openapi_rag.store.pg_index import open_collection

            return open_collection(directory, embedder=embedder, settings=settings)
        path = resolve_dir(directory, required=(MANIFEST_JSON,))
        # A writer may swap a new version in while this reads; then the files read could come from
        # two versions and disagree. Read again once from the new version rather than report damage.
        before = _inode(path)
        try:
            return cls._open(path, embedder, settings)
        except IndexDamaged:
            if _inode(Path(directory)) in (before, None):
                raise
            return cls._open(resolve_dir(directory, required=(MANIFEST_JSON,)), embedder, settings)

    @classmethod
    def _open(cls, path: Path, embedder: str | Embedder | None, settings: SearchSettings | None) -> Index:
        manifest = Manifest.read(path)
        model = None
        if embedder is not None:
            model = get_embedder(embedder) if isinstance(embedder, str) else embedder
            if model.model_id != manifest.embedder:
                raise IndexMismatch(
                    f"{path} was built with embedder {manifest.embedder!r}, not {model.model_id!r}: "
                    "search it without --embedder, or rebuild it with `openapi-rag index --embedder ...`"
                )
        store = FaissStore.load(path / "store")
        # The lexical index's own JSON files first, so that damage there is named by file.
        read_json(path / "bm25" / BM25_JSON, dict, directory=path)
        read_json(path / "bm25" / BM25_IDS_JSON, list, directory=path)
        try:
            bm25 = BM25Index.load(path / "bm25")
        except (IndexNotFound, IndexMismatch, IndexDamaged):
            raise
        except Exception as exc:  # bm25s raises whatever its parser meets in a cut or foreign file
            raise IndexDamaged(
                path / "bm25", f"cannot be read ({type(exc).__name__}: {exc})", directory=path
            ) from exc
        check_consistent(path, manifest, store, bm25)
        ids = store.ids()
        return cls(
            manifest=manifest,
            store=store,
            bm25=bm25,
            embedder=model,
            directory=path,
            settings=settings,
            views=ViewVectors.load(path / VIEWS_DIR, ids, directory=path),
            static=ViewVectors.load(path / STATIC_DIR, ids, directory=path),
        )

    # ---- services ---------------------------------------------------------------------------
    def manifest_service_ids(self) -> list[str]:
        return [source.service for source in self.manifest.sources.values()]

    def service_record(self, service_id: str, *, cache: bool = True) -> dict[str, Any]:
        """The stored description of a service, checked; kept in memory unless `cache` is False
        (a long-running server keeps its own bounded cache of rebuilt services instead)."""
        record = self._records.get(service_id)
        if record is None:
            if self.directory is None:
                raise OperationNotFound(f"no service {service_id!r} in this index")
            path = self.directory / SERVICES_DIR / f"{service_id}.json"
            if not path.exists():
                raise OperationNotFound(
                    f"no service {service_id!r} in {self.directory}; services: {', '.join(self.manifest_service_ids())}"
                )
            record = read_json(path, dict, directory=self.directory)
            if not isinstance(record.get("document"), dict) or record.get("id") != service_id:
                raise IndexDamaged(
                    path, f"is not the stored description of {service_id!r}", directory=self.directory
                )
            if cache:
                self._records[service_id] = record
        return record

    def service(self, service_id: str, *, cache: bool = True) -> Service:
        """The loaded `Service` (rebuilt from the stored bundled description)."""
        return service_from_record(self.service_record(service_id, cache=cache))

    # ---- querying ---------------------------------------------------------------------------
    @property
    def embedder(self) -> Embedder:
        """The embedder the index was built with (a remote one only when the user configured it)."""
        if self._embedder is None:
            self._embedder = embedder_from_manifest(self.manifest.embedder, where=self.directory)
        return self._embedder

    def _embed_both(self, texts: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
        """`texts` embedded by the index's embedder and the second list's in one run, where the
        two share layers (`embed/minilm_pair.py`: the default and `minilm-users`); else None."""
        from openapi_rag.embed.minilm_pair import PairedMiniLM

        static = self.searcher.static
        second = static.embedder if isinstance(self.searcher, Searcher) and static is not None else None
        if second is None:
            return None
        if id(second) not in self._pairs:  # the second list may be swapped (ablations): one pair each
            self._pairs = {id(second): PairedMiniLM.of(self.embedder, second)}
        pair = self._pairs[id(second)]
        return None if pair is None else PairedMiniLM.split(pair.embed_many(texts))

    def search(
        self,
        query: str,
        *,
        k: int | str = 10,
        mode: str = "hybrid",
        threshold: float | None = None,
        service: str | Sequence[str] | None = None,
        tag: str | Sequence[str] | None = None,
        expand: bool = True,
    ) -> list[OperationHit]:
        """The best operations for `query`: each once, at its best chunk's score.

        Args:
            query: what the caller wants to do, in natural language.
            k: how many operations (ignored with `threshold`), or "auto": as many as the scores
                say are relevant (`openapi_rag.search.searcher`; for a `craft` index, those the
                views agree on, `openapi_rag.search.craft`).
            mode: "hybrid" (default), "dense" or "bm25".
            threshold: every operation whose best chunk has cosine similarity >= this, instead of k.
            service, tag: restrict to these services / tags.
            expand: attach linked schema, error and security chunks (with `ref-linked` indexes).
        """
        return list(
            self.search_results(
                query, k=k, mode=mode, threshold=threshold, service=service, tag=tag, expand=expand
            ).operations
        )

    def search_results(
        self,
        query: str,
        *,
        k: int | str = 10,
        mode: str = "hybrid",
        threshold: float | None = None,
        service: str | Sequence[str] | None = None,
        tag: str | Sequence[str] | None = None,
        expand: bool = True,
    ) -> SearchResults:
        """Like `search`, with the chunk-level hits and linked chunks too.

        Raises:
            InvalidQuery: the query is blank or exceeds `self.query_limits`.
        """
        check_query(query, self.query_limits)
        flt = ChunkFilter.of(services=service, tags=tag) if (service or tag) else None
        # No query vector: the searcher embeds the query and its clauses as it needs them.
        return self.searcher.search(query, mode=mode, k=k, threshold=threshold, filter=flt, expand=expand)

    def show(
        self,
        operation: str,
        *,
        service: str | None = None,
        depth: int = 3,
        max_tokens: int | None = None,
        errors: bool = True,
        examples: bool = True,
    ) -> dict[str, Any]:
        """The operation `METHOD /path` with its schemas resolved (what an agent fetches).

        By default everything, to `depth`. With `max_tokens` (or errors/examples off) the sized view
        of `openapi_rag.refs.view` instead: it fits the budget and says in `view.left_out` what it cut.

        Raises:
            OperationNotFound: no such operation, or it exists in several services and `service`
                was not given (the message lists them).
        """
        method, _, path = operation.strip().partition(" ")
        wanted = f"{method.upper()} {path.strip()}"
        candidates = [service] if service else self.manifest_service_ids()
        found = []
        for service_id in candidates:
            svc = self.service(service_id)
            op = svc.operation(wanted)
            if op is not None:
                found.append((svc, op))
        if not found:
            where = f"service {service!r}" if service else "this index"
            raise OperationNotFound(
                f"no operation {wanted!r} in {where}; search for it with `openapi-rag search`"
            )
        if len(found) > 1:
            names = ", ".join(s.id for s, _ in found)
            raise OperationNotFound(f"{wanted!r} exists in several services ({names}): pass --service")
        svc, op = found[0]
        if max_tokens is None and errors and examples:
            return resolved_operation(op, svc, max_depth=depth)
        from openapi_rag.refs.view import operation_view

        return operation_view(op, svc, depth=depth, max_tokens=max_tokens, errors=errors, examples=examples)

    def __len__(self) -> int:
        return len(self.store)


def _inode(path: Path) -> int | None:
    try:
        return path.stat().st_ino
    except OSError:
        return None


def check_consistent(path: Path, manifest: Manifest, store: FaissStore, bm25: BM25Index) -> None:
    """The manifest, the vectors and the BM25 index describe the same chunks."""
    if manifest.dimensions != store.dimensions:
        raise IndexDamaged(
            path / MANIFEST_JSON,
            f"says {manifest.dimensions} dimensions, where store/vectors.npy has {store.dimensions}",
            directory=path,
        )
    listed = sum(len(source.chunks) for source in manifest.sources.values())
    if listed != len(store):
        raise IndexDamaged(
            path / MANIFEST_JSON, f"lists {listed} chunks, where the store holds {len(store)}", directory=path
        )
    if len(bm25) != len(store):
        raise IndexDamaged(
            path / "bm25", f"holds {len(bm25)} chunks, where the store holds {len(store)}", directory=path
        )


def _dimensions(model: Embedder) -> int:
    if model.dimensions is None:
        return int(model.embed("dimension probe").shape[0])
    return int(model.dimensions)


def embed_chunks(
    model: Embedder, chunks: Sequence[Chunk], *, cache: bool = True, show_progress: bool = False
) -> np.ndarray:
    """Vectors of the chunks' `embed_text`, through the on-disk cache when `cache`."""
    texts = [c.embed_text for c in chunks]
    if not texts:
        return np.zeros((0, _dimensions(model)), dtype=np.float32)
    if not cache:
        return model.embed_many(texts, show_progress=show_progress)
    with EmbeddingCache(model.cache_key) as store:
        return embed_with_cache(model, texts, store, show_progress=show_progress)
