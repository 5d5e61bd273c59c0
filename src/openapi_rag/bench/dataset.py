"""Evaluation data: groups of services, each searched through its own index, and their queries.

A `Dataset` is what every loader returns, whatever the benchmark's file layout:

    Dataset
    └── Group            one index (RestBench: both APIs; SOCBench-D: one domain of one instance)
        ├── services     loaded `Service` records
        └── Query        text + gold entries resolved against the group's operations

Each query also names its *domain*, the unit the paper averages over (SOCBench-D: the GICS domain,
pooled across instances; RestBench: a single domain, so the mean runs over all queries).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openapi_rag.model import Service


@dataclass(frozen=True)
class GoldEntry:
    """One expected endpoint of a query, resolved against the operations of the query's group.

    Attributes:
        raw: the entry as written in the benchmark (`METHOD /path` or `SERVICE METHOD /path`).
        key: its normalised form; two entries with the same key are the same endpoint.
        matches: qualified ids (`service METHOD /path`) of the operations it names; empty when none.
        how: exact | shape (path parameters named differently, trailing slash, query string) |
            case (only a case-insensitive match) | none.
    """

    raw: str
    key: str
    matches: tuple[str, ...] = ()
    how: str = "exact"

    @property
    def matched(self) -> bool:
        return bool(self.matches)


@dataclass(frozen=True)
class Query:
    """One benchmark query. `gold` holds each expected endpoint once (duplicates are reported)."""

    id: str
    text: str
    gold: tuple[GoldEntry, ...]
    group: str
    domain: str


@dataclass(frozen=True)
class GoldIssue:
    """Something about a gold entry worth reporting: unmatched, fuzzy, ambiguous or duplicated.

    `severity` is "warning" for entries that can never be retrieved (they stay in the gold set and
    count as misses) and "info" for entries that were matched, but not literally.
    """

    query_id: str
    entry: str
    kind: str  # unmatched | unknown-service | unparseable | shape | case | ambiguous | duplicate
    detail: str
    severity: str = "info"

    def to_dict(self) -> dict[str, Any]:
        return {
            "query_id": self.query_id,
            "entry": self.entry,
            "kind": self.kind,
            "detail": self.detail,
            "severity": self.severity,
        }


@dataclass
class Group:
    """Services indexed together and the queries asked of them.

    `fingerprint` hashes the description files and the operation ids, so cached retrievals are
    thrown away when the descriptions change.
    """

    name: str
    services: list[Service]
    queries: list[Query] = field(default_factory=list)
    fingerprint: str = ""

    @property
    def operations(self) -> int:
        return sum(len(s.operations) for s in self.services)


@dataclass
class Dataset:
    """A benchmark loaded by `load_dataset`.

    Attributes:
        name: used in file names and in the `dataset` column (`restbench`, `socbench-d`, `jsonl:<dir>`).
        kind: the loader that read it.
        groups: each group gets its own index.
        issues: gold entries that were unmatched, fuzzy, ambiguous or duplicated.
        load_failures: description files that could not be loaded (`file: reason`).
    """

    name: str
    kind: str
    groups: list[Group]
    issues: list[GoldIssue] = field(default_factory=list)
    load_failures: list[str] = field(default_factory=list)

    @property
    def queries(self) -> list[Query]:
        return [q for g in self.groups for q in g.queries]

    @property
    def domains(self) -> list[str]:
        """Domain labels in first-seen order."""
        return list(dict.fromkeys(q.domain for q in self.queries))

    def unmatched(self) -> list[GoldIssue]:
        """Gold entries no operation of their group matches (counted as misses, never dropped)."""
        return [i for i in self.issues if i.severity == "warning"]

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "groups": len(self.groups),
            "domains": len(self.domains),
            "queries": len(self.queries),
            "services": sum(len(g.services) for g in self.groups),
            "operations": sum(g.operations for g in self.groups),
            "gold_entries": sum(len(q.gold) for q in self.queries),
            "unmatched_gold": len(self.unmatched()),
            "load_failures": len(self.load_failures),
        }
