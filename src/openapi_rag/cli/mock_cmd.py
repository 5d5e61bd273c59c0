"""`openapi-rag mock`: a validating mock server for every operation of an index or of spec files."""

from __future__ import annotations

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors
from openapi_rag.serve.settings import is_loopback


@cli.command()
@click.argument("specs", nargs=-1, type=click.Path(exists=True))
@click.option("-i", "--index", "index_dir", envvar="OPENAPI_RAG_INDEX", type=click.Path(), default=None,
              help="Index directory whose services to mock (or give SPECS).")  # fmt: skip
@click.option("--port", type=int, default=8765, show_default=True, help="Port (0: any free one).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (loopback by default).")
@click.option("--key", envvar="OPENAPI_RAG_MOCK_KEY", default=None,
              help="Bearer key every request must carry; required to bind beyond loopback.")  # fmt: skip
@handle_errors
def mock(specs: tuple[str, ...], index_dir: str | None, port: int, host: str, key: str | None) -> None:
    """Answer every operation of the indexed services, validating each request.

    A valid request gets the operation's success status and a body from its response example or
    schema; an invalid one 400 (parameters), 404 (path), 405 (method) or 422 (body) with the reason.
    `X-Mock-Service: ID` picks the service when several have the path.

    \b
    Examples:
      openapi-rag mock --index idx/ --port 8765
      openapi-rag mock specs/spotify.json specs/tmdb.json
      curl -X POST localhost:8765/playlists/3cEY/tracks -d '{"uris": ["spotify:track:4iV5"]}'
    """
    from openapi_rag.generate.call.mock import MockAPI, MockServer

    if bool(specs) == bool(index_dir):
        raise click.UsageError("give either --index DIR or SPECS")
    if not is_loopback(host) and not key:
        raise click.UsageError(f"binding to {host} exposes the mock beyond this machine: pass --key KEY")
    if specs:
        from openapi_rag.spec import load_services

        result = load_services(list(specs))
        for failure in result.failed:
            where = f" ({failure.where})" if failure.where else ""
            err(f"FAILED {failure.file}{where}: {failure.error}")
        api = MockAPI(result.services, key=key)
    else:
        from openapi_rag.index import Index

        api = MockAPI.from_index(Index.open(index_dir), key=key)
    count = len(api.services)
    server = MockServer(api, host=host, port=port, log=True)
    err(f"mock of {count} services on {server.url} (Ctrl-C stops it)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
