"""The type a field's default value shows, where its table has no type column: a "Default" cell of `false` is a
boolean's, of `20` an integer's ("raw | Include raw response | - | false"). Issue 17's thirty-ninth round."""

from __future__ import annotations

import re

_DEFAULT_HEADERS = {"default", "default value"}
_INTEGER = re.compile(r"-?\d{1,18}")


def default_column(header_row: list[str]) -> int | None:
    """The index of a header row's "Default" column, if it has one."""
    words = [cell.strip().lower().rstrip(":") for cell in header_row]
    return next((i for i, word in enumerate(words) if word in _DEFAULT_HEADERS), None)


def default_type(cell: str) -> str | None:
    """The type a default value is written in: `true`/`false` a boolean, digits an integer; None for anything
    else (a word, a quoted string, "null", "-")."""
    value = cell.strip()
    if value in ("true", "false"):
        return "boolean"
    return "integer" if _INTEGER.fullmatch(value) else None
