"""`openapi-rag demo`: the main job on the example catalog shipped in the package, offline."""

from __future__ import annotations

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import handle_errors


@cli.command()
@handle_errors
def demo() -> None:
    """Load the bundled example catalog and show what openapi-rag sees in it."""
    from openapi_rag.data import CATALOG
    from openapi_rag.spec import load_services

    result = load_services([CATALOG])
    click.echo(f"Example catalog: {CATALOG}")
    for s in result.services:
        click.echo(f"  {s.id:28} {s.format:8} {len(s.operations):3} operations  {s.title}")
    ops = sum(len(s.operations) for s in result.services)
    click.echo(f"{len(result.services)} services, {ops} operations, {len(result.failed)} failed")
