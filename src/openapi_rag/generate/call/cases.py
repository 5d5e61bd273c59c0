"""Call-generation cases: reading them, normalising calls, and the metrics of the study.

A case is `{"input": "...", "output": {"method", "endpoint", "body"?}, "difficulty": "Easy|Medium|Hard"}`
(optionally `"id"`, `"service"`, and `output.headers` for headers the API requires: they are sent
when the gold call is checked against the mock, never compared), one per JSON file of a folder or
one per line of a JSONL file.
A bad line is reported with its file and line; the other cases are still read.

Normalisation (for exact and component match, as the study defines them): the method upper-cased;
the path percent-decoded without a trailing slash; the query string as a mapping of parameter to
its values (repeated keys and comma-separated lists read alike, order kept); every scalar of the
body and query in one canonical text form, so `250`, `250.0` and `"250"` are the same value and
key order never matters.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from openapi_rag.errors import OpenAPIRagError
from openapi_rag.generate.call.mock import template_regex

__all__ = [
    "DIFFICULTIES",
    "Case",
    "CaseError",
    "component_match",
    "endpoint_matches",
    "exact_match",
    "load_cases",
    "normalize_call",
]

DIFFICULTIES = ("Easy", "Medium", "Hard")
MAX_CASE_FILE_BYTES = 50 * 1024 * 1024


class CaseError(OpenAPIRagError):
    """A case file cannot be read at all (missing, or not JSON/JSONL)."""


@dataclass
class Case:
    """One request and the call that fulfils it."""

    case_id: str
    input: str
    method: str
    endpoint: str
    body: Any = None
    difficulty: str = "Medium"
    service: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    where: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        output: dict[str, Any] = {"method": self.method, "endpoint": self.endpoint}
        if self.body is not None:
            output["body"] = self.body
        if self.headers:
            output["headers"] = self.headers
        data: dict[str, Any] = {"id": self.case_id, "input": self.input, "output": output}
        data["difficulty"] = self.difficulty
        if self.service:
            data["service"] = self.service
        return data


def _case(data: Any, where: str, default_id: str) -> Case:
    if not isinstance(data, dict):
        raise ValueError("a case is a JSON object")
    text, output = data.get("input"), data.get("output")
    if not isinstance(text, str) or not text.strip():
        raise ValueError('no "input" string')
    if not isinstance(output, dict) or not isinstance(output.get("method"), str):
        raise ValueError('no "output" object with a "method"')
    endpoint = output.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint.startswith("/"):
        raise ValueError('"output.endpoint" must be a path starting with "/"')
    difficulty = str(data.get("difficulty") or "Medium").capitalize()
    if difficulty not in DIFFICULTIES:
        raise ValueError(f'"difficulty" must be one of {", ".join(DIFFICULTIES)}, not {difficulty!r}')
    return Case(
        case_id=str(data.get("id") or default_id),
        input=text.strip(),
        method=output["method"].upper(),
        endpoint=endpoint,
        body=output.get("body"),
        difficulty=difficulty,
        service=data.get("service") if isinstance(data.get("service"), str) else None,
        headers={str(k): str(v) for k, v in (output.get("headers") or {}).items()}
        if isinstance(output.get("headers"), dict)
        else {},
        where=where,
    )


def load_cases(path: str | Path) -> tuple[list[Case], list[str]]:
    """The cases of a folder of JSON files or of a JSONL file, and one problem line per bad case.

    Raises:
        CaseError: the path does not exist or holds no case file.
    """
    path = Path(path)
    if not path.exists():
        raise CaseError(f"{path}: no such file or folder of cases")
    cases: list[Case] = []
    problems: list[str] = []
    files = sorted(p for p in path.rglob("*") if p.suffix in (".json", ".jsonl")) if path.is_dir() else [path]
    if not files:
        raise CaseError(f"{path}: no .json or .jsonl case files in it")
    for file in files:
        if file.stat().st_size > MAX_CASE_FILE_BYTES:
            problems.append(f"{file}: larger than {MAX_CASE_FILE_BYTES} bytes; skipped")
            continue
        text = file.read_text("utf-8", errors="replace")
        if file.suffix == ".json":
            try:
                data = json.loads(text)
            except ValueError as exc:
                problems.append(f"{file}:{exc.lineno}: not JSON ({exc.msg})")  # type: ignore[attr-defined]
                continue
            items = data if isinstance(data, list) else [data]
            for i, item in enumerate(items):
                try:
                    cases.append(
                        _case(item, f"{file}#{i}", f"{file.stem}-{i}" if len(items) > 1 else file.stem)
                    )
                except ValueError as exc:
                    problems.append(f"{file}: case {i}: {exc}")
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                cases.append(_case(json.loads(line), f"{file}:{number}", f"{file.stem}-{number}"))
            except ValueError as exc:
                problems.append(f"{file}:{number}: {getattr(exc, 'msg', None) or exc}")
    return cases, problems


# ---- normalisation and metrics --------------------------------------------------------------
def canonical(value: Any) -> Any:
    """One form for equal values: numbers and numeric strings alike, booleans as text, dicts unordered."""
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [canonical(v) for v in value]
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        number = float(value)
        return str(int(number)) if number.is_integer() else repr(number)
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"-?\d+(\.\d+)?", text):
            return canonical(float(text))
        if text.lower() in ("true", "false"):
            return text.lower()
        return text
    return value


@dataclass(frozen=True)
class NormalCall:
    method: str
    path: str
    query: dict[str, Any]
    body: Any

    @property
    def endpoint(self) -> tuple[str, tuple[tuple[str, Any], ...]]:
        return self.path, tuple(sorted((k, json.dumps(v)) for k, v in self.query.items()))


def normalize_call(method: str, endpoint: str, body: Any = None) -> NormalCall:
    """The call in normal form (see the module docstring)."""
    parts = urlsplit(endpoint)
    path = unquote(parts.path).rstrip("/") or "/"
    query: dict[str, list[Any]] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        query.setdefault(key, []).extend(canonical(v) for v in value.split(","))
    flat = {k: v[0] if len(v) == 1 else v for k, v in query.items()}
    return NormalCall(method.upper(), path, flat, canonical(body) if body not in (None, {}) else None)


def exact_match(predicted: NormalCall, gold: NormalCall) -> bool:
    """Method, filled endpoint (path and query) and body all equal after normalisation."""
    return (
        predicted.method == gold.method
        and predicted.endpoint == gold.endpoint
        and predicted.body == gold.body
    )


def _leaves(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, sub in value.items():
            out.update(_leaves(sub, f"{prefix}{key}."))
        return out
    return {prefix.rstrip("."): value} if prefix else {}


def component_match(predicted: NormalCall, gold: NormalCall) -> float:
    """Partial credit: method, path, and each query parameter and body field of either call.

    Components are the union of both calls' (method, path, query parameters, body leaves); each
    scores 1 when both calls hold it with the same value. A component only the prediction has
    counts against it, as one only the gold call has does.
    """
    predicted_parts = {"method": predicted.method, "path": predicted.path}
    gold_parts = {"method": gold.method, "path": gold.path}
    for name, value in predicted.query.items():
        predicted_parts[f"query.{name}"] = value
    for name, value in gold.query.items():
        gold_parts[f"query.{name}"] = value
    body_p = predicted.body if isinstance(predicted.body, dict) else {"": predicted.body}
    body_g = gold.body if isinstance(gold.body, dict) else {"": gold.body}
    predicted_parts.update({f"body.{k}": v for k, v in _leaves(body_p).items() if v is not None})
    gold_parts.update({f"body.{k}": v for k, v in _leaves(body_g).items() if v is not None})
    keys = set(predicted_parts) | set(gold_parts)
    same = sum(
        1 for k in keys if k in predicted_parts and k in gold_parts and predicted_parts[k] == gold_parts[k]
    )
    return same / len(keys)


def endpoint_matches(operation: dict[str, str] | None, case: Case) -> bool:
    """Whether the chosen operation is the case's: same method, a template the gold path fills,
    and the same service when the case names one."""
    if operation is None or operation.get("method", "").upper() != case.method:
        return False
    if case.service and operation.get("service") != case.service:
        return False
    gold_path = unquote(urlsplit(case.endpoint).path)
    return bool(template_regex(operation.get("path", "")).match(gold_path))
