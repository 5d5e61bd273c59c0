"""Property-based fuzzing (hypothesis) of the loader, the ref resolver/bundler, the Postman converter
and the chunkers: whatever the input, the outcome is a result or one of our errors, never another
exception, a hang or a read outside the allowed folder.

The default run is small and bounded (`FAST`); `pytest -m slow tests/fuzz` runs many more examples.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openapi_rag.chunking.llm_strategies import is_llm_strategy
from openapi_rag.chunking.registry import get_strategy, list_strategies
from openapi_rag.convert.postman import postman_to_openapi
from openapi_rag.errors import ConvertError, SpecError
from openapi_rag.spec import load_service
from openapi_rag.spec import parse as parse_module
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.parse import load_file, parse_text
from tests.fuzz.strategies import postman_collections, specs, yaml_texts

# database=None: nothing written into the repository; deadline generous for a loaded CI machine.
FAST = settings(max_examples=30, deadline=5_000, database=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=1_000, deadline=None, database=None, suppress_health_check=list(HealthCheck))
SMALL = ReadLimits(max_bundle_nodes=20_000, max_alias_nodes=20_000)
SECRET = "SECRET-OUTSIDE-THE-FOLDER"


def check_text(text: str, suffix: str) -> None:
    try:
        data = parse_text(text, Path("fuzz" + suffix), [], SMALL)
    except SpecError:
        return
    json.dumps(data, default=str)  # a finite tree: no cycle survived the loader


def check_yaml(text: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "api.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        try:
            service = load_service(path, limits=SMALL)
        except SpecError:
            return
        json.dumps(service.document, default=str)


def check_bundle(doc: dict) -> None:
    """Load `doc` beside fragments, a link leading out and a secret outside; nothing outside is read."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "root"
        (root / "sub").mkdir(parents=True)
        (Path(tmp) / "outside.yaml").write_text(f"A: {SECRET}\nsecret: {SECRET}\n")
        (root / "other.yaml").write_text("A: {type: object, properties: {o: {$ref: 'sub/frag.json#/x'}}}\n")
        (root / "sub" / "frag.json").write_text('{"x": {"$ref": "../other.yaml#/A"}}')
        os.symlink(Path(tmp) / "outside.yaml", root / "link.yaml")
        path = root / "api.json"
        path.write_text(json.dumps(doc))
        read: list[str] = []
        real_read = parse_module.read_bytes

        def recording_read(file: Path, limits: ReadLimits = SMALL) -> bytes:
            read.append(os.path.realpath(file))
            return real_read(file, limits)

        with mock.patch.object(parse_module, "read_bytes", recording_read):
            try:
                service = load_service(path, limits=SMALL.with_roots([root]))
            except SpecError:
                service = None
        assert all(Path(f).is_relative_to(os.path.realpath(root)) for f in read), read
        if service is not None:
            assert SECRET not in json.dumps(service.document, default=str)
            for name in list_strategies():
                if not is_llm_strategy(name):
                    get_strategy(name).chunk_service(service)


def check_postman(collection: dict) -> None:
    try:
        doc = postman_to_openapi(collection, source="fuzz.json", limits=SMALL)
    except ConvertError:
        return
    assert isinstance(doc["paths"], dict)
    json.dumps(doc)


@FAST
@given(st.text(max_size=300), st.sampled_from([".yaml", ".json"]))
def test_loader_text(text, suffix):
    check_text(text, suffix)


@FAST
@given(yaml_texts())
def test_loader_yaml_aliases(text):
    check_yaml(text)


@FAST
@given(specs())
def test_bundler_and_chunkers(doc):
    check_bundle(doc)


@FAST
@given(postman_collections())
def test_postman_converter(collection):
    check_postman(collection)


@pytest.mark.slow
@SLOW
@given(st.text(max_size=2_000), st.sampled_from([".yaml", ".json"]))
def test_loader_text_long(text, suffix):
    check_text(text, suffix)


@pytest.mark.slow
@SLOW
@given(yaml_texts())
def test_loader_yaml_aliases_long(text):
    check_yaml(text)


@pytest.mark.slow
@SLOW
@given(specs())
def test_bundler_and_chunkers_long(doc):
    check_bundle(doc)


@pytest.mark.slow
@SLOW
@given(postman_collections())
def test_postman_converter_long(collection):
    check_postman(collection)


def test_load_file_refuses_binary_noise(tmp_path):
    path = tmp_path / "noise.yaml"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(SpecError, match="not UTF-8"):
        load_file(path)
