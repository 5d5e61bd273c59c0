"""What a link points to, as a name: generated references link a field's type ("List") to the
section that documents its schema ("../Models/Pet.md", "#pet", "#/components/schemas/Pet"), and the
shown text alone would lose it."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

_MAX_ANCHORS = 200  # anchors looked at per cell
_NAME = re.compile(r"[A-Za-z_][\w.-]{0,99}")
# A JSON pointer to a named part of a spec that holds fields: a schema, a parameter, a response or a request
# body ("#/components/schemas/Pet", Swagger 2's "#/definitions/Pet", "#/parameters/limit"): its kind, its name.
COMPONENT_POINTER = re.compile(
    r"#/(?:components/)?(schemas|definitions|parameters|responses|requestBodies)/([A-Za-z_][\w.-]{0,99})"
)


def link_target(anchor: object) -> str:
    """The name a link within the document set points to: the last part of its fragment ("#pet" ->
    "pet"), else its file's name less the extension ("../Models/Pet.md" -> "Pet"); "" for a link to
    another site (a scheme) or to a site's root path, which name no section of these pages; a root path
    with a fragment ("/api/~schemas#pet", a site's schemas page) names the section its fragment names."""
    href = (anchor.get("href") or "").strip()  # type: ignore[attr-defined]
    shown = COMPONENT_POINTER.fullmatch(anchor.text_content().strip())  # type: ignore[attr-defined]
    if shown and href.startswith("#"):
        # A link that shows a JSON pointer to a named schema ("#/components/schemas/Pet") names that schema,
        # whatever anchor it points to ("#_components_schemas_Pet"); so for a parameter, a response, a body
        return shown.group(2)
    path, _, fragment = href.partition("#")
    if not href or ":" in path or (path.startswith("/") and not fragment):
        return ""
    name = fragment.rstrip("/").rsplit("/", 1)[-1] if fragment else path.rstrip("/").rsplit("/", 1)[-1]
    if not fragment:
        name = name.rsplit(".", 1)[0] if "." in name else name
    return name if _NAME.fullmatch(name) else ""


def first_link(cell: object, inside: Callable[[object], bool]) -> str:
    """The target of a cell's first link that `inside` accepts (not one of a nested table), bounded."""
    for anchor in itertools.islice(cell.iter("a"), _MAX_ANCHORS):  # type: ignore[attr-defined]
        if inside(anchor) and (target := link_target(anchor)):
            return target
    return ""
