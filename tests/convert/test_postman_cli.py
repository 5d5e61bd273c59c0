from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner
from openapi_spec_validator import validate

from openapi_rag.cli import cli
from openapi_rag.convert import postman_to_openapi

PETSTORE = "petstore_v21.postman_collection.json"


@pytest.fixture(autouse=True)
def one_line_errors(monkeypatch):
    # These tests check the CLI's own error output, not tracebacks.
    monkeypatch.delenv("OPENAPI_RAG_RAISE_ERRORS", raising=False)


def expected(fixture_path, name):
    return postman_to_openapi(json.loads(fixture_path(name).read_text()), source=str(fixture_path(name)))


def test_stdout_is_yaml(fixture_path):
    result = CliRunner().invoke(cli, ["convert", "postman", str(fixture_path(PETSTORE))])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    document = yaml.safe_load(result.stdout)
    assert document == expected(fixture_path, PETSTORE)
    assert "&id" not in result.stdout  # shared objects are written out, not anchored
    validate(document)


@pytest.mark.parametrize(
    ("name", "args", "load"),
    [
        ("out.yaml", [], yaml.safe_load),
        ("out.yml", [], yaml.safe_load),
        ("out.json", [], json.loads),
        ("out.txt", ["--format", "json"], json.loads),
        ("out.json", ["-f", "yaml"], yaml.safe_load),
    ],
)
def test_output_file_format(tmp_path, fixture_path, name, args, load):
    out = tmp_path / name
    result = CliRunner().invoke(
        cli, ["convert", "postman", str(fixture_path(PETSTORE)), "-o", str(out), *args]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr == f"Wrote {out}: 5 paths, 7 operations\n"
    assert load(out.read_text(encoding="utf-8")) == expected(fixture_path, PETSTORE)


def test_json_to_stdout(fixture_path):
    result = CliRunner().invoke(cli, ["convert", "postman", str(fixture_path(PETSTORE)), "-f", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == expected(fixture_path, PETSTORE)


def test_warnings_go_to_stderr(tmp_path, fixture_path):
    source = fixture_path("shop_v20.postman_collection.json")
    result = CliRunner().invoke(cli, ["convert", "postman", str(source), "-o", str(tmp_path / "shop.yaml")])
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        f"warning: {source}: Orders > Admin > Purge cache: "
        "HTTP method PURGE cannot be expressed in OpenAPI 3.0; request left out",
        f"Wrote {tmp_path / 'shop.yaml'}: 5 paths, 6 operations",
    ]


def test_unknown_extension_is_a_usage_error(tmp_path, fixture_path):
    out = tmp_path / "out.txt"
    result = CliRunner().invoke(cli, ["convert", "postman", str(fixture_path(PETSTORE)), "-o", str(out)])
    assert result.exit_code == 2
    assert "cannot tell the format of 'out.txt': use .yaml or .json, or --format" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"info": ', "not valid JSON (line 1, column 10): Expecting value"),
        (
            '{"openapi": "3.0.3", "info": {"title": "x", "version": "1"}, "paths": {}}',
            "not a Postman collection",
        ),
        (
            '{"info": {"name": "x"}, "item": [{"name": "Bad", "request": {"url": 1}}]}',
            "Bad: request url must be a string or an object, got int",
        ),
    ],
)
def test_bad_input_exits_1(tmp_path, content, message):
    source = tmp_path / "c.json"
    source.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(cli, ["convert", "postman", str(source)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith(f"Error: {source}: ")
    assert message in result.stderr


def test_missing_file_exits_2(tmp_path):
    result = CliRunner().invoke(cli, ["convert", "postman", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


def test_invalid_output_is_reported_and_exits_1(tmp_path, fixture_path, monkeypatch):
    # A document the validator rejects: a path parameter nobody declares.
    broken = {
        "openapi": "3.0.3",
        "info": {"title": "x", "version": "1"},
        "paths": {"/a/{id}": {"get": {"responses": {"default": {"description": "x"}}}}},
    }
    monkeypatch.setattr("openapi_rag.convert.postman_to_openapi", lambda *a, **k: broken)
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, ["convert", "postman", str(fixture_path(PETSTORE)), "-o", str(out)])
    assert result.exit_code == 1
    assert json.loads(out.read_text()) == broken  # still written, to help fixing the collection
    assert result.stderr.splitlines() == [
        f"Wrote {out}: 1 paths, 1 operations",
        "invalid: Path parameter 'id' for 'get' operation in '/a/{id}' was not resolved",
        "Error: the converted document is not valid OpenAPI (1 findings)",
    ]


def test_convert_is_a_group():
    result = CliRunner().invoke(cli, ["convert", "--help"])
    assert result.exit_code == 0
    assert "postman" in result.stdout
