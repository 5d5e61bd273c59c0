"""Hostile and broken inputs, each built in a fresh folder: the regression tests and
`scripts/attack_table.py` run the same ones.

Every builder takes an empty folder, writes the attack into it and returns the path to give the
command (a file or the folder). None of them needs the network.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

HEAD = 'openapi: 3.0.3\ninfo: {title: Attack, version: "1"}\n'


def _spec(folder: Path, body: str, name: str = "api.yaml") -> Path:
    path = folder / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def ref_absolute(folder: Path) -> Path:
    """`description: {$ref: /etc/passwd}`."""
    return _spec(folder, "paths:\n  /a:\n    get:\n      description: {$ref: '/etc/passwd'}\n      responses: {}\n")


def ref_parent(folder: Path) -> Path:
    """A `$ref` to `../secrets.yaml`, a file beside the folder given."""
    (folder / "secrets.yaml").write_text("token: SECRET-PARENT-VALUE\n", encoding="utf-8")
    specs = folder / "specs"
    specs.mkdir()
    _spec(specs, "paths:\n  /a:\n    get:\n      description: {$ref: '../secrets.yaml#/token'}\n      responses: {}\n")
    return specs


def ref_symlink_out(folder: Path) -> Path:
    """A `$ref` to a file inside the folder that is a symbolic link to a file outside it."""
    (folder / "secrets.yaml").write_text("token: SECRET-LINK-VALUE\n", encoding="utf-8")
    specs = folder / "specs"
    specs.mkdir()
    os.symlink(folder / "secrets.yaml", specs / "shared.yaml")
    _spec(specs, "paths:\n  /a:\n    get:\n      description: {$ref: 'shared.yaml#/token'}\n      responses: {}\n")
    return specs


def ref_file_uri(folder: Path) -> Path:
    """A `$ref` written as a `file://` URI."""
    return _spec(folder, "paths:\n  /a:\n    get:\n      description: {$ref: 'file:///etc/passwd'}\n      responses: {}\n")


def link_dev_zero(folder: Path) -> Path:
    """A link named `zero.yaml` to /dev/zero beside a good spec."""
    ref_ok(folder)
    os.symlink("/dev/zero", folder / "zero.yaml")
    return folder


def dev_zero_named(folder: Path) -> Path:
    """/dev/zero named on the command line (explicit files are always tried)."""
    return Path("/dev/zero")


def fifo(folder: Path) -> Path:
    """A FIFO named `x.yaml` beside a good spec: reading it would wait forever."""
    ref_ok(folder)
    os.mkfifo(folder / "x.yaml")
    return folder


def alias_bomb(folder: Path) -> Path:
    """'Billion laughs': 9 levels of 9 aliases, 9^9 nodes once expanded, in about 600 bytes."""
    lines = [HEAD + "paths: {}", 'x-l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [f"x-l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path = folder / "bomb.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def alias_cycle(folder: Path) -> Path:
    """A YAML list that contains itself."""
    return _spec(folder, "paths: {}\nx-loop: &loop [1, *loop]\n")


def deep_json(folder: Path) -> Path:
    """100,000 nested lists."""
    path = folder / "deep.json"
    path.write_text('{"openapi": "3.0.3", "paths": {}, "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    return path


def deep_yaml(folder: Path) -> Path:
    """5,000 nested flow mappings."""
    return _spec(folder, "paths: {}\nx: " + "{a: " * 5_000 + "1" + "}" * 5_000 + "\n")


def postman_variables(folder: Path) -> Path:
    """A 379-byte-class Postman collection whose variable names itself twenty times."""
    collection = {
        "info": {"name": "bomb", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
        "variable": [{"key": "a", "value": "{{a}}" * 20}],
        "item": [{"name": "x", "request": {"method": "GET", "url": "{{a}}/x"}}],
    }
    path = folder / "bomb.postman_collection.json"
    path.write_text(json.dumps(collection), encoding="utf-8")
    return path


def postman_deep(folder: Path, depth: int = 2_000) -> Path:
    """A Postman folder 2,000 levels deep (written as text: json.dumps would overflow the stack)."""
    leaf = json.dumps({"name": "leaf", "request": {"method": "GET", "url": "https://example.com/x"}})
    info = json.dumps(
        {"name": "deep", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}
    )
    nested = '{"name": "f", "item": [' * depth + leaf + "]}" * depth
    path = folder / "deep.postman_collection.json"
    path.write_text(f'{{"info": {info}, "item": [{nested}]}}', encoding="utf-8")
    return path


def ref_fanout(folder: Path) -> Path:
    """Responses that each inline the next one twice, 30 levels: 2^30 copies once inlined."""
    levels = 30
    lines = [
        "paths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/R0'}",
        "components:\n  responses:",
    ]
    for i in range(levels):
        nxt = f"{{$ref: '#/components/responses/R{i + 1}'}}" if i + 1 < levels else "{description: end}"
        lines.append(f"    R{i}:\n      description: level {i}\n      x-left: {nxt}\n      x-right: {nxt}")
    return _spec(folder, "\n".join(lines) + "\n")


def many_refs(folder: Path, count: int = 100_000) -> Path:
    """One schema with 100,000 properties, each a `$ref` to the same schema."""
    props = {f"p{i}": {"$ref": "#/components/schemas/Leaf"} for i in range(count)}
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "Many refs", "version": "1"},
        "paths": {"/big": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Big"}}}}}}}},
        "components": {"schemas": {
            "Big": {"type": "object", "properties": props},
            "Leaf": {"type": "object", "properties": {"name": {"type": "string", "description": "A name."}}},
        }},
    }
    path = folder / "many.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def ref_chain(folder: Path, length: int = 5_000) -> Path:
    """Schemas S0 → S1 → … → S4999, each holding a property that refers to the next."""
    schemas = {
        f"S{i}": {"type": "object", "properties": {"next": {"$ref": f"#/components/schemas/S{i + 1}"}}}
        for i in range(length - 1)
    }
    schemas[f"S{length - 1}"] = {"type": "object", "properties": {"end": {"type": "string"}}}
    doc = {
        "openapi": "3.0.3",
        "info": {"title": "Chain", "version": "1"},
        "paths": {"/chain": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/S0"}}}}}}}},
        "components": {"schemas": schemas},
    }
    path = folder / "chain.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def duplicate_keys(folder: Path) -> Path:
    """Two `get:` keys under one path: the first operation is dropped by any YAML reader."""
    return _spec(
        folder,
        "paths:\n  /a:\n    get: {summary: first, responses: {}}\n    get: {summary: second, responses: {}}\n",
    )


def bad_operations(folder: Path) -> Path:
    """Operations that are a string, a list and null, an upper-case method and an unknown one."""
    return _spec(
        folder,
        "paths:\n  /a:\n    get: nope\n    put: [1]\n    post: null\n    GET: {responses: {}}\n"
        "    fetch: {responses: {}}\n    delete: {summary: kept, responses: {}}\n",
    )


def symlink_loop(folder: Path) -> Path:
    """A folder holding a link to itself, beside a good spec."""
    ref_ok(folder)
    os.symlink(folder, folder / "loop")
    return folder


def link_folder_outside(folder: Path) -> Path:
    """A provider folder that is a link to a folder outside the one given."""
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    ref_ok(elsewhere)
    catalog = folder / "catalog"
    catalog.mkdir()
    os.symlink(elsewhere, catalog / "provider")
    return catalog


def empty_folder(folder: Path) -> Path:
    """A folder with no API description in it."""
    (folder / "notes.txt").write_text("nothing here\n", encoding="utf-8")
    return folder


def ref_ok(folder: Path) -> Path:
    """A good two-file spec: the control."""
    (folder / "pet.yaml").write_text("type: object\nproperties:\n  name: {type: string}\n", encoding="utf-8")
    return _spec(
        folder,
        "paths:\n  /pets:\n    get:\n      summary: List pets\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        "              schema: {$ref: 'pet.yaml'}\n",
        name="good.yaml",
    )


ATTACKS: dict[str, Callable[[Path], Path]] = {
    "control: a good two-file spec": ref_ok,
    "$ref: /etc/passwd": ref_absolute,
    "$ref: ../secrets.yaml": ref_parent,
    "$ref to a link leading outside": ref_symlink_out,
    "$ref: file:///etc/passwd": ref_file_uri,
    "link zero.yaml -> /dev/zero in the folder": link_dev_zero,
    "/dev/zero named on the command line": dev_zero_named,
    "FIFO named x.yaml": fifo,
    "YAML alias bomb (9 x 9)": alias_bomb,
    "YAML alias containing itself": alias_cycle,
    "JSON nested 100,000 deep": deep_json,
    "YAML nested 5,000 deep": deep_yaml,
    "Postman variable naming itself 20 times": postman_variables,
    "Postman folders 2,000 deep": postman_deep,
    "$ref fan-out (2^30 inlined copies)": ref_fanout,
    "100,000 refs to one schema": many_refs,
    "5,000-long schema ref chain": ref_chain,
    "duplicate `get` keys": duplicate_keys,
    "operations: string, list, null, GET, fetch": bad_operations,
    "folder link loop": symlink_loop,
    "provider folder linked from outside": link_folder_outside,
    "folder without API descriptions": empty_folder,
}
