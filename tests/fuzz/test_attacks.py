"""Every input attack of issue #20 (part A) as a regression test: the outcome is a clear problem or
failure naming the file and place, nothing outside the folder is read, nothing hangs."""

from __future__ import annotations

import json
import logging
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from click.testing import CliRunner

from openapi_rag.chunking.ref_inline import ChunkLimits, RefInlineStrategy
from openapi_rag.chunking.ref_linked import RefLinkedStrategy
from openapi_rag.cli import cli
from openapi_rag.errors import LimitExceeded, SpecNotFound, SpecParseError
from openapi_rag.spec import load_service, load_services
from openapi_rag.spec.limits import ReadLimits
from tests.fuzz import attacks


def problems_of(result) -> list[str]:
    return [str(p) for s in result.services for p in s.problems]


def everything(result) -> str:
    """All the text a result holds, to check that a secret never got in."""
    return json.dumps([s.document for s in result.services]) + json.dumps(problems_of(result))


def test_control_loads_its_second_file(tmp_path):
    result = load_services([attacks.ref_ok(tmp_path).parent])
    assert not result.failed and not problems_of(result)
    assert result.services[0].files[-1] == "pet.yaml"  # the fragment beside it was read
    assert "name" in json.dumps(result.services[0].document["components"]["schemas"])


@pytest.mark.parametrize("build", [attacks.ref_absolute, attacks.ref_parent, attacks.ref_symlink_out])
def test_ref_outside_the_folder_is_a_problem_never_read(tmp_path, build):
    target = build(tmp_path)
    result = load_services([target])
    assert "root:" not in everything(result) and "SECRET" not in everything(result)
    outside = [p for s in result.services for p in s.problems if "outside the allowed folders" in p.message]
    assert len(outside) == 1
    assert outside[0].where == "/paths/~1a/get/description" and outside[0].file.endswith("api.yaml")


def test_allow_refs_opens_the_boundary(tmp_path):
    specs = attacks.ref_parent(tmp_path)
    result = load_services([specs], allow_refs=[tmp_path])
    assert not any("outside" in p for p in problems_of(result))
    assert result.services[0].operations[0].description == "SECRET-PARENT-VALUE"


def test_file_uri_is_never_fetched(tmp_path):
    result = load_services([attacks.ref_file_uri(tmp_path)])
    assert "root:" not in everything(result)
    assert any("remote $ref not fetched: file:///etc/passwd" in p for p in problems_of(result))


def test_link_to_dev_zero_in_a_folder_is_skipped(tmp_path):
    result = load_services([attacks.link_dev_zero(tmp_path)])
    assert [s.id for s in result.services] == ["attack"]
    assert len(result.failed) == 1 and result.failed[0].file.endswith("zero.yaml")
    assert "outside the folders given" in result.failed[0].error


def test_dev_zero_named_explicitly_is_not_read():
    with pytest.raises(SpecNotFound, match="not a regular file \\(a character device\\)"):
        load_service("/dev/zero")


def test_fifo_is_refused_not_waited_on(tmp_path):
    result = load_services([attacks.fifo(tmp_path)])
    assert [s.id for s in result.services] == ["attack"]
    assert result.failed[0].file.endswith("x.yaml") and "a FIFO" in result.failed[0].error


def test_file_over_the_size_limit_is_not_read(tmp_path):
    path = attacks.ref_ok(tmp_path)
    with pytest.raises(LimitExceeded) as exc:
        load_service(path, limits=ReadLimits(max_file_bytes=100))
    assert exc.value.limit == "max_file_bytes" and "OPENAPI_RAG_MAX_FILE_BYTES" in str(exc.value)


def test_size_limit_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAPI_RAG_MAX_FILE_BYTES", "100")
    result = load_services([attacks.ref_ok(tmp_path)])
    assert "max_file_bytes=100" in result.failed[0].error


def test_alias_bomb_fails_fast_with_the_limit_named(tmp_path):
    path = attacks.alias_bomb(tmp_path)
    assert path.stat().st_size < 700
    with pytest.raises(LimitExceeded) as exc:
        load_service(path)
    assert exc.value.limit == "max_alias_nodes" and str(path) in str(exc.value)


def test_alias_uses_are_counted(tmp_path):
    with pytest.raises(LimitExceeded) as exc:
        load_service(attacks.alias_bomb(tmp_path), limits=ReadLimits(max_yaml_aliases=10))
    assert exc.value.limit == "max_yaml_aliases" and exc.value.where.startswith("line ")


def test_alias_that_contains_itself(tmp_path):
    result = load_services([attacks.alias_cycle(tmp_path)])
    assert len(result.failed) == 1 and "recursive" in result.failed[0].error


@pytest.mark.parametrize("build", [attacks.deep_json, attacks.deep_yaml, attacks.postman_deep])
def test_deep_nesting_is_a_message_not_a_recursion_error(tmp_path, build):
    result = load_services([build(tmp_path)])
    assert len(result.failed) == 1
    assert "nesting" in result.failed[0].error and "RecursionError" not in result.failed[0].error


def test_nesting_limit_is_configurable(tmp_path):
    path = attacks.ref_ok(tmp_path)
    with pytest.raises(LimitExceeded, match="max_depth=3"):
        load_service(path, limits=ReadLimits(max_depth=3))


def test_postman_variable_bomb(tmp_path):
    result = load_services([attacks.postman_variables(tmp_path)])
    assert len(result.failed) == 1
    assert "max_variable_chars=10000" in result.failed[0].error and "{{a}}" in result.failed[0].error


def test_postman_folder_depth_limit(tmp_path):
    path = attacks.postman_deep(tmp_path, depth=60)  # within max_depth; the folder bound stops it
    result = load_services([path], limits=ReadLimits(max_postman_depth=50))
    assert "max_postman_depth=50" in result.failed[0].error and "folders nested 51 deep" in result.failed[0].error


def test_ref_fan_out_is_bounded(tmp_path):
    with pytest.raises(LimitExceeded) as exc:
        load_service(attacks.ref_fanout(tmp_path), limits=ReadLimits(max_bundle_nodes=20_000))
    assert exc.value.limit == "max_bundle_nodes" and exc.value.where.startswith("/")


def test_many_refs_to_one_schema_make_bounded_chunks(tmp_path, caplog):
    service = load_service(attacks.many_refs(tmp_path, count=3_000))
    limits = ChunkLimits(max_unit_chars=20_000, max_unit_chunks=4)
    caplog.set_level(logging.WARNING)
    inline = RefInlineStrategy(limits=limits).chunk_service(service)
    linked = RefLinkedStrategy(limits=limits).chunk_service(service)
    assert len(inline) == 4
    assert len([c for c in linked if c.metadata.get("schema") == "Big"]) == 4
    assert all(len(c.embed_text) < 20_000 for c in inline + linked)
    assert "limit max_unit_chars" in caplog.text and "limit max_unit_chunks=4" in caplog.text


def test_ref_chain_gets_bounded_schema_chunks(tmp_path, caplog):
    service = load_service(attacks.ref_chain(tmp_path, length=300))
    caplog.set_level(logging.WARNING)
    chunks = RefLinkedStrategy(limits=ChunkLimits(max_schema_chunks=50)).chunk_service(service)
    schemas = [c.metadata["schema"] for c in chunks if c.kind == "schema"]
    assert len(schemas) == 50 and "S0" in schemas  # the operation's own schema is kept
    assert "limit max_schema_chunks=50" in caplog.text


def test_duplicate_keys_are_reported_with_the_line(tmp_path):
    result = load_services([attacks.duplicate_keys(tmp_path)])
    assert result.services[0].operations[0].summary == "second"
    assert any("line 6: duplicate key 'get' (first at line 5)" in p for p in problems_of(result))


def test_duplicate_json_keys_are_reported(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('{"openapi": "3.0.3", "info": {"title": "d", "version": "1"},\n"paths": {"/a": {\n'
                    '"get": {"responses": {}},\n"get": {"summary": "two", "responses": {}}}}}')
    problems = problems_of(load_services([path]))
    assert any("/paths/~1a/get: duplicate key 'get' at line 4" in p for p in problems)


def test_merge_key_overrides_are_not_duplicates(tmp_path):
    path = tmp_path / "merge.yaml"
    path.write_text(attacks.HEAD + "x-base: &base {a: 1, b: 2}\nx-c: {<<: *base, b: 3}\npaths: {}\n")
    assert problems_of(load_services([path])) == []


def test_operations_of_the_wrong_type_are_reported(tmp_path):
    result = load_services([attacks.bad_operations(tmp_path)])
    assert [op.id for op in result.services[0].operations] == ["DELETE /a"]
    problems = problems_of(result)
    for where, line, what in (("get", 5, "a str"), ("put", 6, "a list"), ("post", 7, "null")):
        assert any(f"/paths/~1a/{where} (line {line}): operation is {what}, not an object" in p for p in problems)
    assert any("'GET' skipped (methods are lower case)" in p for p in problems)
    assert any("'fetch' skipped" in p for p in problems)


def test_folder_link_loop_ends(tmp_path):
    result = load_services([attacks.symlink_loop(tmp_path)])
    assert [s.id for s in result.services] == ["attack"] and not result.failed


def test_linked_folder_outside_is_reported_and_followed_when_allowed(tmp_path):
    catalog = attacks.link_folder_outside(tmp_path)
    result = load_services([catalog])
    assert not result.services
    assert any("outside the folders given" in f.error for f in result.failed)
    allowed = load_services([catalog], allow_refs=[tmp_path / "elsewhere"])
    assert [s.id for s in allowed.services] == ["attack"] and not allowed.failed


def test_linked_folder_inside_is_followed(tmp_path):
    (tmp_path / "real").mkdir()
    attacks.ref_ok(tmp_path / "real")
    os_link = tmp_path / "catalog"
    os_link.mkdir()
    (os_link / "provider").symlink_to(tmp_path / "real")
    result = load_services([tmp_path / "catalog"], allow_refs=[tmp_path])
    assert [s.id for s in result.services] == ["attack"] and not problems_of(result)


def test_folder_without_descriptions_says_so(tmp_path):
    result = load_services([attacks.empty_folder(tmp_path)])
    assert result.failed[0].error.startswith("no API description found")


class _Counting(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        _Counting.hits.append(self.path)
        body = b"type: object\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_validate_never_fetches_remote_refs(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/schema.yaml"
        spec = tmp_path / "api.yaml"
        spec.write_text(
            attacks.HEAD + "paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n"
            f"          content:\n            application/json:\n              schema: {{$ref: '{url}'}}\n"
        )
        result = CliRunner().invoke(cli, ["inspect", str(tmp_path), "--validate", "--json"])
    finally:
        server.shutdown()
        server.server_close()
    assert _Counting.hits == []
    report = json.loads(result.output)
    assert any("remote $ref not fetched" in p for p in report["services"][0]["problems"])
    assert any("never fetched" in finding for finding in report["services"][0]["validation"])


def test_cli_allow_refs(tmp_path):
    specs = attacks.ref_parent(tmp_path)
    refused = CliRunner().invoke(cli, ["inspect", str(specs), "--json"])
    allowed = CliRunner().invoke(cli, ["inspect", str(specs), "--json", "--allow-refs", str(tmp_path)])
    assert "outside the allowed folders" in refused.output
    assert refused.exit_code == 0 and allowed.exit_code == 0
    assert "outside the allowed folders" not in allowed.output


def test_chunk_limits_from_the_environment(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("OPENAPI_RAG_MAX_UNIT_CHUNKS", "2")
    service = load_service(attacks.many_refs(tmp_path, count=2_000))
    caplog.set_level(logging.WARNING)
    assert len(RefInlineStrategy().chunk_service(service)) == 2
    assert "OPENAPI_RAG_MAX_UNIT_CHUNKS" in caplog.text


def test_bad_limit_value_is_named():
    with pytest.raises(ValueError, match="OPENAPI_RAG_MAX_DEPTH must be a whole number"):
        ReadLimits.from_env({"OPENAPI_RAG_MAX_DEPTH": "deep"})


def test_response_content_that_is_not_an_object(tmp_path):
    """Found by hypothesis: `content: 7` crashed the default (`compact`) chunker."""
    path = tmp_path / "api.yaml"
    path.write_text(attacks.HEAD + "paths:\n  /a:\n    get:\n      responses:\n        '200': {content: 7}\n")
    service = load_service(path)
    from openapi_rag.chunking.registry import get_strategy

    assert len(get_strategy("compact").chunk_service(service)) == 1


def test_components_that_is_not_a_mapping(tmp_path):
    """Found by atheris: `components: x` crashed the bundler."""
    path = tmp_path / "api.yaml"
    path.write_text(attacks.HEAD + "paths: {}\ncomponents: x\n")
    service = load_service(path)
    assert [p.message for p in service.problems] == ["`components` is not a mapping; ignored"]


def test_memory_error_never_stops_a_corpus(tmp_path, monkeypatch):
    attacks.ref_ok(tmp_path)
    (tmp_path / "b").mkdir()
    huge = attacks.duplicate_keys(tmp_path / "b")
    from openapi_rag.spec import load as load_module

    real_bundle = load_module.bundle

    def bundle(entry, *args, **kwargs):
        if entry == huge:
            raise MemoryError
        return real_bundle(entry, *args, **kwargs)

    monkeypatch.setattr(load_module, "bundle", bundle)
    result = load_services([tmp_path])
    assert [s.file for s in result.services] == [str(tmp_path / "good.yaml")]
    assert result.failed[0].error == "too large or too deep to load (MemoryError)"


def test_aliased_list_as_mapping_key(tmp_path):
    """Found by atheris: `{*big: 1}` made the key a string by expanding the whole aliased list."""
    path = tmp_path / "api.yaml"
    path.write_text(attacks.HEAD + "paths: {}\nx-a: &a [1, 2]\nx-b: [{*a: 1}]\n")
    with pytest.raises(SpecParseError, match="a mapping key is a list or mapping") as exc:
        load_service(path)
    assert exc.value.where == "line 4, column 6"  # where the aliased list is written


def test_ref_with_a_nul_byte(tmp_path):
    """Found by hypothesis: a NUL byte in a `$ref`'s file name raised ValueError."""
    path = tmp_path / "api.json"
    doc = {"openapi": "3.0.3", "info": {"title": "n", "version": "1"},
           "paths": {"/a": {"get": {"description": {"$ref": "a\u0000b.yaml"}, "responses": {}}}}}
    path.write_text(json.dumps(doc))
    problems = problems_of(load_services([path]))
    assert any("cannot hold a NUL byte" in p for p in problems)
