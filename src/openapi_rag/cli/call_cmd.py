"""`openapi-rag call`: from a request to an API call (and, with --execute, its answer)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, index_option, llm_option, print_json, print_json_line


def read_queries(handle: Any) -> Iterator[tuple[int, str | None, str | None]]:
    """(line number, query, error) for each non-blank line of a JSONL file of {"query": ...}."""
    name = getattr(handle, "name", "<queries>")
    for number, line in enumerate(handle, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError as exc:
            yield number, None, f"{name}:{number}: not JSON ({exc.msg})"
            continue
        query = data.get("query") if isinstance(data, dict) else data if isinstance(data, str) else None
        if not isinstance(query, str) or not query.strip():
            yield number, None, f'{name}:{number}: no "query" string'
            continue
        yield number, query, None


@contextlib.contextmanager
def open_target(execute: str | None, index: Any, allow_write: bool) -> Iterator[Any]:
    """The execution target `--execute` names: an in-process mock of the index, or a real base URL."""
    if execute is None:
        yield None
        return
    from openapi_rag.generate.call.execute import Target

    if execute == "mock":
        from openapi_rag.generate.call.mock import MockAPI, MockServer

        with MockServer(MockAPI.from_index(index)) as server:
            target = Target(server.url, mock=True)
            try:
                yield target
            finally:
                target.client.close()
        return
    if not execute.startswith(("http://", "https://")):
        raise click.BadParameter("give 'mock' or a base URL (http:// or https://)", param_hint="--execute")
    target = Target(execute, mock=False, allow_write=allow_write)
    try:
        yield target
    finally:
        target.client.close()


def format_call(call: dict[str, Any]) -> str:
    """The call for people: method and endpoint, then what else it sends and what went wrong."""
    if call["operation"] is None:
        return f"no operation: {call.get('reason')}"
    op = call["operation"]
    lines = [f"{call['method']} {call['endpoint']}    ({op['service']} {op['method']} {op['path']})"]
    if call["headers"]:
        lines.append(f"headers: {json.dumps(call['headers'], ensure_ascii=False)}")
    if call["body"] is not None:
        lines.append(f"body: {json.dumps(call['body'], ensure_ascii=False)}")
    lines += [f"problem: {p}" for p in call["problems"]]
    execution = call.get("execution")
    if execution:
        tries = len(execution.get("attempts") or [])
        lines.append(f"→ {execution['status']} {execution.get('reason') or ''} ({tries} attempt(s))".rstrip())
    return "\n".join(lines)


@cli.command()
@click.argument("query", required=False)
@index_option()
@click.option("--queries", type=click.File("r"), default=None, help='JSONL file of {"query": ...} lines.')
@click.option("--generator", type=click.Choice(["offline", "llm"]), default="offline", show_default=True,
              help="offline: values assigned by rules; llm: the LLM writes schema-constrained JSON.")  # fmt: skip
@click.option("--policy", type=click.Choice(["rag", "self-rag", "corag"]), default="rag", show_default=True,
              help="Retrieval: plain search, or LLM-judged (Self-RAG filter, CoRAG rounds).")  # fmt: skip
@llm_option("LLM for --generator llm / --policy.")
@click.option("--execute", default=None, metavar="mock|URL",
              help="Send the call: to a validating mock of the index, or to a real base URL (GET only).")  # fmt: skip
@click.option("--repair", type=click.IntRange(0, 10), default=0, show_default=True,
              help="With --execute: on a 4xx, repair and resend up to N times.")  # fmt: skip
@click.option("--allow-write", is_flag=True, help="With --execute URL: also send non-GET calls.")
@click.option("--json", "json_", is_flag=True, help="Print JSON.")
@handle_errors
def call(
    query: str | None,
    index_dir: str,
    queries: Any,
    generator: str,
    policy: str,
    llm_name: str | None,
    execute: str | None,
    repair: int,
    allow_write: bool,
    json_: bool,
) -> None:
    """Turn QUERY into an API call of one of the indexed operations.

    \b
    Examples:
      openapi-rag call "add the track 4iV5W9uYEdYUVa79Axb7Rh to my playlist 3cEYpjA9oz9GiPac4AsH4n" --index idx/
      openapi-rag call "delete policy 54321" --index idx/ --execute mock --repair 2 --json
      openapi-rag call --queries tasks.jsonl --index idx/ --json
      openapi-rag call "list my playlists" --index idx/ --generator llm --llm openai:gpt-4o-mini
    """
    from openapi_rag.generate.call.execute import call_request
    from openapi_rag.index import Index

    if (query is None) == (queries is None):
        raise click.UsageError("give exactly one of QUERY or --queries FILE")
    if repair and execute is None:
        raise click.UsageError("--repair needs --execute")
    if allow_write and (execute is None or execute == "mock"):
        raise click.UsageError("--allow-write applies to --execute URL")
    index = Index.open(index_dir)
    llm = None
    if generator == "llm" or policy != "rag":
        from openapi_rag.llm import get_llm

        llm = get_llm(llm_name, cache=True)
    elif llm_name is not None:
        raise click.UsageError("--llm applies with --generator llm or --policy self-rag|corag")
    with open_target(execute, index, allow_write) as target:
        options = {"generator": generator, "policy": policy, "llm": llm, "target": target, "repair": repair}
        if query is not None:
            result = call_request(query, index, **options).to_dict()
            print_json(result) if json_ else click.echo(format_call(result))
            return
        for _, text, problem in read_queries(queries):
            if problem is not None:
                err(f"skipped {problem}")
                continue
            result = call_request(text, index, **options).to_dict()
            if json_:
                print_json_line({"query": text, "call": result})
            else:
                click.echo(f"{text}\n{format_call(result)}\n")
