"""The index manifest: the settings an index was built with and the sources it holds.

`search` reads the settings back so queries are embedded with the embedder the index was built with
and ranked with the search settings it was built with (`search`, a `SearchSettings` as a dict);
`index` compares them with what it is asked for and refuses a silent mix.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag import __version__
from openapi_rag.errors import IndexDamaged, IndexMismatch
from openapi_rag.store.integrity import read_json, require_fields

MANIFEST_JSON = "manifest.json"
# 2: sources carry `base_id` (stable service ids). Version 1 indexes are read (and upgraded on the
# next update); openapi-rag versions that read only 1 refuse a 2 with "written by a newer openapi-rag".
FORMAT_VERSION = 2


@dataclass
class Source:
    """One entry document in the index and what it produced."""

    file: str  # absolute path of the entry document
    fingerprint: str  # hash of every file the description was read from
    files: list[str]  # those files, absolute
    service: str  # service id
    chunks: list[str]  # chunk ids
    operations: int = 0
    # The id the title alone gives (before `-2`, `-3` for clashes), so ids can be assigned again
    # over the whole corpus without reloading unchanged specs ("" in indexes written before it).
    base_id: str = ""


@dataclass
class Manifest:
    strategy: str
    strategy_params: dict[str, Any]
    embedder: str
    dimensions: int
    clean: list[str]
    store: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)  # by entry file
    failed: list[dict[str, Any]] = field(default_factory=list)
    search: dict[str, Any] = field(default_factory=dict)  # SearchSettings; {} (older index): defaults
    format_version: int = FORMAT_VERSION
    library_version: str = __version__

    def settings(self) -> dict[str, Any]:
        """What must match for an update to reuse this index."""
        return {
            "strategy": self.strategy,
            "strategy_params": self.strategy_params,
            "embedder": self.embedder,
            "clean": self.clean,
        }

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["sources"] = {k: asdict(v) for k, v in self.sources.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Manifest:
        data = dict(data)
        source_fields = set(Source.__dataclass_fields__)
        data["sources"] = {
            k: Source(**{f: x for f, x in v.items() if f in source_fields})
            for k, v in data.get("sources", {}).items()
        }
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def write(self, directory: Path) -> None:
        (directory / MANIFEST_JSON).write_text(
            json.dumps(self.to_dict(), indent=1, ensure_ascii=False), "utf-8"
        )

    @classmethod
    def read(cls, directory: Path) -> Manifest:
        """The manifest of the index in `directory`, checked field by field.

        Raises:
            IndexMismatch: written by a newer openapi-rag.
            IndexDamaged: not JSON, not an object, or a field missing or of the wrong type.
        """
        path = directory / MANIFEST_JSON
        data = read_json(path, dict, directory=directory)
        version = data.get("format_version", 0)
        if isinstance(version, int) and version > FORMAT_VERSION:
            raise IndexMismatch(
                f"{directory} was written by a newer openapi-rag ({data.get('library_version')}); "
                f"upgrade openapi-rag or rebuild the index with `openapi-rag index`"
            )
        require_fields(path, data, _MANIFEST_FIELDS, directory=directory)
        for entry, source in data["sources"].items():
            if not isinstance(source, dict):
                raise IndexDamaged(path, f"has a source {entry!r} that is not an object", directory=directory)
            require_fields(path, source, _SOURCE_FIELDS, directory=directory)
            if not all(isinstance(c, str) for c in source["chunks"]):
                raise IndexDamaged(path, f"has non-string chunk ids in source {entry!r}", directory=directory)
            if not _SAFE_ID.fullmatch(source["service"]):
                # A service id names a file under services/: never let one point elsewhere.
                raise IndexDamaged(
                    path, f"has an invalid service id {source['service']!r}", directory=directory
                )
        return cls.from_dict(data)


# A service id: no path separators or NUL, and not "." or "..".
_SAFE_ID = re.compile(r"(?!\.\.?$)[^/\\\x00]+")

# What `Manifest.read` checks: a field missing or of another type means the file is damaged.
_MANIFEST_FIELDS: dict[str, type | tuple[type, ...]] = {
    "strategy": str,
    "strategy_params": dict,
    "embedder": str,
    "dimensions": int,
    "clean": list,
    "store": dict,
    "sources": dict,
    "failed": list,
    "format_version": int,
}
_SOURCE_FIELDS: dict[str, type | tuple[type, ...]] = {
    "file": str,
    "fingerprint": str,
    "files": list,
    "service": str,
    "chunks": list,
    "operations": int,
}


def check_settings(existing: Manifest, wanted: dict[str, Any], directory: Path) -> None:
    """Refuse to update an index with other settings than it was built with."""
    have = existing.settings()
    diffs = [
        f"{key}: index has {have[key]!r}, asked for {wanted[key]!r}"
        for key in have
        if have[key] != wanted[key]
    ]
    if diffs:
        raise IndexMismatch(
            f"{directory} was built with other settings ({'; '.join(diffs)}). Use the index's settings, "
            "pass --rebuild to rebuild it from scratch, or choose another --index directory"
        )
