"""`openapi-rag llm check`."""

from __future__ import annotations

import sys
import time

import click

from openapi_rag.cli import cli
from openapi_rag.cli.common import err, print_json
from openapi_rag.errors import OpenAPIRagError


@cli.group()
def llm() -> None:
    """The LLM used by the summary/query strategies and the agents."""


@llm.command()
@click.option(
    "--model",
    default=None,
    help="LLM name: local, local:PATH.gguf, openai, openai:MODEL (default: $OPENAPI_RAG_LLM or local).",
)
@click.option("--prompt", default="Reply with one short sentence: what is an API?", show_default=True)
@click.option("--json", "json_", is_flag=True, help="Print one JSON object instead of text.")
def check(model: str | None, prompt: str, json_: bool) -> None:
    """Say which model is configured and have it answer a one-line prompt.

    \b
    Examples:
      openapi-rag llm check
      openapi-rag llm check --model local:/models/qwen2.5-1.5b-instruct-q4_k_m.gguf
      OPENAPI_RAG_LLM_BASE_URL=http://localhost:11434/v1 openapi-rag llm check --model openai:llama3.2

    Exit status is 1 when the model cannot be loaded or reached; the message says why.
    """
    from openapi_rag.llm import configured_llm_name, get_llm  # here: not every command needs it loaded

    name = model or configured_llm_name()
    report: dict[str, object] = {"model": name, "ok": False}
    try:
        # A check should fail fast: one retry, not the minute of backoff an indexing run can afford.
        config = {"name": name, "max_retries": 1, "timeout": 30} if name.startswith("openai") else name
        with get_llm(config) as chosen:
            report["model"] = chosen.model_id
            where = getattr(chosen, "path", None) or getattr(chosen, "base_url", None)
            if where:
                report["location"] = str(where)
            if not json_:
                err(f"Asking {chosen.model_id} ...")
            start = time.perf_counter()
            response = chosen.chat([{"role": "user", "content": prompt}], max_tokens=48)
            report.update(
                ok=True,
                reply=response.text.strip(),
                seconds=round(time.perf_counter() - start, 2),
                prompt_tokens=response.usage.prompt_tokens,
                completion_tokens=response.usage.completion_tokens,
            )
    except OpenAPIRagError as exc:
        report["error"] = str(exc)
    if json_:
        print_json(report)
    elif report["ok"]:
        click.echo(
            f"model: {report['model']}" + (f"  ({report['location']})" if "location" in report else "")
        )
        click.echo(f"reply: {report['reply']}")
        click.echo(
            f"{report['prompt_tokens']} prompt + {report['completion_tokens']} completion tokens "
            f"in {report['seconds']} s"
        )
    else:
        err(f"model: {report['model']}")
        err(f"Error: {report['error']}")
    if not report["ok"]:
        sys.exit(1)
