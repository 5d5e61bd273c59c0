"""Bad input: every failure names the file and the place in it; one bad file never stops a corpus."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from openapi_rag.errors import SpecError, SpecParseError, UnsupportedSpecVersion
from openapi_rag.spec import load_service, load_services

GOOD = {
    "openapi": "3.0.3",
    "info": {"title": "Good", "version": "1"},
    "paths": {"/ok": {"get": {"summary": "ok", "responses": {"200": {"description": "ok"}}}}},
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_invalid_json_names_line_and_column(tmp_path):
    path = write(tmp_path, "bad.json", '{"openapi": "3.0.0",\n  "info": {,\n}')
    with pytest.raises(SpecParseError) as exc:
        load_service(path)
    assert exc.value.file == str(path)
    assert exc.value.where == "line 2, column 12"
    assert "invalid JSON" in str(exc.value)


def test_invalid_yaml_names_line_and_column(tmp_path):
    path = write(tmp_path, "bad.yaml", "openapi: 3.0.0\ninfo:\n  title: [unclosed\npaths: {}\n")
    with pytest.raises(SpecParseError) as exc:
        load_service(path)
    assert exc.value.where.startswith("line ")
    assert "invalid YAML" in exc.value.reason


def test_duplicate_yaml_anchor_names_both_places(tmp_path):
    path = write(
        tmp_path,
        "anchors.yaml",
        "openapi: 3.0.0\ninfo: {title: x, version: '1'}\npaths: {}\na: &x 1\nb: &x 2\n",
    )
    with pytest.raises(SpecParseError) as exc:
        load_service(path)
    assert "duplicate anchor" in exc.value.reason
    assert "line 4" in exc.value.reason and exc.value.where.startswith("line 5")


def test_control_character_in_yaml(tmp_path):
    path = write(tmp_path, "ctrl.yaml", "openapi: 3.0.0\ninfo:\n  title: bad\x01title\npaths: {}\n")
    with pytest.raises(SpecParseError) as exc:
        load_service(path)
    assert "control character U+0001" in exc.value.reason
    assert exc.value.where == "line 3, column 13"


def test_lone_surrogates_are_replaced_and_reported(tmp_path):
    doc = json.dumps(GOOD).replace('"summary": "ok"', '"summary": "bad \\ud800 text"')
    service = load_service(write(tmp_path, "sur.json", doc))
    assert service.operations[0].summary == "bad \ufffd text"
    assert any("surrogate" in p.message for p in service.problems)


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"openapi: 3.0.0\ninfo: {title: caf\xe9}\n")
    with pytest.raises(SpecParseError) as exc:
        load_service(path)
    assert "not UTF-8" in exc.value.reason and exc.value.where == "line 2"


def test_missing_paths(tmp_path):
    path = write(
        tmp_path, "nopaths.json", json.dumps({"openapi": "3.0.0", "info": {"title": "x", "version": "1"}})
    )
    with pytest.raises(SpecError) as exc:
        load_service(path)
    assert exc.value.where == "/paths" and "missing required top-level `paths`" in exc.value.reason


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"openapi": "4.0.0", "paths": {}}, "OpenAPI version '4.0.0' is not supported"),
        ({"swagger": "1.2", "paths": {}}, "Swagger version '1.2' is not supported"),
        ({"name": "package.json"}, "no top-level `openapi` or `swagger` key"),
        ([1, 2], "top level is a list"),
    ],
)
def test_unsupported_documents(tmp_path, doc, message):
    with pytest.raises(UnsupportedSpecVersion) as exc:
        load_service(write(tmp_path, "x.json", json.dumps(doc)))
    assert message in str(exc.value)


def test_dangling_refs_are_reported_with_their_place(tmp_path):
    doc = json.loads(json.dumps(GOOD))
    doc["paths"]["/ok"]["get"]["responses"]["200"]["content"] = {
        "application/json": {"schema": {"$ref": "#/components/schemas/Missing"}}
    }
    doc["paths"]["/ok"]["get"]["parameters"] = [{"$ref": "other.yaml#/param"}]
    service = load_service(write(tmp_path, "dangling.json", json.dumps(doc)))
    messages: dict[str, list[str]] = {}
    for p in service.problems:
        messages.setdefault(p.where, []).append(p.message)
    schema_at = "/paths/~1ok/get/responses/200/content/application~1json/schema"
    assert any("nothing at /components" in m for m in messages[schema_at])
    assert any("file other.yaml: file not found" in m for m in messages["/paths/~1ok/get/parameters/0"])
    assert len(service.operations) == 1
    assert any("parameter without name/in skipped" in p.message for p in service.problems)


def test_one_bad_spec_never_stops_the_corpus(tmp_path):
    write(tmp_path, "a-good.json", json.dumps(GOOD))
    write(tmp_path, "b-bad.json", '{"openapi": "3.0.0", oops}')
    write(tmp_path, "c-good.yaml", "openapi: 3.0.0\ninfo: {title: Good, version: '2'}\npaths: {}\n")
    result = load_services([tmp_path])
    assert [s.id for s in result.services] == ["good", "good-2"]
    assert [(Path(f.file).name, f.where) for f in result.failed] == [("b-bad.json", "line 1, column 22")]
    assert not result.ok


def test_a_4mb_spec_loads_quickly(tmp_path):
    paths = {
        f"/resource{i}/{{id}}": {
            "get": {
                "summary": f"Get resource {i}",
                "description": "x" * 3000,
                "responses": {"200": {"description": "ok"}},
            },
        }
        for i in range(1300)
    }
    path = write(
        tmp_path,
        "big.json",
        json.dumps({"openapi": "3.0.0", "info": {"title": "Big", "version": "1"}, "paths": paths}),
    )
    assert path.stat().st_size > 4_000_000
    start = time.perf_counter()
    service = load_service(path)
    assert len(service.operations) == 1300
    assert time.perf_counter() - start < 10  # generous: a hang or quadratic blow-up is what this catches


def test_deeply_nested_refs_do_not_blow_the_stack(tmp_path):
    # A chain of 3,000 schemas each naming the next: bundling works from a queue, not recursion.
    schemas = {
        f"S{i}": {"type": "object", "properties": {"next": {"$ref": f"#/components/schemas/S{i + 1}"}}}
        for i in range(3000)
    }
    schemas["S3000"] = {"$ref": "#/components/schemas/S0"}
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "Chain", "version": "1"},
        "components": {"schemas": schemas},
        "paths": {
            "/a": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/S0"}}},
                        }
                    }
                }
            }
        },
    }
    service = load_service(write(tmp_path, "chain.json", json.dumps(doc)))
    assert len(service.operations[0].reachable_schemas) == 3001
