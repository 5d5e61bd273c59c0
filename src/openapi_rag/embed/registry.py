"""Embedders by name: ``minilm``, ``openai:<model>``, ``sentence-transformers:<model>``, plugins.

Built-in embedders register through the same hook as any other: a module-level
``register_embedders(register)`` function that calls ``register(name, factory, ...)``.
"""

from __future__ import annotations

import importlib
import inspect
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from openapi_rag.embed.base import Embedder
from openapi_rag.errors import EmbedderError, UnknownEmbedder

__all__ = [
    "DEFAULT_EMBEDDER",
    "get_embedder",
    "list_embedders",
    "register_embedder",
    "unregister_embedder",
]

DEFAULT_EMBEDDER = "minilm"

# Modules whose `register_embedders` hook runs before the first lookup ("default plugins").
_DEFAULT_PLUGINS = (
    "openapi_rag.embed.minilm",
    "openapi_rag.embed.adapted",
    "openapi_rag.embed.tuned",
    "openapi_rag.embed.wordllama",
    "openapi_rag.embed.openai_api",
    "openapi_rag.embed.sbert",
)


@dataclass(frozen=True)
class _Entry:
    name: str
    factory: Callable[..., Embedder]
    aliases: tuple[str, ...]
    family: bool  # True: names are "<name>:<model>" and the factory gets the model first

    @property
    def display(self) -> str:
        suffix = ":<model>" if self.family else ""
        shown = self.name + suffix
        return f"{shown} (alias {', '.join(a + suffix for a in self.aliases)})" if self.aliases else shown


_entries: dict[str, _Entry] = {}
_defaults_loaded = False
_lock = threading.RLock()


def register_embedder(
    name: str,
    factory: Callable[..., Embedder],
    *,
    aliases: tuple[str, ...] | list[str] = (),
    family: bool = False,
) -> None:
    """Make ``factory`` available as ``get_embedder(name)``; a later registration of a name wins.

    Args:
        name: the canonical name, e.g. ``"minilm"``, or a family prefix such as ``"openai"``.
        factory: called with the options given to `get_embedder` (and, for a family, the model
            name first) and returning an `Embedder`.
        aliases: other names (or prefixes) for the same factory.
        family: ``name`` is a prefix; ``get_embedder("openai:text-embedding-3-small")`` calls
            ``factory("text-embedding-3-small", **options)``.
    """
    if not name or ":" in name:
        raise ValueError(f"embedder names cannot be empty or contain ':' (got {name!r})")
    with _lock:
        _entries[name] = _Entry(name, factory, tuple(aliases), family)


def unregister_embedder(name: str) -> None:
    """Remove a registration (tests use this to clean up a fake)."""
    with _lock:
        _entries.pop(name, None)


def list_embedders() -> list[str]:
    """Registered names, families shown as ``prefix:<model>``, sorted."""
    return sorted(e.name + (":<model>" if e.family else "") for e in _all_entries())


def get_embedder(name: str = DEFAULT_EMBEDDER, **options: Any) -> Embedder:
    """The embedder called ``name``, built with ``options``.

    Raises:
        UnknownEmbedder: no embedder has that name; the message lists the valid ones.
        EmbedderError: the options do not fit the embedder.
        MissingDependency, NeedsKey: from the embedder itself.
    """
    entry, model = _find(name)
    args: tuple[Any, ...] = (model,) if entry.family else ()
    try:
        inspect.signature(entry.factory).bind(*args, **options)
    except TypeError as exc:
        raise EmbedderError(f"Bad options for embedder {name!r}: {exc}") from None
    return entry.factory(*args, **options)


def _find(name: str) -> tuple[_Entry, str]:
    entries = _all_entries()
    prefix, sep, model = name.partition(":")
    for entry in entries:
        names = (entry.name, *entry.aliases)
        if entry.family and sep and prefix in names and model:
            return entry, model
        if not entry.family and not sep and name in names:
            return entry, ""
    valid = ", ".join(e.display for e in sorted(entries, key=lambda e: e.name))
    hint = ""
    if any(e.family and name in (e.name, *e.aliases) for e in entries):
        hint = f" ({name!r} needs a model: {name}:<model>)"
    raise UnknownEmbedder(f"Unknown embedder {name!r}{hint}. Valid names: {valid}")


def _all_entries() -> list[_Entry]:
    global _defaults_loaded
    with _lock:
        if not _defaults_loaded:
            _defaults_loaded = True
            for module in _DEFAULT_PLUGINS:
                importlib.import_module(module).register_embedders(_register_default)
        return list(_entries.values())


def _register_default(name: str, factory: Callable[..., Embedder], **kwargs: Any) -> None:
    # Built-ins load lazily: a same-named registration made before (a test fake) keeps precedence.
    if name not in _entries:
        register_embedder(name, factory, **kwargs)
