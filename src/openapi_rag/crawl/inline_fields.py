"""A field drawn as one run: its name, its type, then its marks, as schema trees lay out a property on
one line (the name in bold, the type and the marks beside it):

    name string required        tags string[]        limit int32        tags array [string]
    expires_in integer | null (int64)
    owner image-path (string) nullable                market Market required
    name * string               tags ? array<string>  format * ".json"

The type is a type word or an OpenAPI format, perhaps a list of them ("string[]", "array[]"), or a
schema's own title with its type in parentheses ("image-path (string)"); a title alone ("Market",
"Spotify Artist ID", "Groups to include (single, album)") states no type, so it counts only when it
repeats the name or a mark follows. A mark may stand between the name and the type, as TypeScript
declares a property: `*` for a required field, `?` for an optional one; after it, a generic list
("array<string>") or one quoted value (an enumeration's only value, '".json"', a string) is a type too.
Anything else after a name ("Returns string values", "Query string") is prose.
"""

from __future__ import annotations

import re

from openapi_rag.crawl.tables import normalize_type

MAX_RUN = 120
_MARKS = r"required|nullable|deprecated|read[- ]?only|write[- ]?only"
_RUN = re.compile(
    r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})(?:\s*([*?]))?\s+(\S.{0,79}?)((?:\s+(?:" + _MARKS + r"))*)",
    re.I | re.S,
)
_TYPE_WORD = (
    r"string|integer|number|boolean|object|array|int32|int64|float|double|date|date-time|uri|url|"
    r"uri-reference|email|uuid|byte|binary|password"
)
# "string", "int64", "string[]", "array[]": a type word or a format, perhaps a list; "image-path
# (string)", "winner (string)": a schema's title, its type in parentheses; "undefined[]": a list
# whose items state no type.
# Case-sensitive: renderers print types in lower case, and "Spotify URI" is a title, not a field.
_ONE_TYPE = (
    r"(?:(?:" + _TYPE_WORD + r")(?:\[\])*|[a-z]\w*(?:\[\])+"
    r"|array\s*\[\s*[\w.-]{1,40}\s*\])"  # a list and its items' type: "array [string]", "array[Pet]"
)
_TYPE = re.compile(
    # a type that may be null ("string | null"), then perhaps its format ("integer | null (int64)")
    r"(?:" + _ONE_TYPE + r"(?:\s*\|\s*null)?(?:\s+\((?:" + _TYPE_WORD + r")\))?"
    r"|[\w.-]{1,40}\s+\((?:" + _TYPE_WORD + r")(?:\[\])*\))"
)
# Words that label a value in a capital ("Type string", "Default 1"), never a field drawn so.
_LABELS = {"Type", "Format", "Default", "Example", "Items", "Item", "Value", "Values", "Query", "Path", "Header",
           "Headers", "Body", "Form", "Request", "Response", "Return", "Returns", "Result"}  # fmt: skip
# A JSON type never names a field drawn so: "string date-time", "integer int64" state a type and its
# format; a format may ("date date-time required": a field named date).
_JSON_TYPE = re.compile(r"(?:string|integer|number|boolean|object|array)(?:\[\])*", re.I)
# After a `*` or `?` mark: a generic list ("array<string>", drawn "array< string >") or a quoted value.
_MARKED_TYPE = re.compile(r'array\s*<\s*[\w.-]{1,40}(?:\[\])*\s*>|"[^"]{0,60}"', re.I)
_TITLE = re.compile(r"[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4}")
# A title in words, before a mark: a capital first, then words and a parenthesised list, no sentence.
_LONG_TITLE = re.compile(r"[A-Z][\w-]*(?:\s+[\w-]+){0,5}(?:\s+\([^()]{1,60}\))?")


# Marks drawn as words between the name and the type ("id required integer"), and a schema's title after a
# JSON type ("items required object Critic", "owner object user", "poster_path string | null image-path"), as
# a tree draws the name, its badges, its type and its schema's name side by side; "any" is the type of a
# schema that states none (an allOf of parts: "owner any").
_MARKS_FIRST = re.compile(
    r"([A-Za-z_$@][\w.\-$@\[\]]{0,99})((?:\s+(?:" + _MARKS + r"))*)\s+(string|integer|number|boolean|object|array|any)"
    r"(?:\s*\|\s*null)?(?:\s+([A-Za-z_][\w.-]{0,60}))?",
)
_PLAIN_WORD = re.compile(r"[A-Z][a-z]+")  # "The object type": a sentence's first word, never a name drawn so


def inline_field(text: str) -> tuple[str, str | None, list[str]] | None:
    """(name, type or None where only a title stands, marks) of a run that draws a field on one line;
    None for any other run."""
    if len(text) > MAX_RUN:
        return None
    if (first := _marks_first(text.strip())) is not None:
        return first
    run = _RUN.fullmatch(text.strip())
    if run is None:
        return None
    name, star, shown, marks = run.group(1), run.group(2), run.group(3).strip(), run.group(4).lower().split()
    if name.endswith(".") or name in _LABELS or _JSON_TYPE.fullmatch(name) or re.fullmatch(_MARKS, name, re.I):
        return None  # a sentence's last word, a label, a JSON type ("string date-time": a type run) or a mark
    if star == "*" and "required" not in marks:
        marks = ["required", *marks]
    elif star == "?":
        marks = ["optional", *marks]
    if _TYPE.fullmatch(shown):
        return name, normalize_type(shown), marks
    if star and (listed := _MARKED_TYPE.fullmatch(shown)):
        return name, "string" if listed.group(0).startswith('"') else "array", marks
    if _TITLE.fullmatch(shown) and (marks or star or (_same_words(shown, name) and shown != name)):
        return name, None, marks  # the schema's title where its type would be ("Market", "Limit")
    if (marks or star) and _LONG_TITLE.fullmatch(shown):
        return name, None, marks  # "include_groups Groups to include (single, album) required"
    return None


def _same_words(title: str, name: str) -> bool:
    """Whether a title repeats a name in words: "Limit" for limit, "Album Id" for album_id (a name shown
    twice as it is, "ListDayResponse ListDayResponse", is a schema's name and its link)."""
    return re.sub(r"[\W_]", "", title).lower() == re.sub(r"[\W_]", "", name).lower()


def _marks_first(text: str) -> tuple[str, str | None, list[str]] | None:
    """A field drawn with its marks before its type or its schema's title after it ("id required integer",
    "owner object user", "ranks_last_week any"); None for any other run, the forms `_RUN` reads among them."""
    run = _MARKS_FIRST.fullmatch(text)
    if run is None:
        return None
    name, marks, type_, title = run.group(1), run.group(2).lower().split(), run.group(3), run.group(4)
    if name.endswith(".") or name in _LABELS or _JSON_TYPE.fullmatch(name) or re.fullmatch(_MARKS, name, re.I):
        return None
    if title and re.fullmatch(_MARKS, title, re.I):
        return None  # "name string required": a mark after the type, as `_RUN` reads it
    if not marks and type_ != "any" and not (title and not _PLAIN_WORD.fullmatch(name)):
        return None  # "name string" (`_RUN` reads it), or "The object type": a sentence
    return name, None if type_ == "any" else normalize_type(type_), marks
