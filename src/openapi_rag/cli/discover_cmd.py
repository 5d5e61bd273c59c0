"""`openapi-rag discover`: the Discovery Agent."""

from __future__ import annotations

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, handle_errors, index_option, llm_option, print_json


def _k(value: str) -> int | None:
    if value.strip().lower() == "all":
        return None
    try:
        k = int(value)
    except ValueError as exc:
        raise click.BadParameter(f'{value!r} is neither a number nor "all"') from exc
    if k < 1:
        raise click.BadParameter("must be at least 1")
    return k


@cli.command()
@click.argument("task")
@index_option()
@click.option("-k", "--k", "k", default="10", show_default=True, help='Endpoints per search, or "all".')
@llm_option()
@click.option("--model", "model", default=None, hidden=True, help="Deprecated name of --llm.")
@click.option(
    "-e",
    "--embedder",
    default=None,
    envvar="OPENAPI_RAG_EMBEDDER",
    help="The index's embedder, named to allow a remote one (env OPENAPI_RAG_EMBEDDER).",
)
@click.option(
    "--max-steps", type=click.IntRange(1), default=10, show_default=True, help="Most LLM calls for the task."
)
@click.option(
    "--policy",
    type=click.Choice(["self-rag", "corag"]),
    default=None,
    help="Answer the agent's searches through an LLM policy: the Self-RAG filter or CoRAG's rounds.",
)
@click.option("--json", "json_", is_flag=True, help="Print JSON, with the agent's trace.")
@handle_errors
def discover(
    task: str,
    index_dir: str,
    k: str,
    llm_name: str | None,
    model: str | None,
    embedder: str | None,
    max_steps: int,
    policy: str | None,
    json_: bool,
) -> None:
    """Let an LLM agent find the endpoints TASK needs, searching the index step by step.

    \b
    Examples:
      openapi-rag discover "Add an artist's top tracks to a new playlist" --index idx/
      openapi-rag discover "Book a flight" --index idx/ --llm openai:gpt-4o-mini -k all --json
      openapi-rag discover "Refund a payment" --index idx/ --policy self-rag

    With --policy each search of the agent is answered through the policy (the same model judges);
    its tokens are reported apart from the agent's.

    Prints one `METHOD /path` a line, then the tokens spent (stderr).
    """
    from openapi_rag.agents import DiscoveryAgent
    from openapi_rag.agents.policy_index import PolicyIndex
    from openapi_rag.index import Index
    from openapi_rag.llm import get_llm

    if model is not None:
        if llm_name is not None:
            raise click.UsageError("give --llm only (--model is its old, deprecated name)")
        err("warning: --model is deprecated, use --llm (the same option as every other command)")
        llm_name = model
    index = Index.open(index_dir, embedder=embedder)
    with get_llm(llm_name) as llm:
        judged = PolicyIndex(index, policy, llm) if policy else None
        searched = judged if judged is not None else index  # PolicyIndex has a len: no `or`
        result = DiscoveryAgent(llm, searched, k=_k(k), max_steps=max_steps).run(task)
    if json_:
        extra = {}
        if judged is not None:
            extra["policy"] = {
                "name": policy,
                "calls": judged.calls,
                "prompt_tokens": judged.usage.prompt_tokens,
                "completion_tokens": judged.usage.completion_tokens,
            }
        print_json({"task": task, "model": llm.model_id, **result.to_dict(), **extra})
        return
    for endpoint in result.endpoints:
        click.echo(endpoint)
    reasons = {
        "finish": "finished",
        "budget": f"stopped at the step budget ({max_steps})",
        "loop": "stopped: the model repeated itself",
        "error": "stopped: the model failed (see --json trace)",
    }
    status = reasons.get(result.stop, result.stop)
    if not result.finished:
        status += "; endpoints from its searches"
    err(
        f"{status} in {result.steps} steps; {result.usage.prompt_tokens} prompt + "
        f"{result.usage.completion_tokens} completion tokens"
    )
    if judged is not None:
        err(
            f"{policy}: {judged.calls} LLM call(s), {judged.usage.prompt_tokens} prompt + "
            f"{judged.usage.completion_tokens} completion tokens"
        )
