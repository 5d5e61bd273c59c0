"""`openapi-rag search` and `openapi-rag show`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import (
    err,
    handle_errors,
    llm_option,
    print_json,
    print_json_line,
    query_limit_options,
)
from openapi_rag.cli.store_options import index_or_store_options
from openapi_rag.search.clauses import QueryLimits


class ResultCount(click.ParamType):
    """A positive number of results, or "auto" (the index decides from the scores)."""

    name = "N|auto"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | str:
        if isinstance(value, int) or str(value).strip().lower() == "auto":
            return value if isinstance(value, int) else "auto"
        try:
            number = int(value)
        except ValueError:
            self.fail(f"{value!r} is neither a number nor 'auto'", param, ctx)
        if number < 1:
            self.fail("must be at least 1", param, ctx)
        return number


def hit_dict(hit: Any, rank: int) -> dict[str, Any]:
    data = hit.to_dict()
    data["rank"] = rank
    data["summary"] = (data.get("summary") or "").strip()
    return data


@cli.command()
@click.argument("query", required=False)
@index_or_store_options()
@click.option(
    "-k",
    "--k",
    "k",
    type=ResultCount(),
    default=10,
    show_default=True,
    help='How many operations to return, or "auto": as many as the scores say are relevant.',
)
@click.option(
    "-m", "--mode", type=click.Choice(["hybrid", "dense", "bm25"]), default="hybrid", show_default=True
)
@click.option(
    "--threshold",
    type=float,
    default=None,
    help="Return every operation with cosine similarity >= X instead of the top k (shown as `cos`).",
)
@click.option("--service", "services", multiple=True, help="Only these services (repeatable).")
@click.option("--tag", "tags", multiple=True, help="Only operations with these tags (repeatable).")
@click.option("--no-expand", is_flag=True, help="Do not attach linked schema/error/security chunks.")
@click.option("--queries", type=click.File("r"), default=None, help='JSONL file of {"query": ...} lines.')
@click.option(
    "--spec",
    "spec",
    type=click.Path(exists=True),
    default=None,
    help="Find the services that best match a whole OpenAPI document.",
)
@click.option(
    "--policy",
    type=click.Choice(["self-rag", "corag"]),
    default=None,
    help="Let an LLM filter the results (self-rag) or retrieve in rounds of sub-queries (corag).",
)
@llm_option("LLM for --policy (default: configured).")
@click.option(
    "-e",
    "--embedder",
    default=None,
    envvar="OPENAPI_RAG_EMBEDDER",
    help="The index's embedder, named to allow a remote one (env OPENAPI_RAG_EMBEDDER).",
)
@query_limit_options
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def search(
    query: str | None,
    index_dir: str,
    k: int | str,
    mode: str,
    threshold: float | None,
    services: tuple[str, ...],
    tags: tuple[str, ...],
    no_expand: bool,
    queries: Any,
    spec: str | None,
    policy: str | None,
    llm_name: str | None,
    embedder: str | None,
    max_query_chars: int,
    max_clauses: int,
    json_: bool,
) -> None:
    """Find the operations that answer QUERY.

    \b
    Examples:
      openapi-rag search "create a playlist" --index idx/
      openapi-rag search "refund a payment" --index idx/ -k 5 --mode dense --json
      openapi-rag search "cast of Titanic" --index idx/ --k auto
      openapi-rag search --queries tasks.jsonl --index idx/ --json
      openapi-rag search --spec generated.yaml --index idx/
      openapi-rag search "refund a payment" --index idx/ --policy self-rag --llm openai

    With --queries, a line that is not {"query": "..."} (or holds an empty query) is reported on
    stderr with its number and skipped; the other queries still run, and the exit status is 1.
    With --threshold in hybrid mode, the score shown is the cosine similarity the cut was made on.
    """
    from openapi_rag.index import Index

    given = sum(x is not None for x in (query, queries, spec))
    if given != 1:
        raise click.UsageError("give exactly one of QUERY, --queries FILE or --spec FILE")
    if llm_name is not None and policy is None:
        raise click.UsageError("--llm only applies with --policy")
    if policy is not None and spec is not None:
        raise click.UsageError("--policy applies to QUERY or --queries, not --spec")
    index = Index.open(index_dir, embedder=embedder)
    index.query_limits = QueryLimits(max_chars=max_query_chars, max_clauses=max_clauses)
    if spec is not None:
        if not isinstance(k, int):
            raise click.UsageError("--spec needs a number for -k, not 'auto'")
        _search_spec(index, Path(spec), threshold, k, json_)
        return
    options = dict(
        k=k,
        mode=mode,
        threshold=threshold,
        service=list(services) or None,
        tag=list(tags) or None,
        expand=not no_expand,
    )
    run = _policy_search(index, options, policy, llm_name) if policy else None

    def find(text: str) -> list[Any]:
        return run(text) if run else index.search(text, **options)

    # With a threshold the cut is on cosine similarity: show that score, not the fused one.
    shown = "dense" if threshold is not None else "score"
    try:
        if queries is not None:
            _run_batch(queries, find, json_, shown)
            return
        hits = find(str(query))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    if json_:
        print_json([hit_dict(h, r) for r, h in enumerate(hits, 1)])
    else:
        _print_hits(hits, shown)


def _run_batch(lines: Any, find: Any, json_: bool, shown: str) -> None:
    """Run every query of a JSONL file; report bad lines by number, run the rest, then exit 1."""
    from openapi_rag.errors import InvalidQuery

    bad = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            data = None
        text = data.get("query") if isinstance(data, dict) else None
        if not isinstance(text, str):
            bad += 1
            err(f'--queries line {number}: expected {{"query": "..."}}; skipped')
            continue
        try:
            hits = find(text)
        except InvalidQuery as exc:
            bad += 1
            err(f"--queries line {number}: {exc}; skipped")
            continue
        if json_:
            print_json_line({"query": text, "results": [hit_dict(h, r) for r, h in enumerate(hits, 1)]})
        else:
            click.echo(f"# {text}")
            _print_hits(hits, shown)
    if bad:
        raise click.ClickException(f"{bad} line(s) of --queries could not be searched (see above)")


def _policy_search(index: Any, options: dict[str, Any], policy: str, llm_name: str | None) -> Any:
    """``text -> hits`` through the Self-RAG filter or CoRAG; each query's LLM cost goes to stderr."""
    from openapi_rag.agents.policies import CoRAG, SelfRAGFilter
    from openapi_rag.llm import get_llm

    llm = get_llm(llm_name)
    k = options["k"]

    def run(text: str) -> list[Any]:
        if policy == "self-rag":
            result = SelfRAGFilter(llm).filter(text, index.search(text, **options))
        else:
            # CoRAG retrieves per sub-query; "auto" there would let each round's list grow unbounded.
            search = lambda q, n: index.search(q, **{**options, "k": n})  # noqa: E731
            result = CoRAG(llm, search, k=k if isinstance(k, int) else 5).run(text)
        err(
            f"{policy}: {result.calls} LLM call(s), {result.usage.prompt_tokens} prompt + "
            f"{result.usage.completion_tokens} completion tokens, {result.parse_failures} unreadable"
        )
        return result.hits

    return run


def _print_hits(hits: list[Any], shown: str = "score") -> None:
    if not hits:
        click.echo("no operations found")
    for rank, hit in enumerate(hits, 1):
        summary = (hit.summary or "").strip().splitlines()[0] if (hit.summary or "").strip() else ""
        copies = f"  (also in {', '.join(hit.also_in)})" if hit.also_in else ""
        score = hit.dense_score if shown == "dense" and hit.dense_score is not None else hit.score
        label = "cos " if shown == "dense" else ""
        click.echo(f"{rank:3}. {label}{score:.4f}  {hit.service}  {hit.id}  {summary}{copies}")
        for linked in hit.linked:
            click.echo(f"       ↳ {linked.kind}: {linked.chunk_id}")


def _search_spec(index: Any, spec: Path, threshold: float | None, k: int, json_: bool) -> None:
    from openapi_rag.index.spec_query import DEFAULT_SPEC_THRESHOLD, match_spec

    threshold = DEFAULT_SPEC_THRESHOLD if threshold is None else threshold
    result = match_spec(index, spec, threshold=threshold, k=k)
    if json_:
        print_json(result)
        return
    matches = result["matches"]
    passing = [m for m in matches if m["passes"]]
    for rank, m in enumerate(matches, 1):
        mark = "✓" if m["passes"] else " "
        click.echo(
            f"{rank:3}. {mark} {m['score']:.3f}  {m['service']}  ({m['covered']}/{m['query_operations']} "
            f"operations matched)"
        )
    if not passing:
        click.echo(
            f"No existing service matches {spec} above the threshold {threshold}: generate the service."
        )


@cli.command()
@click.argument("operation")
@index_or_store_options()
@click.option("--service", default=None, help="The service, when the path exists in several.")
@click.option("--depth", type=int, default=3, show_default=True, help="How deep schemas are expanded.")
@click.option(
    "--max-tokens",
    type=click.IntRange(min=100),
    default=3000,
    show_default=True,
    help="Fit the view to about this many tokens (cl100k); view.left_out says what was cut.",
)
@click.option("--errors", is_flag=True, help="Include error responses (4xx, 5xx, default).")
@click.option("--examples", is_flag=True, help="Include examples.")
@click.option("--full", is_flag=True, help="Everything to --depth: no budget, errors and examples included.")
@click.option("--json", "json_", is_flag=True, help="Print JSON (the default output is YAML).")
@handle_errors
def show(
    operation: str,
    index_dir: str,
    service: str | None,
    depth: int,
    max_tokens: int,
    errors: bool,
    examples: bool,
    full: bool,
    json_: bool,
) -> None:
    """Print OPERATION ("METHOD /path"), schemas resolved, sized for an LLM (--full: everything).

    \b
    Examples:
      openapi-rag show "POST /users/{user_id}/playlists" --index idx/
      openapi-rag show "POST /v1/payment_intents" --index idx/ --errors --max-tokens 8000
    """
    from openapi_rag.index import Index

    sizing = {} if full else dict(max_tokens=max_tokens, errors=errors, examples=examples)
    detail = Index.open(index_dir).show(operation, service=service, depth=depth, **sizing)
    if json_:
        print_json(detail)
    else:
        import yaml

        click.echo(yaml.safe_dump(detail, sort_keys=False, allow_unicode=True, width=110).rstrip())
