"""Fuzz targets shared by atheris (`tests/fuzz/atheris_fuzz.py`) and the corpus replay test.

Each target takes raw bytes and must either succeed or raise one of our errors (`SpecError`,
`ConvertError`); anything else escaping it is a crash.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from openapi_rag.chunking.registry import get_strategy
from openapi_rag.convert.postman import postman_to_openapi
from openapi_rag.errors import ConvertError, SpecError
from openapi_rag.spec import load_service
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.parse import parse_text

LIMITS = ReadLimits(max_bundle_nodes=20_000, max_alias_nodes=20_000, max_file_bytes=1_000_000)
# The cheap, deterministic strategies; the LLM ones need a model.
CHUNKERS = ("endpoint", "thin", "ref-inline", "ref-linked", "compact")


def loader(data: bytes) -> None:
    """YAML/JSON text → plain data (suffix chosen by the first byte)."""
    text = data.decode("utf-8", errors="replace")
    suffix = ".json" if data[:1] == b"{" else ".yaml"
    try:
        json.dumps(parse_text(text, Path("fuzz" + suffix), [], LIMITS), default=str)
    except SpecError:
        pass


def _in_folder(data: bytes, name: str, then: Callable[[Path], None]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        root.mkdir()
        (Path(tmp) / "outside.yaml").write_text("A: {type: string}\n")
        (root / "other.yaml").write_text("A: {type: object, properties: {b: {$ref: '#/A'}}}\n")
        os.symlink(Path(tmp) / "outside.yaml", root / "link.yaml")
        path = root / name
        path.write_bytes(data)
        then(path)


def bundler(data: bytes) -> None:
    """A description with its `$ref`s resolved and bundled inside its folder."""

    def load(path: Path) -> None:
        try:
            service = load_service(path, limits=LIMITS.with_roots([path.parent]))
        except SpecError:
            return
        json.dumps(service.document, default=str)

    _in_folder(data, "api.yaml", load)


def postman(data: bytes) -> None:
    """A Postman collection (JSON) → OpenAPI."""
    try:
        collection = json.loads(data.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError):
        return
    if not isinstance(collection, dict):
        return
    try:
        json.dumps(postman_to_openapi(collection, source="fuzz.json", limits=LIMITS))
    except ConvertError:
        pass


def chunkers(data: bytes) -> None:
    """A description loaded and cut by every deterministic chunker."""

    def chunk(path: Path) -> None:
        try:
            service = load_service(path, limits=LIMITS.with_roots([path.parent]))
        except SpecError:
            return
        for name in CHUNKERS:
            get_strategy(name).chunk_service(service)

    _in_folder(data, "api.yaml", chunk)


TARGETS: dict[str, Callable[[bytes], None]] = {
    "loader": loader,
    "bundler": bundler,
    "postman": postman,
    "chunkers": chunkers,
}
