"""Content fingerprints of a description's files, to tell changed sources from unchanged ones."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def fingerprint(files: Iterable[str | Path]) -> str:
    """sha256 over the names and bytes of `files` (a missing file counts as changed content)."""
    digest = hashlib.sha256()
    for file in sorted(str(f) for f in files):
        digest.update(file.encode("utf-8", "surrogateescape") + b"\0")
        try:
            digest.update(Path(file).read_bytes())
        except OSError:
            digest.update(b"<missing>")
        digest.update(b"\0")
    return digest.hexdigest()
