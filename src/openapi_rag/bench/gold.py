"""Matching a benchmark's expected endpoints to the operations of the loaded descriptions.

Benchmarks write gold endpoints by hand, so they drift from the descriptions: path parameters
named differently (`/tv/{tv_id}` vs `/tv/{id}`), trailing slashes, query strings, lower-case
methods, a server base path written into the path. An entry is matched in tiers, most literal
first, and every entry that was not matched literally is reported:

1. exact: `METHOD /path` is an operation id;
2. shape: same method and path *template shape* (parameter names ignored, `?query` and trailing `/`
   dropped, `:name` segments read as parameters), possibly after removing a server's base path;
3. case: the shape matches only case-insensitively.

An entry may be qualified by service (`SERVICE METHOD /path`) when paths collide across services;
SERVICE is a service id, its title, or the name of its file (or folder, for `openapi.json`).
An unqualified entry matches that endpoint in every service of the group that has it, the way the
paper compares bare `METHOD /path` strings.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import urlparse

from openapi_rag.bench.dataset import GoldEntry, GoldIssue
from openapi_rag.model import HTTP_METHODS, Service

_METHODS = {m.upper() for m in HTTP_METHODS}
_SCHEME_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://[^/]*", re.I)
_TEMPLATE = re.compile(r"\{[^}/]*\}")
_COLON_PARAM = re.compile(r"(?<=/):[A-Za-z_][A-Za-z0-9_]*")
_GENERIC_STEMS = {"openapi", "swagger", "spec", "api", "index"}


def parse_endpoint(entry: str) -> tuple[str | None, str, str] | None:
    """`(service or None, METHOD, path)` of `METHOD /path` or `SERVICE METHOD /path`; None if neither."""
    tokens = entry.split()
    if len(tokens) >= 2 and tokens[0].upper() in _METHODS:
        return None, tokens[0].upper(), "".join(tokens[1:])
    if len(tokens) >= 3 and tokens[1].upper() in _METHODS:
        return tokens[0], tokens[1].upper(), "".join(tokens[2:])
    return None


def normalize_path(path: str) -> str:
    """Drop scheme and host, `?query` and `#fragment`, repeated and trailing slashes."""
    p = _SCHEME_HOST.sub("", path.strip())
    p = p.split("#", 1)[0].split("?", 1)[0]
    p = re.sub(r"/{2,}", "/", p)
    if not p.startswith("/"):
        p = "/" + p
    return p.rstrip("/") or "/"


def path_shape(path: str) -> str:
    """The template shape of a path: every parameter becomes `{}` (`/tv/{tv_id}` → `/tv/{}`)."""
    return _COLON_PARAM.sub("{}", _TEMPLATE.sub("{}", normalize_path(path)))


def _aliases(service: Service) -> set[str]:
    from openapi_rag.spec.load import slugify

    names = {service.id, service.title, slugify(service.title)}
    if service.file:
        path = Path(service.file)
        names.add(path.stem)
        if path.stem.lower() in _GENERIC_STEMS:
            names.add(path.parent.name)
    return {n.lower() for n in names if n}


def _base_paths(service: Service) -> set[str]:
    out = set()
    for server in service.servers:
        url = server.get("url") if isinstance(server, dict) else None
        if isinstance(url, str):
            base = normalize_path(urlparse(url).path or "/")
            if base != "/":
                out.add(base)
    return out


class GoldResolver:
    """Resolves gold entries against the operations of one group of services."""

    def __init__(self, services: Sequence[Service]) -> None:
        self._by_alias: dict[str, list[str]] = defaultdict(list)
        self._exact: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._shape: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._shape_ci: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._service_of: dict[str, str] = {}
        self._bases: dict[str, set[str]] = {}
        for service in services:
            for alias in _aliases(service):
                self._by_alias[alias].append(service.id)
            self._bases[service.id] = _base_paths(service)
            for op in service.operations:
                qid = op.qualified_id
                self._service_of[qid] = service.id
                self._exact[(op.method, op.path)].append(qid)
                shape = path_shape(op.path)
                self._shape[(op.method, shape)].append(qid)
                self._shape_ci[(op.method, shape.lower())].append(qid)

    def resolve(self, raw: str) -> tuple[GoldEntry, list[tuple[str, str, str]]]:
        """The entry and its issues as `(kind, detail, severity)` tuples."""
        parsed = parse_endpoint(raw)
        if parsed is None:
            entry = GoldEntry(raw=raw, key=" ".join(raw.split()), how="none")
            return entry, [("unparseable", "not `METHOD /path` or `SERVICE METHOD /path`", "warning")]
        service_name, method, path = parsed
        key = f"{method} {normalize_path(path)}"
        allowed: set[str] | None = None
        if service_name is not None:
            key = f"{service_name} {key}"
            allowed = set(self._by_alias.get(service_name.lower(), ()))
            if not allowed:
                known = ", ".join(sorted({s for ids in self._by_alias.values() for s in ids}))
                entry = GoldEntry(raw=raw, key=key, how="none")
                return entry, [
                    ("unknown-service", f"no service {service_name!r} (services: {known})", "warning")
                ]
        matches, how = self._lookup(method, path, allowed)
        issues: list[tuple[str, str, str]] = []
        if not matches:
            issues.append(("unmatched", "no operation of the index matches it", "warning"))
        else:
            if how != "exact":
                issues.append((how, f"matched {', '.join(matches)} ({_HOW[how]})", "info"))
            services = sorted({self._service_of[m] for m in matches})
            if len(services) > 1:
                issues.append(
                    (
                        "ambiguous",
                        f"matches operations of {len(services)} services: "
                        f"{', '.join(services)}; any of them counts",
                        "info",
                    )
                )
        return GoldEntry(raw=raw, key=key, matches=tuple(matches), how=how if matches else "none"), issues

    def _lookup(self, method: str, path: str, allowed: set[str] | None) -> tuple[list[str], str]:
        def keep(ids: Iterable[str]) -> list[str]:
            return sorted(i for i in ids if allowed is None or self._service_of[i] in allowed)

        found = keep(self._exact.get((method, path.strip()), ()))
        if found:
            return found, "exact"
        shape = path_shape(path)
        found = keep(self._shape.get((method, shape), ()))
        if found:
            return found, "shape"
        # A server base path written into the gold path (`/v1/users` for server `.../v1`).
        for qid in keep(self._ids_under_base(method, shape)):
            found.append(qid)
        if found:
            return sorted(set(found)), "shape"
        found = keep(self._shape_ci.get((method, shape.lower()), ()))
        return (found, "case") if found else ([], "none")

    def _ids_under_base(self, method: str, shape: str) -> list[str]:
        out = []
        for service_id, bases in self._bases.items():
            for base in bases:
                if shape.startswith(base + "/"):
                    rest = shape[len(base) :]
                    out += [
                        q for q in self._shape.get((method, rest), ()) if self._service_of[q] == service_id
                    ]
        return out


_HOW = {
    "shape": "same template shape: parameter names, slashes, query string or base path differ",
    "case": "only when case is ignored",
}


def resolve_query_gold(
    query_id: str, entries: Sequence[str], resolver: GoldResolver
) -> tuple[tuple[GoldEntry, ...], list[GoldIssue]]:
    """Resolve a query's gold list, keeping each endpoint once and reporting duplicates.

    Two entries are the same endpoint when they name the same operations (or, unmatched, have the
    same normalised text).
    """
    gold: list[GoldEntry] = []
    issues: list[GoldIssue] = []
    seen: dict[object, str] = {}
    for raw in entries:
        entry, found = resolver.resolve(str(raw))
        identity: object = frozenset(entry.matches) if entry.matches else entry.key
        if identity in seen:
            issues.append(
                GoldIssue(
                    query_id, entry.raw, "duplicate", f"same endpoint as {seen[identity]!r}; counted once"
                )
            )
            continue
        seen[identity] = entry.raw
        gold.append(entry)
        issues += [GoldIssue(query_id, entry.raw, kind, detail, severity) for kind, detail, severity in found]
    return tuple(gold), issues
