"""Find the entry documents of API descriptions under files and folders.

A folder is searched recursively; a file counts as an entry document when it has a top-level
`openapi` or `swagger` version key (or is a Postman collection). A regular expression over the raw
bytes decides for most files, so the hundreds of fragment files of a multi-file spec (DigitalOcean)
are never parsed here and never reported as services. Files named explicitly are always taken.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

SPEC_SUFFIXES = (".json", ".yaml", ".yml")
# The version key may sit at any indentation (a YAML document indented as a whole) and anywhere in
# a JSON file (Twilio sorts keys, so `openapi` comes after 2,000 lines of components).
_YAML_ENTRY = re.compile(rb"^([ \t]*)[\"']?(?:openapi|swagger)[\"']?[ \t]*:[ \t]*[\"']?\d", re.M)
_YAML_FIRST_KEY = re.compile(rb"^([ \t]*)[^\s#-]", re.M)
_JSON_ENTRY = re.compile(rb"\"(?:openapi|swagger)\"\s*:\s*\"?\d")
_POSTMAN = re.compile(rb"schema\.getpostman\.com/json/collection|\"_postman_id\"")
_SKIP_DIRS = {"node_modules", "__pycache__"}


def is_entry_document(path: Path) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if path.suffix.lower() == ".json" or data.lstrip()[:1] == b"{":
        if _POSTMAN.search(data, 0, 65536):
            return True
        if not _JSON_ENTRY.search(data):
            return False
        try:  # the key may belong to a nested object of a fragment: check the top level
            doc = json.loads(data)
        except ValueError:
            return True  # looks like a spec; loading will report why it is broken
        return isinstance(doc, dict) and ("openapi" in doc or "swagger" in doc)
    first = _YAML_FIRST_KEY.search(data)
    indent = first.group(1) if first else b""
    return any(m.group(1) == indent for m in _YAML_ENTRY.finditer(data))


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """Entry documents under `paths`, in a stable order, each once."""
    found: list[Path] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            candidates = _walk(path)
        else:
            candidates = [path]  # explicit files are loaded even when they do not look like a spec
        for candidate in candidates:
            key = candidate.resolve()
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    return found


def _walk(root: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if path.suffix.lower() in SPEC_SUFFIXES and is_entry_document(path):
                out.append(path)
    return sorted(out)
