"""Loaders for the benchmark formats `openapi-rag eval --dataset ...` reads.

- ``restbench``: ``specs/*.json`` (or YAML) and ``datasets/*.json`` holding
  ``[{"query": ..., "solution": ["METHOD /path", ...]}]``. One index over every spec, as in the
  paper, and one domain: the mean runs over all queries.
- ``socbench-d``: ``socbenchd_N/NN-domain/NN-Service/openapi.json`` with
  ``NN-domain/queries.json`` = ``{"queries": [{"query", "endpoints": [...]}]}``. One index per domain
  of each instance; PATH may be one instance or a folder holding several (``socbenchd_1`` ...).
  Queries are averaged per domain (instances pooled), then over domains.
- ``jsonl``: a folder of API descriptions and ``queries.jsonl`` with lines
  ``{"query": ..., "expected": ["METHOD /path" | "SERVICE METHOD /path", ...], "group": optional,
  "id": optional}``. Queries of a group get their own index over the descriptions under
  ``PATH/<group>/`` when that folder exists, else over every description in PATH; the group is also
  the domain averaged over. A line may also list ``"alternatives"``: operations that answer the
  task as well as the expected one (a flat list when one operation is expected, else one list per
  expected operation); a retrieved alternative counts as finding that expected operation.
- ``toolalpaca``, ``stabletoolbench``, ``nestful``: public tool-use benchmarks as published
  (`tool_datasets`).
- ``realworld``: the task set of this repository (``benchmarks/realworld/tasks.jsonl``, in the
  ``jsonl`` format) over the descriptions of ``../shared/data/realworld``, indexed as one catalog.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from openapi_rag.bench.dataset import Dataset, GoldEntry, GoldIssue, Group, Query
from openapi_rag.bench.gold import GoldResolver, resolve_query_gold
from openapi_rag.errors import OpenAPIRagError
from openapi_rag.model import Service

DATASET_KINDS = ("restbench", "socbench-d", "jsonl", "realworld", "toolalpaca", "stabletoolbench", "nestful")

# The task set written for the realworld corpus, found from a source checkout.
REALWORLD_TASKS = Path(__file__).resolve().parents[3] / "benchmarks" / "realworld" / "tasks.jsonl"


class DatasetError(OpenAPIRagError):
    """A benchmark folder is missing files or holds malformed queries."""


def load_dataset(
    kind: str, path: str | Path | Sequence[str | Path], queries: str | Path | None = None
) -> Dataset:
    """Load a benchmark of the given kind.

    Args:
        kind: one of `DATASET_KINDS`.
        path: the benchmark folder (for ``socbench-d``, also a list of instance folders).
        queries: for ``jsonl`` and ``realworld``, a queries file kept apart from the descriptions
            (``realworld`` defaults to this repository's task set).

    Raises:
        DatasetError: unknown kind, missing folder or files, malformed queries.
    """
    paths = [Path(p) for p in ([path] if isinstance(path, str | Path) else path)]
    if not paths:
        raise DatasetError("no dataset path given: pass --data PATH")
    for p in paths:
        if not p.exists():
            raise DatasetError(f"{p}: no such file or folder")
    if queries is not None and kind not in ("jsonl", "realworld"):
        raise DatasetError(f"a separate queries file only applies to jsonl and realworld, not {kind}")
    if kind == "restbench":
        return _one(paths, kind, load_restbench)
    if kind == "socbench-d":
        return load_socbench_d(paths)
    if kind == "jsonl":
        return _one(paths, kind, lambda p: load_jsonl(p, queries))
    if kind == "realworld":
        return _one(paths, kind, lambda p: load_realworld(p, queries))
    if kind in ("toolalpaca", "stabletoolbench", "nestful"):
        from openapi_rag.bench.tool_datasets import load_tool_dataset

        return _one(paths, kind, lambda p: load_tool_dataset(kind, p))
    raise DatasetError(f"unknown dataset kind {kind!r}; choose one of {', '.join(DATASET_KINDS)}")


def _one(paths: list[Path], kind: str, loader: Any) -> Dataset:
    if len(paths) != 1:
        raise DatasetError(f"the {kind} format takes one folder, got {len(paths)}")
    dataset: Dataset = loader(paths[0])
    return dataset


# --------------------------------------------------------------------------- shared helpers


def _load_specs(files: Sequence[Path]) -> tuple[list[Service], list[str]]:
    from openapi_rag.spec import load_services

    result = load_services(files)
    return result.services, [f"{f.file}: {f.error}" for f in result.failed]


def _fingerprint(files: Sequence[Path], services: Sequence[Service]) -> str:
    digest = hashlib.sha256()
    for file in sorted(files):
        digest.update(file.name.encode())
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    for service in services:
        digest.update(service.id.encode())
        for op in service.operations:
            digest.update(op.id.encode())
    return digest.hexdigest()[:16]


RawQuery = tuple[str, str, Sequence[str], str]  # (query_id, text, gold, domain)


def _build_group(
    name: str,
    files: Sequence[Path],
    raw_queries: Sequence[RawQuery],
    alternatives: dict[str, dict[str, list[str]]] | None = None,
) -> tuple[Group, list[GoldIssue], list[str]]:
    """A group from its description files and `(query_id, text, gold, domain)` tuples.

    `alternatives` maps a query id to {gold entry: operations that answer it as well}.
    """
    services, failures = _load_specs(files)
    resolver = GoldResolver(services)
    issues: list[GoldIssue] = []
    queries = []
    for query_id, text, gold_raw, domain in raw_queries:
        gold, found = resolve_query_gold(query_id, gold_raw, resolver)
        issues += found
        if alternatives and query_id in alternatives:
            gold, found = _add_alternatives(query_id, gold, alternatives[query_id], resolver)
            issues += found
        if not gold:
            issues.append(
                GoldIssue(
                    query_id,
                    "",
                    "no-gold",
                    "the query lists no expected endpoint; "
                    "recall is undefined and it is left out of recall means",
                    "warning",
                )
            )
        queries.append(Query(id=query_id, text=text, gold=gold, group=name, domain=domain))
    group = Group(name=name, services=services, queries=queries, fingerprint=_fingerprint(files, services))
    return group, issues, failures


def _add_alternatives(
    query_id: str, gold: tuple[GoldEntry, ...], alternatives: dict[str, list[str]], resolver: GoldResolver
) -> tuple[tuple[GoldEntry, ...], list[GoldIssue]]:
    """Each gold entry also matched by the operations of its alternatives."""
    issues: list[GoldIssue] = []
    out = []
    for entry in gold:
        matches = list(entry.matches)
        for raw in alternatives.get(entry.raw, []):
            alt, _ = resolver.resolve(raw)
            if not alt.matched:
                issues.append(
                    GoldIssue(
                        query_id, raw, "unmatched-alternative", f"no operation matches it (for {entry.raw})"
                    )
                )
            matches += [m for m in alt.matches if m not in matches]
        how = entry.how if entry.matched or len(matches) == 0 else "alternative"
        out.append(replace(entry, matches=tuple(matches), how=how))
    return tuple(out), issues


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DatasetError(f"{path}: cannot read JSON: {exc}") from exc


def _spec_files(folder: Path) -> list[Path]:
    from openapi_rag.spec import discover

    return discover([folder])


# --------------------------------------------------------------------------- RestBench


def load_restbench(path: str | Path) -> Dataset:
    """RestBench: every spec under ``specs/`` in one index, the queries of ``datasets/*.json``."""
    root = Path(path)
    specs_dir, data_dir = root / "specs", root / "datasets"
    if not specs_dir.is_dir() or not data_dir.is_dir():
        raise DatasetError(f"{root}: a RestBench folder holds specs/ and datasets/ (see RestBench on GitHub)")
    files = _spec_files(specs_dir)
    if not files:
        raise DatasetError(f"{specs_dir}: no API description found")
    raw: list[RawQuery] = []
    for data_file in sorted(data_dir.glob("*.json")):
        items = _read_json(data_file)
        if not isinstance(items, list):
            raise DatasetError(f"{data_file}: expected a list of {{query, solution}} objects")
        for n, item in enumerate(items, 1):
            text, gold = _fields(item, data_file, n, "query", "solution")
            raw.append((f"{data_file.stem}-{n:03d}", text, gold, "restbench"))
    if not raw:
        raise DatasetError(f"{data_dir}: no queries found")
    group, issues, failures = _build_group("restbench", files, raw)
    return Dataset(name="restbench", kind="restbench", groups=[group], issues=issues, load_failures=failures)


def _fields(item: Any, file: Path, n: int, text_key: str, gold_key: str) -> tuple[str, list[str]]:
    if not isinstance(item, dict) or not isinstance(item.get(text_key), str):
        raise DatasetError(f"{file}: entry {n} has no {text_key!r} string")
    gold = item.get(gold_key, [])
    if not isinstance(gold, list) or not all(isinstance(g, str) for g in gold):
        raise DatasetError(f"{file}: entry {n}: {gold_key!r} must be a list of strings")
    return item[text_key], gold


# --------------------------------------------------------------------------- SOCBench-D


def _is_domain(folder: Path) -> bool:
    return folder.is_dir() and (folder / "queries.json").is_file()


def _instances(paths: Sequence[Path]) -> list[Path]:
    out: list[Path] = []
    for path in paths:
        if any(_is_domain(d) for d in path.iterdir() if d.is_dir()):
            out.append(path)
            continue
        nested = sorted(
            (d for d in path.iterdir() if d.is_dir() and any(_is_domain(x) for x in d.iterdir())),
            key=_natural,
        )
        if not nested:
            raise DatasetError(f"{path}: no SOCBench-D domain folders (NN-domain/queries.json) found")
        out += nested
    return out


def _natural(path: Path) -> list[Any]:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]


def load_socbench_d(paths: str | Path | Sequence[str | Path]) -> Dataset:
    """SOCBench-D: one index per domain of each instance; queries averaged per domain."""
    path_list = [Path(p) for p in ([paths] if isinstance(paths, str | Path) else paths)]
    groups: list[Group] = []
    issues: list[GoldIssue] = []
    failures: list[str] = []
    for instance in _instances(path_list):
        for domain_dir in sorted((d for d in instance.iterdir() if _is_domain(d)), key=_natural):
            files = [f for d in sorted(domain_dir.iterdir()) if d.is_dir() for f in _spec_files(d)]
            doc = _read_json(domain_dir / "queries.json")
            items = doc.get("queries") if isinstance(doc, dict) else None
            if not isinstance(items, list):
                raise DatasetError(f'{domain_dir / "queries.json"}: expected {{"queries": [...]}}')
            name = f"{instance.name}/{domain_dir.name}"
            domain = re.sub(r"^\d+-", "", domain_dir.name)
            raw: list[RawQuery] = []
            for n, item in enumerate(items, 1):
                text, gold = _fields(item, domain_dir / "queries.json", n, "query", "endpoints")
                raw.append((f"{name}/q{n:02d}", text, gold, domain))
            group, found, failed = _build_group(name, files, raw)
            groups.append(group)
            issues += found
            failures += failed
    return Dataset(name="socbench-d", kind="socbench-d", groups=groups, issues=issues, load_failures=failures)


# --------------------------------------------------------------------------- generic JSONL


def load_jsonl(path: str | Path, queries: str | Path | None = None, name: str | None = None) -> Dataset:
    """Users' own catalogs: descriptions in a folder and ``queries.jsonl`` beside them.

    Args:
        path: the folder of descriptions, or the queries file inside it.
        queries: a queries file kept elsewhere; then `path` is the folder of descriptions.
        name: the dataset's name (default ``jsonl:<folder>``); it keys the tuning halves.
    """
    root = Path(path)
    if queries is not None:
        queries_file = Path(queries)
        if not root.is_dir():
            raise DatasetError(f"{root}: with a separate queries file, --data is the folder of descriptions")
        if not queries_file.is_file():
            raise DatasetError(f"{queries_file}: no such queries file")
    else:
        queries_file = root / "queries.jsonl" if root.is_dir() else root
        if root.is_file():
            root = root.parent
        if not queries_file.is_file():
            raise DatasetError(f'{root}: no queries.jsonl (lines of {{"query", "expected": [...], "group"}})')
    by_group: dict[str, list[RawQuery]] = {}
    alternatives: dict[str, dict[str, list[str]]] = {}
    seen_ids: dict[str, int] = {}
    for n, line in enumerate(queries_file.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise DatasetError(f"{queries_file}:{n}: not JSON: {exc}") from exc
        text, gold = _fields(item, queries_file, n, "query", "expected")
        group = item.get("group")
        if group is not None and not isinstance(group, str):
            raise DatasetError(f"{queries_file}:{n}: 'group' must be a string")
        group = group or "all"
        query_id = str(item.get("id") or f"line-{n:04d}")
        if query_id in seen_ids:
            raise DatasetError(f"{queries_file}:{n}: query id {query_id!r} also on line {seen_ids[query_id]}")
        seen_ids[query_id] = n
        alts = _alternatives(item.get("alternatives"), gold, f"{queries_file}:{n}")
        if alts:
            alternatives[query_id] = alts
        by_group.setdefault(group, []).append((query_id, text, gold, group))
    if not by_group:
        raise DatasetError(f"{queries_file}: no queries")
    all_files = _spec_files(root)
    if not all_files:
        raise DatasetError(f"{root}: no API description found beside queries.jsonl")
    groups, issues, failures = [], [], []
    for group_name, raw in by_group.items():
        sub = root / group_name
        files = _spec_files(sub) if group_name != "all" and sub.is_dir() else all_files
        group, found, failed = _build_group(group_name, files, raw, alternatives)
        groups.append(group)
        issues += found
        failures += failed
    return Dataset(
        name=name or f"jsonl:{root.resolve().name}",
        kind="jsonl",
        groups=groups,
        issues=issues,
        load_failures=sorted(set(failures)),
    )


def _alternatives(value: Any, gold: list[str], where: str) -> dict[str, list[str]]:
    """{expected entry: its alternatives} from a flat list (one expected entry) or one list per entry."""
    if value is None or value == []:
        return {}
    if not isinstance(value, list):
        raise DatasetError(f"{where}: 'alternatives' must be a list")
    if all(isinstance(v, str) for v in value):
        if len(gold) != 1:
            raise DatasetError(
                f"{where}: with {len(gold)} expected operations, 'alternatives' holds one list per operation"
            )
        return {gold[0]: list(value)}
    if len(value) != len(gold) or not all(
        isinstance(v, list) and all(isinstance(x, str) for x in v) for v in value
    ):
        raise DatasetError(f"{where}: 'alternatives' must hold one list of strings per expected operation")
    return {g: list(v) for g, v in zip(gold, value, strict=True) if v}


def load_realworld(path: str | Path, queries: str | Path | None = None) -> Dataset:
    """The realworld task set over the realworld corpus, indexed as one catalog."""
    tasks = Path(queries) if queries is not None else REALWORLD_TASKS
    if not tasks.is_file():
        raise DatasetError(
            f"{tasks}: the realworld task set is not here (it ships with a source checkout); "
            "pass --queries benchmarks/realworld/tasks.jsonl"
        )
    dataset = load_jsonl(path, tasks, name="realworld")
    dataset.kind = "realworld"
    return dataset
