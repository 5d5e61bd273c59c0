"""Options shared across commands are one declaration (`cli/common.py`), so they cannot drift apart."""

from __future__ import annotations

import click

from openapi_rag.cli import cli


def _commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    found: dict[str, click.Command] = {}
    for name, command in group.commands.items():
        found[prefix + name] = command
        if isinstance(command, click.Group):
            found |= _commands(command, f"{prefix}{name} ")
    return found


def test_every_llm_option_is_the_shared_one() -> None:
    options = {
        name: next(p for p in command.params if "--llm" in getattr(p, "opts", ()))
        for name, command in _commands(cli).items()
        if any("--llm" in getattr(p, "opts", ()) for p in command.params)
    }
    assert {"index", "search", "discover", "eval", "call", "sql", "ask", "crawl", "bench generate"} <= set(options)
    for name, option in options.items():
        assert (option.name, option.default, option.metavar, option.envvar) == ("llm_name", None, "NAME", None), name
        assert option.help, name
