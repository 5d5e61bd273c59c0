"""`openapi-rag serve`: the HTTP API over an index."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors
from openapi_rag.cli.store_options import index_or_store_options
from openapi_rag.serve.settings import Limits, ServeSettings
from openapi_rag.store.pg_target import PgTarget

SERVER_EXTRA_HINT = 'the HTTP API needs the `server` extra: pip install "openapi-rag[server]"'


def require(modules: tuple[str, ...], hint: str) -> None:
    """Exit with the install command when an optional dependency is missing."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise click.ClickException(f"{', '.join(missing)} not installed: {hint}")


def security_options(func: Any) -> Any:
    """Options shared by `serve` and `mcp --transport http`: keys, rate limit, CORS."""
    for option in reversed(
        [
            click.option(
                "--key-file",
                type=click.Path(dir_okay=False),
                default=None,
                help="File with API keys, one per line (or env OPENAPI_RAG_API_KEY / OPENAPI_RAG_API_KEY_FILE). "
                "Required unless --host is loopback.",
            ),
            click.option(
                "--rate", type=float, default=Limits.rate_per_second, show_default=True, help="Requests per second per key."
            ),
            click.option("--burst", type=int, default=Limits.rate_burst, show_default=True, help="Burst size per key."),
            click.option(
                "--cors-origin",
                "cors_origins",
                multiple=True,
                help="Allow browser calls from this origin (repeatable; CORS is off by default).",
            ),
        ]
    ):
        func = option(func)
    return func


def http_url(host: str, port: int) -> str:
    """The URL a server bound to (host, port) answers at (an IPv6 address in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def make_settings(
    index_dir: str | PgTarget,
    host: str,
    port: int,
    workers: int,
    key_file: str | None,
    rate: float,
    burst: int,
    cors_origins: tuple[str, ...],
    reload_interval: float = ServeSettings.reload_interval,
) -> Any:
    from openapi_rag.serve.settings import load_keys

    if rate <= 0 or burst < 1:
        raise click.UsageError("--rate must be positive and --burst at least 1")
    return ServeSettings(
        index_dir=index_dir if isinstance(index_dir, PgTarget) else Path(index_dir),
        host=host,
        port=port,
        workers=workers,
        keys=load_keys(key_file),
        limits=Limits(rate_per_second=rate, rate_burst=burst),
        cors_origins=cors_origins,
        reload_interval=reload_interval,
    )


@cli.command()
@index_or_store_options()
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to bind (non-loopback needs a key)."
)
@click.option("--port", type=int, default=8000, show_default=True, help="Port (0: any free port).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Worker processes.")
@click.option(
    "--reload-interval",
    type=float,
    default=ServeSettings.reload_interval,
    show_default=True,
    help="Seconds between checks for a rebuilt index (0: never reload).",
)
@security_options
@handle_errors
def serve(
    index_dir: str,
    host: str,
    port: int,
    workers: int,
    reload_interval: float,
    key_file: str | None,
    rate: float,
    burst: int,
    cors_origins: tuple[str, ...],
) -> None:
    """Serve the index over HTTP: /search, /operations/..., /services, /healthz, /metrics.

    \b
    Examples:
      openapi-rag serve --index idx/                       # http://127.0.0.1:8000
      openapi-rag serve --index idx/ --workers 2 --port 9000
      OPENAPI_RAG_API_KEY=... openapi-rag serve --index idx/ --host 0.0.0.0
      curl 'http://127.0.0.1:8000/search?q=create+a+playlist&k=5'

    A rebuilt index (`openapi-rag index` into the same directory) is picked up without a restart.
    """
    require(("fastapi", "uvicorn", "prometheus_client"), SERVER_EXTRA_HINT)
    from openapi_rag.serve.runner import serve_http

    settings = make_settings(
        index_dir, host, port, workers, key_file, rate, burst, cors_origins, reload_interval
    )

    def ready(bound_host: str, bound_port: int) -> None:
        keyed = "API key required" if settings.keys else "no key (loopback only)"
        err(f"serving {settings.index_dir} on {http_url(bound_host, bound_port)} ({workers} worker(s), {keyed})")

    serve_http(settings, on_ready=ready)
