"""Find the entry documents of API descriptions under files and folders.

A folder is searched recursively; a file counts as an entry document when it has a top-level
`openapi` or `swagger` version key (or is a Postman collection). A regular expression over the raw
bytes decides for most files, so the hundreds of fragment files of a multi-file spec (DigitalOcean)
are never parsed here and never reported as services. Files named explicitly are always taken.

Symbolic links are followed when they lead inside the folders given (or allowed with
`--allow-refs`), each folder is searched once (a link back to an ancestor is no loop), and only
regular files are read; what is passed over is reported in `Discovery.skipped`, and so is a folder
holding no API description.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from openapi_rag.errors import SpecError
from openapi_rag.spec.limits import DEFAULT_LIMITS, ReadLimits, roots_of
from openapi_rag.spec.parse import read_bytes

SPEC_SUFFIXES = (".json", ".yaml", ".yml")
# The version key may sit at any indentation (a YAML document indented as a whole) and anywhere in
# a JSON file (Twilio sorts keys, so `openapi` comes after 2,000 lines of components).
_YAML_ENTRY = re.compile(rb"^([ \t]*)[\"']?(?:openapi|swagger)[\"']?[ \t]*:[ \t]*[\"']?\d", re.M)
_YAML_FIRST_KEY = re.compile(rb"^([ \t]*)[^\s#-]", re.M)
_JSON_ENTRY = re.compile(rb"\"(?:openapi|swagger)\"\s*:\s*\"?\d")
_POSTMAN = re.compile(rb"schema\.getpostman\.com/json/collection|\"_postman_id\"")
_SKIP_DIRS = {"node_modules", "__pycache__"}




@dataclass
class Skipped:
    """A path the search passed over, and why."""

    path: Path
    reason: str


@dataclass
class Discovery:
    entries: list[Path] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def is_entry_document(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> bool:
    """Whether the file looks like an API description; raises `SpecError` when it cannot be read."""
    data = read_bytes(path, limits)
    if path.suffix.lower() == ".json" or data.lstrip()[:1] == b"{":
        if _POSTMAN.search(data, 0, 65536):
            return True
        if not _JSON_ENTRY.search(data):
            return False
        try:  # the key may belong to a nested object of a fragment: check the top level
            doc = json.loads(data)
        except (ValueError, RecursionError):
            return True  # looks like a spec; loading will report why it is broken
        return isinstance(doc, dict) and ("openapi" in doc or "swagger" in doc)
    first = _YAML_FIRST_KEY.search(data)
    indent = first.group(1) if first else b""
    return any(m.group(1) == indent for m in _YAML_ENTRY.finditer(data))


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """Entry documents under `paths`, in a stable order, each once."""
    return discover_entries(paths).entries


def discover_entries(paths: Iterable[str | Path], limits: ReadLimits | None = None) -> Discovery:
    """Entry documents under `paths` (each once, in a stable order) and what was skipped.

    `limits.roots` bounds where links may lead; by default the folders in `paths`.
    """
    paths = [Path(p) for p in paths]
    limits = limits if limits is not None and limits.roots else (limits or DEFAULT_LIMITS).with_roots(roots_of(paths))
    found = Discovery()
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            candidates = _walk(path, limits, found.skipped)
            if not candidates:
                found.skipped.append(
                    Skipped(path, "no API description found (no file with a top-level `openapi` or "
                            "`swagger` key, and no Postman collection)")
                )
        else:
            candidates = [path]  # explicit files are loaded even when they do not look like a spec
        for candidate in candidates:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                found.entries.append(candidate)
    return found


def _walk(root: Path, limits: ReadLimits, skipped: list[Skipped]) -> list[Path]:
    """Spec files under `root`; an explicit stack, so deep trees cannot overflow Python's."""
    out: list[Path] = []
    searched: set[str] = set()  # real paths of folders searched, so link loops end
    todo = [root]
    while todo:
        folder = todo.pop()
        real = os.path.realpath(folder)
        if real in searched:  # a link back up (a loop) or a second link to one folder: once is enough
            continue
        searched.add(real)
        try:
            with os.scandir(folder) as listing:
                items = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            skipped.append(Skipped(folder, f"cannot list: {exc.strerror}"))
            continue
        subfolders = []
        for item in items:
            path = Path(item.path)
            wanted_file = path.suffix.lower() in SPEC_SUFFIXES
            is_dir = item.is_dir(follow_symlinks=True)
            if is_dir and (item.name.startswith(".") or item.name in _SKIP_DIRS):
                continue
            if item.is_symlink() and (is_dir or wanted_file) and not limits.allows(path, root):
                skipped.append(
                    Skipped(path, f"link to {os.path.realpath(path)}, outside the folders given; not followed "
                            "(give that folder on the command line or with --allow-refs DIR)")
                )
            elif is_dir:
                subfolders.append(path)
            elif wanted_file:
                try:
                    if is_entry_document(path, limits):
                        out.append(path)
                except SpecError as exc:
                    skipped.append(Skipped(path, exc.reason))
        todo.extend(reversed(subfolders))
    return sorted(out)
