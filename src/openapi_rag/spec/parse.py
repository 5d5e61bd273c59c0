"""Read one JSON or YAML file into plain Python data, with errors that say where.

YAML is read with libyaml (C) for speed, with two YAML 1.1 quirks undone so that documents mean
what their authors meant: mapping keys are always strings (unquoted `200:` status codes become "200")
and only `true`/`false` are booleans (`on`, `yes`, `no` stay strings). Timestamps stay strings too,
because OpenAPI treats `2024-01-01` in an example as text, and JSON output needs strings.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from openapi_rag.errors import SpecError, SpecNotFound, SpecParseError
from openapi_rag.model import Problem
from openapi_rag.refs import pointer as jp
from openapi_rag.spec.limits import DEFAULT_LIMITS, ReadLimits
from openapi_rag.spec.shape import check_shape

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}")
# Characters YAML refuses; JSON tolerates them only when escaped.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class _SpecLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """SafeLoader with string keys, YAML 1.2-style booleans, counted aliases and reported duplicate keys."""

    limits: ReadLimits
    path: Path
    problems: list[Problem]
    alias_uses: int


_SpecLoader.yaml_implicit_resolvers = {
    first: [
        (tag, regexp)
        for tag, regexp in resolvers
        if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")
    ]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
_SpecLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


_MERGE_TAG = "tag:yaml.org,2002:merge"


def _construct_mapping(loader: _SpecLoader, node: yaml.MappingNode) -> dict[str, Any]:
    own = {id(key_node) for key_node, _ in node.value if key_node.tag != _MERGE_TAG}
    loader.flatten_mapping(node)
    out: dict[str, Any] = {}
    first_line: dict[str, int] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            # A list or mapping as a key (`? [a]`): OpenAPI keys are strings, and turning an aliased
            # one into a string would expand it in full (found by fuzzing).
            mark = key_node.start_mark
            raise SpecParseError(
                "a mapping key is a list or mapping; keys must be plain values",
                file=loader.path,
                where=f"line {mark.line + 1}, column {mark.column + 1}",
            )
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            # YAML 1.1 reads `200:` as int and `null:` as None; OpenAPI keys are always strings.
            key = "null" if key is None else str(key).lower() if isinstance(key, bool) else str(key)
        line = key_node.start_mark.line + 1
        # A key merged in with `<<:` and then overridden is YAML's intended use, not a mistake.
        if key in first_line and id(key_node) in own and first_line[key] > 0:
            loader.problems.append(
                Problem(
                    f"duplicate key {key!r} (first at line {first_line[key]}): the first value is dropped",
                    where=f"line {line}",
                    file=str(loader.path),
                )
            )
        first_line[key] = line if id(key_node) in own else 0
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_SpecLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def _counting_construct_object(loader: _SpecLoader, node: yaml.Node, deep: bool = False) -> Any:
    # A node constructed before is reached again only through an alias (`*name`).
    if node in loader.constructed_objects:
        loader.alias_uses += 1
        if loader.alias_uses > loader.limits.max_yaml_aliases:
            mark = node.start_mark
            raise loader.limits.exceeded(
                "max_yaml_aliases",
                f"more than {loader.limits.max_yaml_aliases} YAML alias uses",
                file=loader.path,
                where=f"line {mark.line + 1}, column {mark.column + 1}",
            )
    return _BaseLoader.construct_object(loader, node, deep)


_SpecLoader.construct_object = _counting_construct_object


def read_bytes(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> bytes:
    """The bytes of a regular file no larger than `limits.max_file_bytes` (checked before reading).

    Opened non-blocking so that a FIFO named `x.yaml` is refused instead of waited on forever, and
    checked on the open descriptor so that a symlink swapped in between cannot slip through.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError as exc:
        raise SpecNotFound("file not found", file=path) from exc
    except OSError as exc:
        raise SpecNotFound(f"cannot read: {exc.strerror}", file=path) from exc
    except ValueError as exc:  # a NUL byte in the name
        raise SpecNotFound(f"cannot read: {exc}", file=path) from exc
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SpecNotFound(f"not a regular file ({_kind(info.st_mode)}); not read", file=path)
        if info.st_size > limits.max_file_bytes:
            raise limits.exceeded("max_file_bytes", f"file is {info.st_size:,} bytes; not read", file=path)
        data = handle.read(limits.max_file_bytes + 1)
    if len(data) > limits.max_file_bytes:  # it grew while we read
        raise limits.exceeded("max_file_bytes", "file grew past the size limit while read", file=path)
    return data


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a plain file"


def read_text(path: Path, limits: ReadLimits = DEFAULT_LIMITS) -> str:
    """The file's text (UTF-8, BOM tolerated); errors name the byte that is wrong."""
    data = read_bytes(path, limits)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SpecParseError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            file=path,
            where=f"line {line}",
        ) from exc


def parse_text(
    text: str, path: Path, problems: list[Problem] | None = None, limits: ReadLimits = DEFAULT_LIMITS
) -> Any:
    """Parse JSON or YAML text. JSON is tried first when the text looks like JSON.

    `problems` collects what is lossy but not fatal (duplicate keys, replaced characters).
    """
    found: list[Problem] = []
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")) or path.suffix.lower() == ".json":
        try:
            data = _parse_json(text, path, found)
        except json.JSONDecodeError as exc:
            if path.suffix.lower() == ".json":
                raise SpecParseError(
                    f"invalid JSON: {exc.msg}", file=path, where=f"line {exc.lineno}, column {exc.colno}"
                ) from exc
            found.clear()
            data = _parse_yaml(text, path, found, limits)
        else:
            check_shape(data, path, limits)  # JSON shares no objects, so only depth can be too much
            if _SURROGATE_ESCAPE.search(text):
                data = _replace_surrogates(data)
                found.append(Problem("lone UTF-16 surrogate escapes replaced by U+FFFD", file=str(path)))
    else:
        data = _parse_yaml(text, path, found, limits)
    if problems is not None:
        problems.extend(found)
    return data


def _parse_json(text: str, path: Path, problems: list[Problem]) -> Any:
    duplicated: list[tuple[str, int]] = []  # (key, id of the object holding it)

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    duplicated.append((key, id(out)))
                seen.add(key)
        return out

    data = json.loads(text, object_pairs_hook=pairs_hook)
    if duplicated:
        pointers = _pointers_of({holder for _, holder in duplicated}, data)
        for key, holder in duplicated:
            where = pointers.get(holder, "")
            problems.append(
                Problem(
                    f"duplicate key {key!r}{_json_key_line(text, key)}: the first value is dropped",
                    where=jp.join(where, key),
                    file=str(path),
                )
            )
    return data


def _json_key_line(text: str, key: str) -> str:
    """` at line N` when the key is written exactly twice in the file (so the second is the duplicate)."""
    hits = list(re.finditer(re.escape(json.dumps(key)) + r"\s*:", text))
    return f" at line {text.count(chr(10), 0, hits[1].start()) + 1}" if len(hits) == 2 else ""


def _pointers_of(wanted: set[int], root: Any) -> dict[int, str]:
    found: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(root, "")]
    while stack and len(found) < len(wanted):
        node, pointer = stack.pop()
        if id(node) in wanted:
            found[id(node)] = pointer
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        stack.extend((v, jp.join(pointer, k)) for k, v in items if isinstance(v, (dict, list)))
    return found


def _parse_yaml(text: str, path: Path, problems: list[Problem], limits: ReadLimits) -> Any:
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise SpecParseError(
            f"control character U+{ord(bad.group()):04X} is not allowed in YAML",
            file=path,
            where=f"line {line}, column {col}",
        )
    loader = _SpecLoader(text)
    loader.limits, loader.path, loader.problems, loader.alias_uses = limits, path, problems, 0
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else None
        reason = str(exc.problem or exc.context or "unreadable")
        if exc.context and exc.problem:
            context_mark = exc.context_mark
            at = f" (line {context_mark.line + 1}, column {context_mark.column + 1})" if context_mark else ""
            reason = f"{exc.context.rstrip(';')}{at}; {exc.problem}"
        raise SpecParseError(f"invalid YAML: {reason}", file=path, where=where) from exc
    except yaml.YAMLError as exc:
        raise SpecParseError(f"invalid YAML: {exc}", file=path) from exc
    except RecursionError as exc:
        raise SpecParseError("YAML nesting too deep", file=path) from exc
    finally:
        loader.dispose()
    check_shape(data, path, limits, aliased=loader.alias_uses > 0)
    return data


def _replace_surrogates(node: Any) -> Any:
    if isinstance(node, str):
        return _LONE_SURROGATE.sub("\ufffd", node)
    if isinstance(node, dict):
        return {_replace_surrogates(k): _replace_surrogates(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_surrogates(v) for v in node]
    return node


def load_file(path: Path, problems: list[Problem] | None = None, limits: ReadLimits = DEFAULT_LIMITS) -> Any:
    """Read and parse one file within `limits`; `problems` collects non-fatal findings."""
    try:
        return parse_text(read_text(path, limits), path, problems, limits)
    except RecursionError as exc:
        raise SpecParseError("nesting too deep", file=path) from exc
    except MemoryError as exc:  # one document too large for this machine must not stop a corpus
        raise SpecParseError("out of memory while reading; not loaded", file=path) from exc


def yaml_lines(path: Path, pointers: list[str], limits: ReadLimits = DEFAULT_LIMITS) -> dict[str, int]:
    """The line each JSON pointer of `pointers` starts at in the YAML (or JSON) file `path`.

    Composes the file a second time, keeping the marks the first reading discards; called only for
    the few pointers of problems, so loading pays nothing when there are none.
    """
    wanted = {p: [jp.unescape(t) for t in p.lstrip("/").split("/")] for p in pointers}
    try:
        root = yaml.compose(read_text(path, limits), Loader=_BaseLoader)
    except (SpecError, yaml.YAMLError, RecursionError):
        return {}
    found: dict[str, int] = {}
    for pointer, tokens in wanted.items():
        node = root
        for token in tokens:
            if isinstance(node, yaml.MappingNode):
                node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == token), None)
            elif isinstance(node, yaml.SequenceNode) and token.isdigit() and int(token) < len(node.value):
                node = node.value[int(token)]
            else:
                node = None
            if node is None:
                break
        if node is not None:
            found[pointer] = node.start_mark.line + 1
    return found
