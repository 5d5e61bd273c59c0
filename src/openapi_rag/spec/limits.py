"""What one API description may make the loader read and build: folders, sizes, counts, depths.

Descriptions are written by other people, so every expansion the loader performs (YAML aliases,
`$ref` inlining, Postman variables, folder nesting) has a bound, and `$ref`s may read only files
inside the folders given on the command line. Each bound has a name; a description that exceeds
one fails with a `LimitExceeded` naming it and the environment variable that raises it
(`OPENAPI_RAG_MAX_FILE_BYTES`, ...), so a user with a genuinely huge spec is never stuck.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, TypeVar

from openapi_rag.errors import LimitExceeded

_ENV_PREFIX = "OPENAPI_RAG_"
T = TypeVar("T")


@dataclass(frozen=True)
class ReadLimits:
    """Bounds on reading and expanding one description, and the folders `$ref`s may read from.

    Defaults sit far above what real descriptions need: the largest file of the realworld corpus
    is 3.5 MB (Kubernetes) and the largest bundled document has 87,000 objects and lists
    (DigitalOcean, 1,500 files); none of its 210 specs comes near any bound.

    Args:
        roots: folders local `$ref`s may read from; empty means the entry document's own folder.
        max_file_bytes: size of one file, checked before it is read.
        max_depth: nesting of one parsed document (mappings and lists).
        max_yaml_aliases: uses of YAML aliases (`*name`) in one file.
        max_alias_nodes: nodes that alias uses add once expanded (a 661-byte "billion laughs"
            document expands to 387 M nodes).
        max_bundle_nodes: objects and lists of one bundled document, after `$ref`s are inlined
            (about 3 s of work at the default).
        max_postman_depth: nesting of Postman folders.
        max_variable_chars: length of one Postman `{{variable}}` once its variables are substituted.
    """

    roots: tuple[Path, ...] = ()
    max_file_bytes: int = 64 * 1024 * 1024
    max_depth: int = 256
    max_yaml_aliases: int = 10_000
    max_alias_nodes: int = 1_000_000
    max_bundle_nodes: int = 500_000
    max_postman_depth: int = 100
    max_variable_chars: int = 10_000

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> ReadLimits:
        """Defaults, then `OPENAPI_RAG_<NAME>` variables (`OPENAPI_RAG_MAX_FILE_BYTES=…`), then `overrides`."""
        return limits_from_env(cls, environ, **overrides)

    @classmethod
    def for_paths(cls, paths: Iterable[str | Path], allow_refs: Iterable[str | Path] = ()) -> ReadLimits:
        """The limits a command reads `paths` under: from the environment, with `roots_of` as boundary."""
        return cls.from_env().with_roots(roots_of(paths, allow_refs))

    def with_roots(self, roots: Iterable[str | Path]) -> ReadLimits:
        """The same limits with `roots` (resolved, symlinks followed) as the `$ref` boundary."""
        return replace(self, roots=tuple(dict.fromkeys(Path(os.path.realpath(r)) for r in roots)))

    def roots_for(self, entry: str | Path) -> tuple[Path, ...]:
        return self.roots or (Path(os.path.realpath(entry)).parent,)

    def allows(self, file: str | Path, entry: str | Path) -> bool:
        """Whether `file` (symlinks followed) lies inside the `$ref` boundary of `entry`."""
        real = Path(os.path.realpath(file))
        return any(real == root or real.is_relative_to(root) for root in self.roots_for(entry))

    def exceeded(self, name: str, what: str, *, file: str | Path | None = None, where: str | None = None):
        """The error for a description that went past the limit `name` (a field of this class)."""
        value = getattr(self, name)
        env = env_name(name)
        return LimitExceeded(
            f"{what} (limit {name}={value}; raise it with {env})", file=file, where=where, limit=name
        )


def limits_from_env(cls: type[T], environ: Mapping[str, str] | None = None, **overrides: Any) -> T:
    """A dataclass of whole-number limits from its defaults, `OPENAPI_RAG_<FIELD>` variables and `overrides`."""
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        name = env_name(f.name)
        raw = environ.get(name)
        if f.type in (int, "int") and raw:
            try:
                values[f.name] = int(raw)
            except ValueError as exc:
                raise ValueError(f"{name} must be a whole number, got {raw!r}") from exc
    values.update(overrides)
    return cls(**values)


def env_name(limit: str) -> str:
    """The environment variable that sets the limit `limit`."""
    return _ENV_PREFIX + limit.upper()


def roots_of(paths: Iterable[str | Path], allow_refs: Iterable[str | Path] = ()) -> list[Path]:
    """The `$ref` boundary for a command: each folder given, each file's folder, each `--allow-refs`."""
    roots = [Path(p) if Path(p).is_dir() else Path(p).parent for p in paths]
    return roots + [Path(p) for p in allow_refs]


DEFAULT_LIMITS = ReadLimits()
