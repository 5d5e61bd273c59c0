"""The `openapi-rag` command line.

\b
Quick start:
  openapi-rag inspect specs/               # what is in a folder of API descriptions
  openapi-rag index specs/ --index idx/    # build a searchable index
  openapi-rag search "create a playlist" --index idx/
"""

from __future__ import annotations

import click

from openapi_rag import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, help=__doc__)
@click.version_option(__version__, prog_name="openapi-rag")
def cli() -> None:
    pass


def _register() -> None:
    # Each command group lives in its own module; importing it attaches the commands to `cli`.
    from openapi_rag.cli import (  # noqa: F401
        ask_cmd,
        bench_chunk_cmd,
        bench_cmd,
        bench_generate_cmd,
        bench_index_cmd,
        bench_serve_cmd,
        bench_store_cmd,
        call_cmd,
        chunk_cmd,
        collections_cmd,
        compose_cmd,
        convert_cmd,
        crawl_cmd,
        demo_cmd,
        discover_cmd,
        eval_calls_cmd,
        eval_cmd,
        eval_crawl_cmd,
        eval_sql_cmd,
        index_cmd,
        inspect_cmd,
        llm_cmd,
        mcp_cmd,
        mock_cmd,
        schema_cmd,
        search_cmd,
        serve_cmd,
        sql_cmd,
    )


_register()
