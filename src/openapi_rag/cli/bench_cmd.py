"""`openapi-rag bench ...`: the project's own speed and memory measurements."""

from __future__ import annotations

import resource
import sys
import time

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import handle_errors, parse_clean, print_json


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KiB)."""
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kib / 1024 if sys.platform != "darwin" else kib / 1024 / 1024


@cli.group()
def bench() -> None:
    """Measure speed and memory on a corpus (figures for notes and the README)."""


@bench.command("load")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--clean", default=None, help="Cleaning steps to apply while loading (default: none).")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def bench_load(paths: tuple[str, ...], clean: str | None, json_: bool) -> None:
    """Time loading every API description under PATHS (single process) and report peak memory."""
    from openapi_rag.spec import load_services

    steps = parse_clean(clean)
    start = time.perf_counter()
    result = load_services(paths, clean=steps)
    seconds = time.perf_counter() - start
    report = {
        "services": len(result.services),
        "failed": len(result.failed),
        "operations": sum(len(s.operations) for s in result.services),
        "schemas": sum(len(s.schemas) for s in result.services),
        "seconds": round(seconds, 2),
        "operations_per_second": round(sum(len(s.operations) for s in result.services) / seconds, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }
    if json_:
        print_json(report)
    else:
        click.echo(
            f"loaded {report['services']} services ({report['failed']} failed), {report['operations']} operations, "
            f"{report['schemas']} schemas in {report['seconds']} s; peak memory {report['peak_rss_mb']} MB"
        )
