"""Run the HTTP API with uvicorn: one process, or N workers forked after the index is loaded.

Why fork ourselves instead of `uvicorn --workers`: uvicorn starts workers with `spawn`, so each
would load its own copy of the index. Here the parent opens the index (vectors, FAISS index, BM25,
chunk table) once, binds the socket, then forks; the workers share those pages copy-on-write and
accept from the one socket. The embedder's ONNX session is started in each worker after the fork
(its thread pool would not survive one), single-threaded, since the workers already fill the cores.
After a hot reload each worker opens the new index on its own, so until the next restart the new
copy is private to each worker (the cost: one index's memory per worker; `bench serve` reports it).
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import socket
import sys
import tempfile
from typing import Any

from openapi_rag.serve.balance import ConnectionBalancer, ConnectionCounts
from openapi_rag.serve.settings import ServeSettings
from openapi_rag.store.pg_target import PgTarget

logger = logging.getLogger(__name__)


def embedder_for_workers(index_dir: Any) -> Any:
    """The index's embedder configured single-threaded, or None when it takes no such option."""
    from openapi_rag.embed import get_embedder
    from openapi_rag.errors import EmbedderError
    from openapi_rag.index.manifest import Manifest
    from openapi_rag.store.atomic import resolve_dir

    if isinstance(index_dir, PgTarget):
        from openapi_rag.store.pg_index import embedder_name

        name = embedder_name(index_dir)
    else:
        name = Manifest.read(resolve_dir(index_dir)).embedder
    try:
        return get_embedder(name, threads=1)
    except EmbedderError:
        return None


def _single_threaded_faiss() -> None:
    import faiss

    faiss.omp_set_num_threads(1)


def build(settings: ServeSettings, *, embedder: Any = None) -> tuple[Any, Any]:
    """(holder, ASGI app) for `settings`; the index is opened here."""
    from openapi_rag.serve.http_app import create_app
    from openapi_rag.serve.service import IndexHolder, SearchService

    holder = IndexHolder(settings.index_dir, embedder=embedder)
    return holder, lambda: create_app(SearchService(holder, settings.limits), settings)


def uvicorn_server(app: Any, settings: ServeSettings) -> Any:
    import uvicorn

    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level="warning",
        access_log=False,  # keys may sit in headers; nothing per request is logged
        server_header=False,
        timeout_keep_alive=30,
        limit_concurrency=1024,
    )
    return uvicorn.Server(config)


def serve_http(settings: ServeSettings, *, on_ready: Any = None) -> None:
    """Serve until interrupted. `on_ready(host, port)` is called once the socket listens."""
    from openapi_rag.serve.service import warm_embedder

    settings.check()
    embedder = embedder_for_workers(settings.index_dir) if settings.workers > 1 else None
    if settings.workers > 1:
        # Before any metrics object exists: workers write their samples to files here.
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="openapi-rag-metrics-"))
    holder, make_app = build(settings, embedder=embedder)
    sock = bind_socket(settings.host, settings.port)
    port = sock.getsockname()[1]
    if on_ready:
        on_ready(settings.host, port)
    holder.on_reload = refreeze
    if settings.workers == 1:
        warm_embedder(holder.current.index)
        gc.freeze()
        holder.watch(settings.reload_interval)
        uvicorn_server(make_app(), settings).run(sockets=[sock])
        return
    counts = ConnectionCounts(settings.workers)
    # The index's objects, loaded once, move out of the collector's reach: a full collection no
    # longer walks them (a pause of tens of ms in the middle of some request), and it no longer
    # writes to their pages, which would turn the pages the workers share into private copies.
    gc.freeze()
    children = []
    for slot in range(settings.workers):
        pid = os.fork()
        if pid == 0:  # worker
            code = 0
            try:
                _single_threaded_faiss()
                warm_embedder(holder.current.index)
                holder.watch(settings.reload_interval)
                _balanced_server(make_app(), settings, counts, slot).run(sockets=[sock])
            except BaseException:  # noqa: BLE001 - a worker reports and exits, never returns to the parent's code
                logger.exception("worker failed")
                code = 1
            finally:
                os._exit(code)
        children.append(pid)
    sock.close()
    # The workers hold the index now (shared pages); once they swap in a rebuilt one, only the
    # parent would still keep the old copy resident.
    gc.unfreeze()
    del holder, make_app
    gc.collect()
    _supervise(children)


def refreeze() -> None:
    """After a reload: let the collector free the previous index (a cycle of objects the frozen
    generation would keep forever), then freeze the new one. Runs in the reload thread; the full
    collection pauses the worker once per reload, like the reload itself."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def _balanced_server(app: Any, settings: ServeSettings, counts: ConnectionCounts, slot: int) -> Any:
    """A worker's uvicorn server, shedding keep-alive connections beyond its share (`balance.py`)."""
    balancer = ConnectionBalancer(app, counts, slot, lambda: len(server.server_state.connections))
    server = uvicorn_server(balancer, settings)
    balancer.start_refresh()
    return server


def _supervise(children: list[int]) -> None:
    """Forward SIGINT/SIGTERM to the workers; when one dies, stop the rest (a clear failure)."""

    def stop(signum: int, _frame: Any) -> None:
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    failed = False
    remaining = set(children)
    while remaining:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        except InterruptedError:
            continue
        remaining.discard(pid)
        if os.waitstatus_to_exitcode(status) not in (0, -signal.SIGTERM) and remaining:
            failed = True
            print(f"worker {pid} exited ({os.waitstatus_to_exitcode(status)}); stopping", file=sys.stderr)
            stop(signal.SIGTERM, None)
    if failed:
        raise SystemExit(1)


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP spelled out: asyncio sets TCP_NODELAY only on sockets whose proto says TCP, and
    # without it Nagle holds each response body for the client's delayed ACK (+40 ms a request).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock
