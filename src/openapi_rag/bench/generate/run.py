"""`generate_benchmark`: SOCBench-D instances for any domains and sizes, resumable step by step.

Layout (what `openapi-rag eval --dataset socbench-d` reads)::

    OUT/settings.json                 the run's settings; --resume reads them back
    OUT/generation-log.jsonl          every LLM call's tokens, retries, repairs, discards
    OUT/llm-replies.sqlite            every LLM reply, so a resumed run pays for nothing twice
    OUT/socbenchd_K/NN-domain/queries.json
    OUT/socbenchd_K/NN-domain/NN-Service name/openapi.json
    OUT/socbenchd_K/NN-domain/state.json   steps done so far (services, endpoints, queries, status)

Every step's result is written (atomically) before the next starts, so an interrupted or failed run
resumes where it stopped: finished steps are read back, unfinished ones ask the same questions again
and are answered from the reply cache.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag.bench.generate.log import LOG_FILE, GenerationLog
from openapi_rag.bench.generate.queries import QuerySettings, create_queries
from openapi_rag.bench.generate.services import (
    Budget,
    GenerationFailed,
    create_endpoints,
    create_openapi,
    create_services,
)
from openapi_rag.embed import Embedder
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.llm import LLM, CachedLLM, LLMCache, LLMError

GICS_SECTORS = (
    "Energy",
    "Materials",
    "Industrials",
    "Consumer Discretionary",
    "Consumer Staples",
    "Health Care",
    "Financials",
    "Information Technology",
    "Communication Services",
    "Utilities",
    "Real Estate",
)
SETTINGS_FILE = "settings.json"
REPLIES_FILE = "llm-replies.sqlite"
STATE_FILE = "state.json"


class SettingsMismatch(OpenAPIRagError):
    """--resume was given settings that differ from the interrupted run's."""


@dataclass(frozen=True)
class GenerationSettings:
    """Everything that decides what a run generates; saved in OUT/settings.json."""

    domains: tuple[str, ...] = GICS_SECTORS
    services: int = 5
    endpoints: int = 10
    queries: int = 10
    instances: int = 1
    seed: int = 0
    llm: str = ""
    budget: Budget = field(default_factory=Budget)
    query: QuerySettings = field(default_factory=QuerySettings)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["domains"] = list(self.domains)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GenerationSettings:
        return cls(
            **{k: v for k, v in data.items() if k not in ("domains", "budget", "query")},
            domains=tuple(data["domains"]),
            budget=Budget(**data.get("budget", {})),
            query=QuerySettings(**data.get("query", {})),
        )


@dataclass
class DomainOutcome:
    instance: int
    domain: str
    folder: str
    services: int
    queries: int
    status: str  # "done" | "failed" | "incomplete"
    failure: str = ""


def folder_name(index: int, name: str) -> str:
    """``NN-name`` with characters a file name cannot hold removed (names come from the LLM)."""
    safe = re.sub(r"[^\w .,&()-]+", "", name).strip(" .")[:80] or "unnamed"
    return f"{index:02d}-{safe}"


def write_json(path: Path, data: Any) -> None:
    """Write atomically: a kill leaves the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    os.replace(tmp, path)


def saved_settings(out: str | Path) -> GenerationSettings:
    """The settings an earlier run in `out` was started with."""
    saved_file = Path(out) / SETTINGS_FILE
    if not saved_file.is_file():
        raise SettingsMismatch(f"{out}: no {SETTINGS_FILE}; nothing to resume (start with --out)")
    try:
        return GenerationSettings.from_dict(json.loads(saved_file.read_text(encoding="utf-8")))
    except (ValueError, TypeError, KeyError) as exc:
        raise SettingsMismatch(f"{saved_file}: unreadable settings ({exc})") from exc


def open_run(out: Path, settings: GenerationSettings | None, *, resume: bool) -> GenerationSettings:
    """The settings of the run in `out`: new ones saved, or an interrupted run's read back."""
    saved_file = out / SETTINGS_FILE
    if resume:
        saved = saved_settings(out)
        if settings is not None and settings != saved:
            raise SettingsMismatch(
                f"{out}: --resume continues the run as it was started; drop the other options"
            )
        return saved
    if settings is None:
        settings = GenerationSettings()
    if saved_file.is_file():
        if saved_settings(out) != settings:
            raise SettingsMismatch(
                f"{out} holds a run with other settings: use --resume {out} or another --out"
            )
    write_json(saved_file, settings.to_dict())
    return settings


def generate_benchmark(
    out: str | Path,
    llm: LLM,
    embedder: Embedder,
    settings: GenerationSettings | None = None,
    *,
    resume: bool = False,
    on_step: Callable[[str], None] | None = None,
) -> tuple[list[DomainOutcome], dict[str, Any]]:
    """Generate (or finish) the instances of a run in `out`.

    Args:
        out: the run's folder (created).
        llm: the model; its replies are cached in ``out/llm-replies.sqlite``.
        embedder: embeds queries for the similarity discard.
        settings: what to generate; None with `resume` reads them from the folder.
        resume: continue the run already in `out`.
        on_step: called with a short line per finished step (progress on stderr in the CLI).

    Returns:
        One outcome per instance and domain, and the log's summary (calls, tokens, events).
    """
    root = Path(out)
    settings = open_run(root, settings, resume=resume)
    log = GenerationLog(root / LOG_FILE)
    cached = llm if isinstance(llm, CachedLLM) else CachedLLM(llm, LLMCache(root / REPLIES_FILE))
    say = on_step or (lambda line: None)
    outcomes = []
    for k in range(1, settings.instances + 1):
        seed = settings.seed + k - 1
        for d, domain in enumerate(settings.domains, 1):
            folder = root / f"socbenchd_{k}" / folder_name(d, domain.lower())
            outcomes.append(_domain(cached, log, embedder, settings, k, seed, domain, folder, say))
    return outcomes, log.summary()


def _domain(
    llm: LLM,
    log: GenerationLog,
    embedder: Embedder,
    settings: GenerationSettings,
    instance: int,
    seed: int,
    domain: str,
    folder: Path,
    say: Callable[[str], None],
) -> DomainOutcome:
    state_file = folder / STATE_FILE
    state: dict[str, Any] = (
        json.loads(state_file.read_text(encoding="utf-8")) if state_file.is_file() else {"endpoints": {}}
    )

    def save() -> None:
        write_json(state_file, state)

    def outcome(status: str, failure: str = "") -> DomainOutcome:
        return DomainOutcome(
            instance,
            domain,
            str(folder),
            len(state.get("services") or []),
            len(state.get("queries") or []),
            status,
            failure,
        )

    if state.get("status") == "done":
        return outcome("done")
    try:
        if "services" not in state:
            state["services"] = create_services(llm, log, domain, settings.services, settings.budget, seed)
            save()
            say(f"{domain}: {len(state['services'])} services")
        taken: set[str] = set()
        for s, service in enumerate(state["services"], 1):
            name = service["name"]
            if name not in state["endpoints"]:
                state["endpoints"][name] = create_endpoints(
                    llm, log, domain, service, settings.endpoints, taken, settings.budget, seed
                )
                save()
                say(f"{domain}/{name}: {len(state['endpoints'][name])} endpoints")
            taken |= {e["id"] for e in state["endpoints"][name]}
            document_file = folder / folder_name(s, name) / "openapi.json"
            if not document_file.is_file():
                document = create_openapi(
                    llm, log, domain, service, state["endpoints"][name], settings.budget, seed
                )
                write_json(document_file, document)
                say(f"{domain}/{name}: OpenAPI document")
        catalog = [e for name in (s["name"] for s in state["services"]) for e in state["endpoints"][name]]

        def save_queries(accepted: list[dict[str, Any]]) -> None:
            state["queries"] = accepted
            write_json(folder / "queries.json", {"queries": accepted})
            save()
            say(f"{domain}: query {len(accepted)}/{settings.queries}")

        accepted = create_queries(
            llm,
            log,
            embedder,
            domain,
            catalog,
            settings.queries,
            settings.query,
            seed,
            state.get("queries") or [],
            save_queries,
        )
        if len(accepted) < settings.queries:
            state["status"] = "incomplete"
            save()
            return outcome(
                "incomplete",
                f"{len(accepted)} of {settings.queries} queries after {settings.query.draws} draws each",
            )
        state["status"] = "done"
        save()
        return outcome("done")
    except GenerationFailed as exc:
        log.event("failed", domain=domain, step=exc.step, reason=exc.reason)
        return outcome("failed", str(exc))
    except LLMError as exc:  # the model refused or could not be reached: this domain stops, the run goes on
        log.event("failed", domain=domain, step="llm", reason=str(exc))
        return outcome("failed", str(exc))


def default_domains(text: str | None, file: str | Path | None) -> tuple[str, ...]:
    """Domains from a comma-separated list, a file (one a line), or the 11 GICS sectors."""
    if text and file:
        raise OpenAPIRagError("give --domains or --domains-file, not both")
    names: Sequence[str]
    if file:
        names = Path(file).read_text(encoding="utf-8").splitlines()
    elif text:
        names = text.split(",")
    else:
        return GICS_SECTORS
    domains = tuple(dict.fromkeys(n.strip() for n in names if n.strip()))
    if not domains:
        raise OpenAPIRagError("no domain named")
    return domains
