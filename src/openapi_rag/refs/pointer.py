"""JSON pointers (RFC 6901) and `$ref` strings."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join(pointer: str, *tokens: str | int) -> str:
    return pointer + "".join("/" + escape(str(t)) for t in tokens)


def split_ref(ref: str) -> tuple[str, str]:
    """`file.yaml#/a/b` -> ("file.yaml", "/a/b"); the fragment is percent-decoded."""
    file_part, _, fragment = ref.partition("#")
    return file_part, unquote(fragment)


# `scheme:` of a URI (http, https, file, ftp, ...); two letters at least, so `C:` stays a drive.
_URI_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def is_remote(file_part: str) -> bool:
    """A reference to anything but a relative or absolute local path: never fetched."""
    return file_part.startswith("//") or bool(_URI_SCHEME.match(file_part))


class PointerError(LookupError):
    """A pointer names something that is not there; `where` is the part that failed."""

    def __init__(self, where: str):
        super().__init__(where)
        self.where = where


def resolve(document: Any, pointer: str) -> Any:
    """The node at `pointer` inside `document`."""
    if pointer in ("", "/") and not (pointer == "/" and isinstance(document, dict) and "" in document):
        return document
    node = document
    walked = ""
    for raw in pointer.lstrip("/").split("/"):
        token = unescape(raw)
        walked += "/" + raw
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise PointerError(walked)
    return node
