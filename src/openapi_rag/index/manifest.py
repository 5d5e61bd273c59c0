"""The index manifest: the settings an index was built with and the sources it holds.

`search` reads the settings back so queries are embedded with the embedder the index was built with
and ranked with the search settings it was built with (`search`, a `SearchSettings` as a dict);
`index` compares them with what it is asked for and refuses a silent mix.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from openapi_rag import __version__
from openapi_rag.errors import IndexMismatch

MANIFEST_JSON = "manifest.json"
FORMAT_VERSION = 1


@dataclass
class Source:
    """One entry document in the index and what it produced."""

    file: str  # absolute path of the entry document
    fingerprint: str  # hash of every file the description was read from
    files: list[str]  # those files, absolute
    service: str  # service id
    chunks: list[str]  # chunk ids
    operations: int = 0


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
        data["sources"] = {k: Source(**v) for k, v in data.get("sources", {}).items()}
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    def write(self, directory: Path) -> None:
        (directory / MANIFEST_JSON).write_text(
            json.dumps(self.to_dict(), indent=1, ensure_ascii=False), "utf-8"
        )

    @classmethod
    def read(cls, directory: Path) -> Manifest:
        data = json.loads((directory / MANIFEST_JSON).read_text("utf-8"))
        if int(data.get("format_version", 0)) > FORMAT_VERSION:
            raise IndexMismatch(
                f"{directory} was written by a newer openapi-rag ({data.get('library_version')}); "
                f"upgrade openapi-rag or rebuild the index with `openapi-rag index`"
            )
        return cls.from_dict(data)


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
