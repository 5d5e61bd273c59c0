"""The one search service behind the HTTP API and the MCP server: validated input, compact output.

Neither front end has logic of its own; both call `SearchService`, which checks limits (raising
`BadRequest` that names the field), reads the current index from `IndexHolder` and shapes results.

Hot reload: the index directory is swapped atomically by every build (`store/atomic.py`), so a
new directory inode or manifest means a complete new index. `IndexHolder.poll` opens it beside the
old one, warms it, and only then replaces the reference; a request holds the index it started
with, so none ever sees a half-loaded one. A failed open (say, the directory was swapped again
while it was read) keeps the old index and is retried at the next poll.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.search.clauses import check_query
from openapi_rag.serve.batching import BothModels, EmbedBatcher, PreparedEmbeddings
from openapi_rag.serve.settings import Limits
from openapi_rag.serve.timing import Stopwatch, add_search_time
from openapi_rag.store.pg_target import PgTarget

logger = logging.getLogger(__name__)

MODES = ("hybrid", "dense", "bm25")
HTTP_METHODS = frozenset({"GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"})
SERVICE_CACHE_SIZE = 32


class BadRequest(OpenAPIRagError):
    """Input outside the limits; `field` names the offending parameter."""

    def __init__(self, field: str, message: str, status: int = 422):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.detail = message
        self.status = status


class NotFound(OpenAPIRagError):
    """No such operation or service in the index."""


def _signature(directory: Path | PgTarget) -> tuple[int, int] | None:
    """Identity of the index now on disk: the directory's inode and the manifest's mtime (for a
    PostgreSQL collection: its id and the generation its last committed update set)."""
    if isinstance(directory, PgTarget):
        from openapi_rag.store.pg_index import generation_of

        return generation_of(directory)
    try:
        return (os.stat(directory).st_ino, os.stat(directory / "manifest.json").st_mtime_ns)
    except OSError:
        return None


@dataclass
class Loaded:
    """An open index and what the service derives from it (the service list on first use)."""

    index: Any
    signature: tuple[int, int] | None
    opened_at: float
    # Services rebuilt from their stored description for `show` (big specs take ~100 ms each).
    service_cache: OrderedDict[str, Any] = field(default_factory=OrderedDict)
    # The searcher's embed function, answering from vectors embedded ahead in a batch; None where
    # the searcher cannot say what it will embed (CRAFT views, a PostgreSQL snapshot's searcher).
    prepared: PreparedEmbeddings | None = None

    @cached_property
    def service_ids(self) -> frozenset[str]:
        return frozenset(source.service for source in self.index.manifest.sources.values())

    @property
    def operations(self) -> int:
        return sum(source.operations for source in self.index.manifest.sources.values())

    @cached_property
    def services(self) -> list[dict[str, Any]]:
        return _services(self.index)


class IndexHolder:
    """The current index of a directory, replaced whole when a rebuild is swapped in."""

    def __init__(self, directory: str | Path | PgTarget, *, embedder: Any = None):
        self.directory = directory if isinstance(directory, PgTarget) else Path(directory)
        self._current = self._open(embedder=embedder)
        self.reloads = 0
        self.reload_failures = 0
        self.on_reload: Callable[[], None] | None = None  # called after each swap (the server's GC)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def current(self) -> Loaded:
        return self._current

    def _open(self, embedder: Any) -> Loaded:
        from openapi_rag.index import Index

        signature = _signature(self.directory)
        index = Index.open(self.directory, embedder=embedder)
        warm(index)
        return Loaded(index, signature, time.time(), prepared=_prepared_embeddings(index))

    def poll(self) -> bool:
        """Swap in a rebuilt index if there is one; True when it did."""
        with self._lock:
            signature = _signature(self.directory)
            # None: mid-swap (no directory for a moment); leave the backup for the writer to finish.
            if signature is None or signature == self._current.signature:
                return False
            try:
                # The embedder object is reused: same model, no second ONNX session.
                loaded = self._open(embedder=self._current.index.embedder)
                _warm_store(loaded.index)  # in this process (a worker after its fork): safe to start sessions
            except Exception as exc:  # keep serving the old index; the next poll retries
                self.reload_failures += 1
                logger.warning("index reload failed, keeping the previous one: %s", exc)
                return False
            if loaded.signature != _signature(self.directory):
                return False  # swapped again while we read it: take the next one
            self._current = loaded
            self.reloads += 1
            logger.info("index reloaded from %s", self.directory)
            if self.on_reload is not None:
                self.on_reload()
            return True

    def watch(self, interval: float) -> None:
        """Poll in a daemon thread every `interval` seconds (0: never)."""
        if interval <= 0 or self._thread is not None:
            return

        def loop() -> None:
            while not self._stop.wait(interval):
                self.poll()

        self._thread = threading.Thread(target=loop, name="index-reload", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()


def _prepared_embeddings(index: Any) -> PreparedEmbeddings | None:
    from openapi_rag.search.searcher import Searcher

    searcher = getattr(index, "searcher", None)
    if type(searcher) is not Searcher or searcher.embed is None or hasattr(index, "_searcher_at"):
        return None
    embed = searcher.embed
    if searcher.embed_both is not None and searcher.static is not None:
        # a batch that the second list reads too runs once through both models (`BothModels`)
        embed = BothModels(embed, searcher.embed_both, searcher.static.remember)
    searcher.embed = prepared = PreparedEmbeddings(embed)
    # The first model's vectors come batched across requests, the second's with them where wanted:
    # one run of both models per request (`Searcher.embed_both`) would embed them again.
    searcher.embed_both = None
    return prepared


def warm(index: Any) -> None:
    """Load what searches read now, not at the first query (and before workers fork, to share it):
    the FAISS index, the chunk heads (`FaissStore.heads`) and the searcher's tables of the catalog
    (producers, API names), which a BM25-only search builds without starting the embedder."""
    from openapi_rag.store.faiss_store import HEADS_CACHE_LIMIT

    store = index.store
    if not len(store):
        return
    if hasattr(store, "_faiss"):
        store._faiss()
    if hasattr(store, "heads") and len(store) <= HEADS_CACHE_LIMIT:
        store.heads(store.ids())
    index.search("warm up", k=1, mode="bm25", expand=False)


def warm_embedder(index: Any) -> None:
    """Start the embedders' sessions (after a fork: ONNX Runtime's threads do not survive one), the
    second embedder's too (`search/views.py`: the first multi-clause request would load it), and
    build what the store builds on first use (a FAISS store's screen for multi-clause requests)."""
    index.embedder.embed("warm up")
    second = getattr(getattr(index, "static", None), "embedder", None)
    if second is not None:
        second.embed("warm up")
    _warm_store(index)


def _warm_store(index: Any) -> None:
    """Build what the store builds on first use (a FAISS store's screen); not before a fork."""
    warm_store = getattr(index.store, "warm", None)  # PostgreSQL has nothing to build
    if warm_store is not None:
        warm_store()


# The title is the record's second key and `info` comes early in nearly every description, so the
# first bytes of each stored record name both: reading and parsing whole records (40 MB for the
# realworld corpus) took ~3 s, paid again by every worker at every reload.
_HEAD_BYTES = 64 * 1024
_TITLE = re.compile(r'^\{"id":"(?:[^"\\]|\\.)*","title":("(?:[^"\\]|\\.)*")')
_INFO = '"info":{'


def _json_object_at(text: str, start: int) -> Any:
    """The JSON object starting at text[start] (a `{`), or None when it does not end within `text`."""
    depth, in_string, escaped = 0, False, False
    for end in range(start, len(text)):
        char = text[end]
        if in_string:
            escaped = not escaped and char == "\\"
            in_string = escaped or char != '"'
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return json.loads(text[start : end + 1])
    return None


def _head_fields(path: Path) -> tuple[str, str]:
    """(title, version) of a stored service record, from its first bytes where they hold them."""
    with open(path, "rb") as handle:
        head = handle.read(_HEAD_BYTES).decode("utf-8", errors="replace")
    title = _TITLE.match(head)
    at = head.find(_INFO)
    info = _json_object_at(head, at + len(_INFO) - 1) if at >= 0 else None
    if info is None:  # `info` placed late (a few big descriptions): read the whole record
        info = (json.loads(path.read_text("utf-8")).get("document") or {}).get("info")
    version = info.get("version") if isinstance(info, dict) else None
    return (json.loads(title.group(1)) if title else "", str(version) if version is not None else "")


def _services(index: Any) -> list[dict[str, Any]]:
    """Each service's id, title, version and operation count."""
    from openapi_rag.index.index import SERVICES_DIR

    if hasattr(index, "service_listing"):  # a PostgreSQL collection keeps titles in columns
        return list(index.service_listing())
    out = []
    for source in index.manifest.sources.values():
        title = version = ""
        try:
            if index.directory is not None:
                title, version = _head_fields(index.directory / SERVICES_DIR / f"{source.service}.json")
            else:
                record = index.service_record(source.service)
                title = str(record.get("title") or "")
                version = str(((record.get("document") or {}).get("info") or {}).get("version") or "")
        except (OpenAPIRagError, OSError, ValueError, AttributeError):
            pass  # a service without a readable description still lists with its id
        out.append(
            {"service": source.service, "title": title, "version": version, "operations": source.operations}
        )
    out.sort(key=lambda s: s["service"])
    return out


def parse_endpoint_id(endpoint_id: str) -> tuple[str | None, str]:
    """`service METHOD /path` or `METHOD /path` → (service or None, `METHOD /path`)."""
    parts = endpoint_id.strip().split(None, 2)
    if len(parts) == 3 and parts[0].upper() not in HTTP_METHODS:
        return parts[0], f"{parts[1].upper()} {parts[2]}"
    if len(parts) == 2 and parts[0].upper() in HTTP_METHODS:
        return None, f"{parts[0].upper()} {parts[1]}"
    raise NotFound(f"{endpoint_id!r} is not an endpoint id: expected 'SERVICE METHOD /path'")


class SearchService:
    """Search, show and list over the current index, within `limits`."""

    def __init__(self, holder: IndexHolder, limits: Limits | None = None):
        self.holder = holder
        self.limits = limits or Limits()
        self.batcher = EmbedBatcher()
        self._cache_lock = threading.Lock()

    # ---- validation ---------------------------------------------------------------------------
    def check_query(self, query: Any, field: str = "q") -> str:
        if not isinstance(query, str) or not query.strip():
            raise BadRequest(field, "must be a non-empty string")
        if len(query) > self.limits.max_query_chars:
            raise BadRequest(field, f"longer than {self.limits.max_query_chars} characters", status=413)
        return query

    def check_k(self, k: Any) -> int:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= self.limits.max_k:
            raise BadRequest("k", f"must be an integer from 1 to {self.limits.max_k}")
        return k

    # ---- operations ---------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        k: int = 10,
        mode: str = "hybrid",
        service: str | None = None,
        tag: str | None = None,
        field: str = "q",
    ) -> list[dict[str, Any]]:
        """Compact hits: id (`service METHOD /path`), summary line, score."""
        query, k = self._checked(query, k, mode, field)
        return self._search(self.holder.current, query, k, mode, service, tag, field)

    async def asearch(
        self,
        query: str,
        *,
        k: int = 10,
        mode: str = "hybrid",
        service: str | None = None,
        tag: str | None = None,
        field: str = "q",
    ) -> list[dict[str, Any]]:
        """As `search`, with the query's texts embedded in one batch with those of the other
        requests waiting on this event loop (`batching.py`); the results are the same."""
        query, k = self._checked(query, k, mode, field)
        loaded = self.holder.current  # the index this request started with, even across a reload
        prepared = loaded.prepared
        if prepared is None:
            return self._search(loaded, query, k, mode, service, tag, field)
        try:  # refused before anything is embedded, as the search itself would refuse it
            check_query(query, loaded.index.query_limits)
        except ValueError as exc:
            raise BadRequest(field, str(exc)) from exc
        searcher = loaded.index.searcher
        texts = searcher.texts_to_embed(query, mode=mode)
        if not texts:
            return self._search(loaded, query, k, mode, service, tag, field)
        if isinstance(prepared.embed, BothModels):
            prepared.embed.wanted.update(searcher.second_texts(query, mode=mode))
        vectors = await self.batcher.embed(prepared.embed, texts)
        prepared.ready = dict(zip(texts, vectors, strict=True))
        try:
            return self._search(loaded, query, k, mode, service, tag, field)
        finally:
            prepared.ready = {}

    def _checked(self, query: Any, k: Any, mode: Any, field: str) -> tuple[str, int]:
        query = self.check_query(query, field)
        k = self.check_k(k)
        if mode not in MODES:
            raise BadRequest("mode", f"must be one of {', '.join(MODES)}")
        return query, k

    def _search(
        self,
        loaded: Loaded,
        query: str,
        k: int,
        mode: str,
        service: str | None,
        tag: str | None,
        field: str,
    ) -> list[dict[str, Any]]:
        clock = Stopwatch()
        try:
            hits = loaded.index.search(
                query, k=k, mode=mode, service=service or None, tag=tag or None, expand=False
            )
        except ValueError as exc:
            raise BadRequest(field, str(exc)) from exc
        finally:
            add_search_time(clock.elapsed())
        return [compact_hit(hit) for hit in hits]

    def get_endpoint(
        self,
        endpoint_id: str,
        *,
        depth: int = 3,
        max_tokens: int | None = 3000,
        errors: bool = False,
        examples: bool = False,
    ) -> dict[str, Any]:
        """The sized `show` view of one operation; ids are looked up, never used as paths."""
        from openapi_rag.refs.view import operation_view

        if len(endpoint_id) > self.limits.max_query_chars:
            raise BadRequest("id", f"longer than {self.limits.max_query_chars} characters", status=413)
        if not 0 <= depth <= 8:
            raise BadRequest("depth", "must be from 0 to 8")
        if max_tokens is not None and not 200 <= max_tokens <= 100_000:
            raise BadRequest("max_tokens", "must be from 200 to 100000")
        service_id, op_id = parse_endpoint_id(endpoint_id)
        loaded = self.holder.current
        known = loaded.service_ids
        if service_id is None:
            service_id = self._only_service(loaded, op_id)
        if service_id not in known:
            raise NotFound(f"no service {service_id!r} in this index; list them with list_services")
        svc = self._service(loaded, service_id)
        op = svc.operation(op_id)
        if op is None:
            raise NotFound(f"no operation {op_id!r} in {service_id}; find it with search_endpoints")
        view = operation_view(op, svc, depth=depth, max_tokens=max_tokens, errors=errors, examples=examples)
        view["id"] = f"{service_id} {op.id}"
        return view

    def services(self) -> list[dict[str, Any]]:
        return self.holder.current.services

    def stats(self) -> dict[str, Any]:
        loaded = self.holder.current
        return {
            "chunks": len(loaded.index),
            "services": len(loaded.service_ids),
            "operations": loaded.operations,
            "reloads": self.holder.reloads,
            "reload_failures": self.holder.reload_failures,
            "opened_at": loaded.opened_at,
        }

    # ---- helpers ------------------------------------------------------------------------------
    def _only_service(self, loaded: Loaded, op_id: str) -> str:
        if len(loaded.service_ids) == 1:
            return next(iter(loaded.service_ids))
        raise NotFound(f"{op_id!r}: name the service too, as 'SERVICE {op_id}' (ids from search_endpoints)")

    def _service(self, loaded: Loaded, service_id: str) -> Any:
        cache = loaded.service_cache
        with self._cache_lock:
            if service_id in cache:
                cache.move_to_end(service_id)
                return cache[service_id]
        svc = loaded.index.service(service_id, cache=False)  # bounded here, not for the index's life
        with self._cache_lock:
            cache[service_id] = svc
            while len(cache) > SERVICE_CACHE_SIZE:
                cache.popitem(last=False)
        return svc


def compact_hit(hit: Any) -> dict[str, Any]:
    """One line's worth per hit: about 30 tokens, so ten results stay a few hundred."""
    summary = (hit.summary or "").strip().splitlines()
    line = summary[0] if summary else ""
    return {
        "id": f"{hit.service} {hit.method} {hit.path}",
        "service": hit.service,
        "method": hit.method,
        "path": hit.path,
        "summary": line[:160],
        "score": round(float(hit.score), 4),
    }
