"""Read one JSON or YAML file into plain Python data, with errors that say where.

YAML is read with libyaml (C) for speed, with two YAML 1.1 quirks undone so that documents mean
what their authors meant: mapping keys are always strings (unquoted `200:` status codes become "200")
and only `true`/`false` are booleans (`on`, `yes`, `no` stay strings). Timestamps stay strings too,
because OpenAPI treats `2024-01-01` in an example as text, and JSON output needs strings.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from openapi_rag.errors import SpecNotFound, SpecParseError

_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abcdefABCDEF][0-9a-fA-F]{2}")
# Characters YAML refuses; JSON tolerates them only when escaped.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class _SpecLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """SafeLoader with string keys and YAML 1.2-style booleans."""


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


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[str, Any]:
    loader.flatten_mapping(node)
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            # YAML 1.1 reads `200:` as int and `null:` as None; OpenAPI keys are always strings.
            key = "null" if key is None else str(key).lower() if isinstance(key, bool) else str(key)
        out[key] = loader.construct_object(value_node, deep=True)
    return out


_SpecLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)


def read_text(path: Path) -> str:
    """The file's text (UTF-8, BOM tolerated); errors name the byte that is wrong."""
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise SpecNotFound("file not found", file=path) from exc
    except IsADirectoryError as exc:
        raise SpecNotFound("is a directory, not a file", file=path) from exc
    except OSError as exc:
        raise SpecNotFound(f"cannot read: {exc.strerror}", file=path) from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SpecParseError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            file=path,
            where=f"line {line}",
        ) from exc


def parse_text(text: str, path: Path, warnings: list[str] | None = None) -> Any:
    """Parse JSON or YAML text. JSON is tried first when the text looks like JSON."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")) or path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            if path.suffix.lower() == ".json":
                raise SpecParseError(
                    f"invalid JSON: {exc.msg}", file=path, where=f"line {exc.lineno}, column {exc.colno}"
                ) from exc
            data = _parse_yaml(text, path)
        else:
            if _SURROGATE_ESCAPE.search(text):
                data = _replace_surrogates(data)
                if warnings is not None:
                    warnings.append("lone UTF-16 surrogate escapes replaced by U+FFFD")
            return data
        return data
    return _parse_yaml(text, path)


def _parse_yaml(text: str, path: Path) -> Any:
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        raise SpecParseError(
            f"control character U+{ord(bad.group()):04X} is not allowed in YAML",
            file=path,
            where=f"line {line}, column {col}",
        )
    try:
        return yaml.load(text, Loader=_SpecLoader)  # noqa: S506 - a SafeLoader subclass
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


def _replace_surrogates(node: Any) -> Any:
    if isinstance(node, str):
        return _LONE_SURROGATE.sub("\ufffd", node)
    if isinstance(node, dict):
        return {_replace_surrogates(k): _replace_surrogates(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_replace_surrogates(v) for v in node]
    return node


def load_file(path: Path, warnings: list[str] | None = None) -> Any:
    """Read and parse one file; `warnings` collects non-fatal findings."""
    try:
        return parse_text(read_text(path), path, warnings)
    except RecursionError as exc:
        raise SpecParseError("nesting too deep", file=path) from exc
