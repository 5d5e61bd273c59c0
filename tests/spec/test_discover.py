"""Discovery of entry documents in folders; fragments of multi-file specs are not services."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_rag.spec import discover

FIXTURES = Path(__file__).parent / "fixtures"


def test_fragments_are_not_entry_documents():
    found = [p.relative_to(FIXTURES).as_posix() for p in discover([FIXTURES])]
    assert found == ["cyclic.yaml", "multi/openapi.yaml", "pathlevel.json", "quirks.yaml", "swagger2.yaml"]


def test_indented_yaml_and_late_json_keys_are_found(tmp_path):
    (tmp_path / "indented.yaml").write_text("---\n  swagger: '2.0'\n  info: {title: x}\n  paths: {}\n")
    late = {"components": {"schemas": {f"S{i}": {"type": "string"} for i in range(5000)}}, "openapi": "3.0.1"}
    (tmp_path / "sorted.json").write_text(json.dumps(late, indent=2))
    nested = {"definitions": {"x": {"properties": {"openapi": "3.0"}}}}
    (tmp_path / "fragment.json").write_text(json.dumps(nested))
    (tmp_path / "fragment.yaml").write_text("schema:\n  openapi: 3.0.0\n")
    assert sorted(p.name for p in discover([tmp_path])) == ["indented.yaml", "sorted.json"]


def test_explicit_files_are_always_taken_once(tmp_path):
    frag = tmp_path / "fragment.yaml"
    frag.write_text("type: object\n")
    assert discover([frag, frag, tmp_path]) == [frag]
