"""Label/value runs: a field's attribute drawn as a label in a run of its own and its value in the
next, as pages that lay attributes out in two cells or spans draw them:

    limit *        Type         integer       Default      20
                   Required     Format        "int32"      Maximum      50

The label is one of JSON Schema's attribute names as pages print them ("Type", "Format", "Default",
"Minimum", "Valid values", …), capitalised as a label is; the value is short and no label, mark or
field of its own. Each pair becomes one run ("Type: integer"), the form other pages print in one
piece, so the field-run rules read it as they read those. A label whose next run is no value stays
as it is: a column header ("Name", "Type", "Description") is followed by another label. "Required"
joins only a yes or a no ("Required", "No"): alone it marks the field.
"""

from __future__ import annotations

import re
from dataclasses import replace

from openapi_rag.crawl.page import Block

_LABELS = re.compile(
    r"(Type|Format|Default(?: value)?|Example|Pattern|Enum|Minimum|Maximum|Min(?:imum)? ?length|"
    r"Max(?:imum)? ?length|Min(?:imum)? ?items|Max(?:imum)? ?items|(?:Valid|Allowed|Possible) values|Required)\s*:?"
)  # fmt: skip
MAX_VALUE = 80  # a value is short: a type, a number, a quoted word or a few of them
_YES_OR_NO = re.compile(r"yes|no|true|false", re.I)  # what "Required" may say
# A value that is a field of its own or a mark: "limit *", "required", "(optional)".
_NOT_A_VALUE = re.compile(r"\S+\s*\*|\(?(?:required|optional|deprecated|nullable)\)?", re.I)
# The other column headers of a field table drawn as runs ("Name", "Type", "Description").
_COLUMN_LABEL = re.compile(r"name|description|in|location|schema|notes?|values?|parameters?|fields?|details", re.I)
# What a type's value may be: a word, a list of one ("string[]"), generics ("Array<object>"),
# a type with its format or item type ("array of string", "string (date-time)"); no sentence.
_TYPE_VALUE = re.compile(r"[A-Za-z_][\w.<>\[\], -]{0,60}(?:\s*\([\w -]{1,30}\))?")


def join_label_values(blocks: list[Block]) -> list[Block]:
    """The blocks with each label run and its value run joined into one run ("Type: integer")."""
    out: list[Block] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        following = blocks[i + 1] if i + 1 < len(blocks) else None
        if following is not None and _is_pair(block, following):
            label = block.text.strip().rstrip(":").strip()
            out.append(replace(block, text=f"{label}: {following.text.strip()}", links=block.links + following.links))
            i += 2
            continue
        out.append(block)
        i += 1
    for index, block in enumerate(out):
        block.position = index
    return out


def _is_pair(label: Block, value: Block) -> bool:
    """Whether `label` is an attribute's label and `value` its value."""
    if label.kind != "text" or value.kind != "text" or _LABELS.fullmatch(label.text.strip()) is None:
        return False
    shown = value.text.strip()
    if not shown or len(shown) > MAX_VALUE or _LABELS.fullmatch(shown) or _NOT_A_VALUE.fullmatch(shown):
        return False
    if _COLUMN_LABEL.fullmatch(shown.rstrip(":")):
        return False
    name = label.text.strip().rstrip(":").strip()
    if name == "Required":  # "Required" alone marks a field required; "Required", then "No" does not
        return _YES_OR_NO.fullmatch(shown) is not None
    if name == "Type":
        return _TYPE_VALUE.fullmatch(shown) is not None and not shown.endswith(".")
    return True


def is_attribute_run(text: str) -> bool:
    """Whether a run states one attribute as a label and its value ("Format: \"double\"", "Default: 20"):
    what describes a field's schema, not the field."""
    label, colon, value = text.partition(":")
    return bool(colon and value.strip()) and _LABELS.fullmatch(label.strip()) is not None
