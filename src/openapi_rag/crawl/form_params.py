"""Parameters of a form: an operation whose request, the page says, is sent as a form ("Content-Type:
application/x-www-form-urlencoded" among its request headers) takes the parameters it states no place for, and
that its path does not hold, in its body, as a form's fields, not in its query. Issue 17's thirty-ninth round."""

from __future__ import annotations

import re

from openapi_rag.crawl.custom_headers import is_custom_header
from openapi_rag.crawl.page import Block
from openapi_rag.crawl.tables import FieldRow, is_request_header

_BODY_METHODS = {"POST", "PUT", "PATCH"}
# Names a body's rows give the parts that wrap fields (`row_schemas`): a form's field so named ("Body", a message's
# text) keeps its place, or its name would be read as the body's own.
_WRAPPER_NAMES = {"body", "response", "items", "root", "anonymous", "allof", "oneof", "anyof", "data*"}
# The request's content type stated under HTTP's own header name, as a form's ("Content-Type:
# application/x-www-form-urlencoded", "Content-Type: multipart/form-data").
_FORM_CONTENT_TYPE = re.compile(
    r"content-type\s*:\s*(?:application/x-www-form-urlencoded|multipart/form-data)\b[^,;:]{0,40}", re.I
)


def sent_as_form(blocks: list[Block]) -> bool:
    """Whether one of an operation's runs states its request's content type as a form's, and no other run states
    another content type for it (one stated type only: a choice of JSON or a form says nothing)."""
    stated = [
        block.text.strip()
        for block in blocks
        if block.kind == "text" and re.match(r"\s*content-type\s*:", block.text, re.I) and len(block.text) < 120
    ]
    return bool(stated) and all(_FORM_CONTENT_TYPE.fullmatch(text) for text in stated)


def form_fields(
    method: str, path: str, blocks: list[Block], params: list[tuple[str, FieldRow]]
) -> list[tuple[str, FieldRow]]:
    """The operation's parameters with those of no stated place, not in its path, taken as its form's fields
    where it is sent as a form."""
    if method.upper() not in _BODY_METHODS or not sent_as_form(blocks):
        return params
    return [
        ("body", row)
        if kind == "param"
        and row.location is None
        and "{" + row.name + "}" not in path
        and not is_request_header(row.name)
        and not is_custom_header(row.name)
        and row.name.lower() not in _WRAPPER_NAMES
        else (kind, row)
        for kind, row in params
    ]
