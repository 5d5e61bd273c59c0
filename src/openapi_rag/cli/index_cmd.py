"""`openapi-rag index`: build or update an index directory."""

from __future__ import annotations

from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import (
    allow_refs_option,
    err,
    handle_errors,
    llm_option,
    parse_clean,
    print_json,
    progress_enabled,
)
from openapi_rag.cli.sql_options import store_table_chunks
from openapi_rag.cli.store_options import index_or_store_options
from openapi_rag.store.pg_target import PgTarget


@cli.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@index_or_store_options("Index directory (created or updated).")
@click.option(
    "-s", "--strategy", default=None, help="Chunking strategy (default: compact; `openapi-rag chunk --help`)."
)
@click.option(
    "-e",
    "--embedder",
    default=None,
    envvar="OPENAPI_RAG_EMBEDDER",
    help="Embedding model (default: the index's own, else minilm, offline; env OPENAPI_RAG_EMBEDDER).",
)
@llm_option("LLM writing the texts of summary, query and craft (default: $OPENAPI_RAG_LLM, else local).")
@click.option(
    "--clean",
    default=None,
    help="Cleaning steps, e.g. 'default', 'all', 'none', 'html,markdown' "
    "(default: the index's own; 'default' for a new index: HTML, markdown, examples, base64, URLs).",
)
@click.option("--size", type=int, default=None, help="Chunk size in tokens (strategy default).")
@click.option("--overlap", type=int, default=None, help="Chunk overlap in tokens (strategy default).")
@click.option(
    "--index-type",
    type=click.Choice(["flat", "hnsw"]),
    default=None,
    help="Vector index: exact flat (default) or approximate HNSW for very large catalogs.",
)
@click.option("--rebuild", is_flag=True, help="Ignore any existing index and build from scratch.")
@click.option(
    "--wait", is_flag=True, help="If another process is updating the index, wait for it instead of stopping."
)
@click.option(
    "--db",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="Also store this database's table chunks in the index (DDL or .sqlite; see `schema index`).",
)
@click.option(
    "--views-llm",
    default=None,
    metavar="NAME",
    help="LLM that writes, once per operation, short requests in users' words; BM25 reads them and "
    "they are embedded as views (strategy compact; cached; see README 'User-phrased views').",
)
@click.option(
    "--expansion",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Words per operation that the bundled SPLADE model says it implies, added to what BM25 reads "
    "(strategy compact; 0: none, the default; see README 'Learned sparse expansion').",
)
@click.option(
    "--expansion-min-weight",
    type=click.FloatRange(min=0),
    default=1.0,
    show_default=True,
    help="The least SPLADE weight an implied word needs (with --expansion).",
)
@click.option(
    "--jargon",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Users' words per operation for the API terms it contains, from the bundled lexicon of API "
    "jargon (guild: server; dispute: chargeback), added to what BM25 reads (strategy compact; "
    "0: none; see README 'A lexicon of API jargon').",
)
@click.option(
    "--jargon-embed/--no-jargon-embed",
    default=False,
    help="With --jargon: the embedded line also ends with those words.",
)
@click.option(
    "--jargon-weight",
    type=click.FloatRange(min=0),
    default=None,
    metavar="W",
    help="With --jargon: the words go on a text of their own, searched as a list of its own at this "
    "weight in hybrid mode, and BM25's own text is left as it is (0.25 passed the tuning rule by a "
    "hair; README); recorded.",
)
@click.option(
    "--second-embedder",
    default=None,
    metavar="NAME",
    help="Another embedder whose list the hybrid search fuses beside the first's (fine-tuned on "
    "requests in users' words; README 'The fine-tuned embedder as a second list'). A new index with "
    "the default embedder gets minilm-users; kept by later updates; 'none' drops it.",
)
@click.option(
    "--second-scope",
    type=click.Choice(["intents", "every", "whole", "one_intent", "sentences"]),
    default=None,
    help="Which texts of a request the second list serves: 'sentences' (the default: clauses, a "
    "focused intent, and the whole text of a one-sentence request that names no particular thing), "
    "'intents' (clauses and focused intent only; the default before session 18) or 'every' (every "
    "request's whole text too); recorded.",
)
@click.option(
    "--second-whole-weight",
    type=click.FloatRange(min=0),
    default=None,
    metavar="W",
    help="The second list's weight on a whole request where --second-scope serves it (default 1.25, "
    "chosen under the tuning rule, as on its other texts); recorded.",
)
@click.option(
    "--second-flat-weight",
    type=click.FloatRange(min=0),
    default=None,
    metavar="W",
    help="The second list's weight on a whole request whose words single out no operation (BM25's "
    "best within 5% of its second; default 10, chosen under the tuning rule; 0: off); recorded. An "
    "index built before it keeps it off until this is given.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Processes that read the descriptions (default: one per usable core; 1: this process "
    "only). The index is the same whatever N.",
)
@click.option("--json", "json_", is_flag=True, help="Print the report as JSON.")
@allow_refs_option()
@handle_errors
def index(
    paths: tuple[str, ...],
    index_dir: str,
    strategy: str | None,
    embedder: str | None,
    llm_name: str | None,
    clean: str | None,
    size: int | None,
    overlap: int | None,
    index_type: str | None,
    rebuild: bool,
    wait: bool,
    db: str | None,
    views_llm: str | None,
    expansion: int | None,
    expansion_min_weight: float,
    jargon: int | None,
    jargon_embed: bool,
    jargon_weight: float | None,
    second_embedder: str | None,
    second_scope: str | None,
    second_whole_weight: float | None,
    second_flat_weight: float | None,
    workers: int | None,
    json_: bool,
    allow_refs: tuple[str, ...],
) -> None:
    """Index the API descriptions under PATHS for search.

    Re-running on the same inputs embeds nothing again; changed specs are re-processed, deleted
    ones removed. An interrupted run leaves the previous index intact. One process writes an
    index at a time: a second one stops (or, with --wait, waits); searches are never blocked.

    Exit status is 1 when nothing could be indexed (no API description found, or every one failed).

    \b
    Examples:
      openapi-rag index specs/ --index idx/
      openapi-rag index specs/ --index idx/ --strategy ref-linked --clean default
      openapi-rag index specs/ --index idx/ --strategy craft --llm openai:gpt-4o-mini
      openapi-rag index specs/ --index idx/ --db schema.sql    # + table chunks for sql/ask
      openapi-rag index specs/ --index idx/ --views-llm openai:gpt-4o-mini
      openapi-rag index specs/ --index idx/ --expansion 8
      openapi-rag index specs/ --index idx/ --jargon 16 [--jargon-weight 0.25]
      openapi-rag index specs/ --index idx/ --second-embedder minilm-users [--second-scope every]
    """
    from openapi_rag.chunking.llm_strategies import default_llm, is_llm_strategy
    from openapi_rag.errors import NothingIndexed
    from openapi_rag.index import build_index

    if db and isinstance(index_dir, PgTarget):  # refused before anything is written
        raise click.UsageError(
            "--db stores table chunks in an index directory; it does not apply with --store"
        )
    if llm_name is not None and strategy is not None and not is_llm_strategy(strategy):
        raise click.UsageError(
            f"--llm applies to the LLM strategies (summary, query, craft), not {strategy!r}"
        )
    if views_llm is not None and (strategy or "compact") != "compact":
        raise click.UsageError(f"--views-llm applies to the compact strategy, not {strategy!r}")
    if expansion is not None and (strategy or "compact") != "compact":
        raise click.UsageError(f"--expansion applies to the compact strategy, not {strategy!r}")
    if jargon is not None and (strategy or "compact") != "compact":
        raise click.UsageError(f"--jargon applies to the compact strategy, not {strategy!r}")
    params: dict[str, object] = {"views_llm": views_llm} if views_llm else {}
    if expansion is not None:  # 0 turns a recorded expansion off
        params |= {"expansion": expansion, "expansion_min_weight": expansion_min_weight}
    if jargon is not None:  # 0 turns recorded jargon off
        params |= {"jargon": jargon, "jargon_embed": jargon_embed, "jargon_list": jargon_weight is not None}
    elif jargon_weight is not None:
        raise click.UsageError("--jargon-weight applies with --jargon N")
    try:
        with default_llm(llm_name):  # recorded in the manifest with the strategy's parameters
            report = build_index(
                paths,
                index_dir,
                strategy=strategy,
                embedder=embedder,
                clean=parse_clean(clean),
                size=size,
                overlap=overlap,
                index_type=index_type,
                rebuild=rebuild,
                show_progress=progress_enabled(),
                wait=wait,
                allow_refs=allow_refs,
                strategy_params=params or None,
                second_embedder=second_embedder,
                second_scope=second_scope,
                second_whole_weight=second_whole_weight,
                second_flat_weight=second_flat_weight,
                workers=workers,
                jargon_weight=jargon_weight,
            )
    except NothingIndexed as exc:
        _print_failures(exc.failed)
        raise
    except ValueError as exc:  # unknown strategy or bad size/overlap
        raise click.UsageError(str(exc)) from exc
    tables = store_table_chunks(index_dir, db, wait) if db else None
    if json_:
        print_json(report.to_dict() | ({"tables": tables} if tables is not None else {}))
    else:
        click.echo(
            f"{index_dir}: {len(report.added)} added, {len(report.changed)} changed, {len(report.unchanged)} unchanged, "
            f"{len(report.removed)} removed, {len(report.failed)} failed; {report.operations} operations in "
            f"{report.chunks} chunks ({report.chunks_new} new) in {report.seconds} s"
        )
    _print_failures(report.failed)


def _print_failures(failed: list[dict[str, Any]]) -> None:
    for failure in failed:
        where = f" ({failure['where']})" if failure.get("where") else ""
        err(f"FAILED {failure['file']}{where}: {failure['error']}")
