"""`openapi-rag demo`: the main job on the example catalog shipped in the package, offline."""

from __future__ import annotations

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import handle_errors, progress_enabled

DEMO_QUERIES = (
    "create a new playlist for a user and add tracks to it",
    "find businesses near a location",
    "estimate the price of a ride",
    "look up information about a phone number",
    "buy tickets for a museum event",
)


@cli.command()
@click.option(
    "-i",
    "--index",
    "index_dir",
    default="demo-index",
    show_default=True,
    type=click.Path(),
    help="Where to build the demo index.",
)
@click.option("-k", "k", default=3, show_default=True, help="Results per query.")
@handle_errors
def demo(index_dir: str, k: int) -> None:
    """Index the bundled example catalog and answer example queries, offline.

    The first run embeds about 300 chunks (a minute on two cores); later runs reuse the index and the
    embedding cache.
    """
    from openapi_rag.data import CATALOG
    from openapi_rag.index import Index, build_index

    click.echo(f"Indexing the example catalog {CATALOG} into {index_dir}/ ...")
    report = build_index([CATALOG], index_dir, show_progress=progress_enabled())
    click.echo(
        f"{len(report.added) + len(report.changed) + len(report.unchanged)} services, {report.operations} operations, "
        f"{report.chunks} chunks ({report.chunks_new} embedded now) in {report.seconds} s"
    )
    index = Index.open(index_dir)
    for query in DEMO_QUERIES:
        click.echo(f"\n$ openapi-rag search {query!r} --index {index_dir} -k {k}")
        for rank, hit in enumerate(index.search(query, k=k), 1):
            summary = (hit.summary or "").strip().splitlines()[0] if (hit.summary or "").strip() else ""
            click.echo(f"{rank:3}. {hit.service:20} {hit.id:45} {summary}")
    click.echo(f"\nTry: openapi-rag show 'POST /users/{{user_id}}/playlists' --index {index_dir}")
