"""Strategies by name: the registry, `get_strategy` and `chunk_services`.

A strategy factory is any callable taking keyword parameters (`size`, `overlap`, `tokenizer`,
and whatever else the strategy declares, such as `depth`) and returning a `Strategy`; the classes
themselves are factories. Third-party and LLM-based strategies register the same way::

    register_strategy("summary", SummaryStrategy)   # an EndpointStrategy whose embed_parts call an LLM
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Any

from openapi_rag.chunking.base import Strategy
from openapi_rag.chunking.compact import CompactStrategy
from openapi_rag.chunking.document import JsonStrategy, WholeStrategy
from openapi_rag.chunking.endpoint import EndpointJsonStrategy, EndpointStrategy, FieldsStrategy, ThinStrategy
from openapi_rag.chunking.ref_inline import RefInlineStrategy
from openapi_rag.chunking.ref_linked import RefLinkedStrategy
from openapi_rag.model import Chunk, Service
from openapi_rag.tokens import Tokenizer

StrategyFactory = Callable[..., Strategy]

STRATEGIES: dict[str, StrategyFactory] = {}


def register_strategy(name: str, factory: StrategyFactory) -> None:
    """Make `factory` available as strategy `name` (replacing any strategy of that name)."""
    STRATEGIES[name] = factory


def list_strategies() -> list[str]:
    """Registered strategy names, in registration order."""
    return list(STRATEGIES)


def get_strategy(name: str, **params: Any) -> Strategy:
    """The strategy `name` built with `params`; parameters given as None take their defaults.

    Raises:
        ValueError: `name` is not registered (the message lists the valid names), or a parameter
            is not one the strategy takes, or a value is out of range.
    """
    factory = STRATEGIES.get(name)
    if factory is None:
        raise ValueError(f"Unknown chunking strategy {name!r}. Valid strategies: {', '.join(STRATEGIES)}")
    params = {k: v for k, v in params.items() if v is not None}
    accepted = _accepted(factory)
    if accepted is not None:
        unknown = sorted(set(params) - accepted)
        if unknown:
            takes = ", ".join(sorted(accepted))
            raise ValueError(f"Strategy {name!r} takes no parameter {', '.join(unknown)} (it takes: {takes})")
    return factory(**params)


def _accepted(factory: StrategyFactory) -> set[str] | None:
    """The keyword parameters a factory takes; None when it takes any (`**kwargs`)."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()):
        return None
    return {n for n, p in signature.parameters.items() if p.kind is not inspect.Parameter.VAR_POSITIONAL}


def chunk_services(
    services: Iterable[Service],
    strategy: str | Strategy = "endpoint",
    size: int | None = None,
    overlap: int | None = None,
    tokenizer: Tokenizer | str | None = None,
    **params: Any,
) -> list[Chunk]:
    """Chunk loaded services with a strategy given by name (or as an object).

    Example:
        >>> from openapi_rag.spec import load_services
        >>> services = load_services(["specs/"]).services  # doctest: +SKIP
        >>> chunks = chunk_services(services, "ref-linked")  # doctest: +SKIP
        >>> chunks[0].id  # doctest: +SKIP
        'spotify:ref-linked:GET /albums'
    """
    if isinstance(strategy, str):
        strategy = get_strategy(strategy, size=size, overlap=overlap, tokenizer=tokenizer, **params)
    elif size is not None or overlap is not None or tokenizer is not None or params:
        raise ValueError("pass parameters to the strategy object itself, not to chunk_services")
    return strategy.chunk(services)


for _cls in (
    WholeStrategy,
    JsonStrategy,
    EndpointStrategy,
    ThinStrategy,
    FieldsStrategy,
    EndpointJsonStrategy,
    RefInlineStrategy,
    RefLinkedStrategy,
    CompactStrategy,
):
    register_strategy(_cls.name, _cls)
from openapi_rag.chunking import llm_strategies  # noqa: E402, F401  (registers summary and query)
