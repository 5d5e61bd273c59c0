"""A type cell that lists an object's properties instead of naming a type ("Properties: previous, current, next", an
inline object drawn by its keys): the field is an object. (Its keys are not read as fields: their types are not
shown, and a key named as a page schema, "employee", would take that schema's fields.) Issue 17's thirty-ninth
round."""

from __future__ import annotations

import re

# "Properties:" (perhaps emphasised by markup left as underscores, "_Properties: _"), then names and commas only.
_NAME = r"[A-Za-z_$@][\w.$@-]{0,99}"
_PROPERTIES = re.compile(r"_?properties\s*:\s*_?\s*(?:" + _NAME + r"\s*,\s*){0,199}" + _NAME, re.I)


def lists_properties(row: list[str], column: int | None) -> bool:
    """Whether a row's type cell lists property names ("_Properties: _previous, current, next")."""
    return column is not None and column < len(row) and _PROPERTIES.fullmatch(row[column].strip()) is not None
