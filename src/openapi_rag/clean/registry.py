"""The named cleaning steps, the default selection, and parsing a selection such as `all,-urls`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from openapi_rag.clean.base64_text import strip_base64
from openapi_rag.clean.examples import drop_examples
from openapi_rag.clean.html_text import strip_html
from openapi_rag.clean.markdown_text import strip_markdown
from openapi_rag.clean.responses import drop_error_responses, drop_success_headers
from openapi_rag.clean.urls import remove_urls


@dataclass(frozen=True)
class CleanStep:
    """One named cleaning step.

    A `text` step maps each prose or example string to a cleaned string (`transform`). A `document`
    step edits the document in place (`apply`) and returns the compact JSON of every `"key":value`
    member it removed, from which its token saving is counted.
    """

    name: str
    kind: Literal["text", "document"]
    description: str
    transform: Callable[[str], str] | None = None
    apply: Callable[[dict[str, Any]], list[str]] | None = None


# Steps run in this order: document steps first (so text steps do not clean, and take credit for,
# text about to be dropped), then text steps, base64 before markdown so `_` inside URL-safe
# payloads is not read as emphasis, HTML before markdown because HTML tags wrap markdown text.
_STEPS = (
    CleanStep(
        "errors", "document", "drop 4xx/5xx (and error-only `default`) responses", apply=drop_error_responses
    ),
    CleanStep("headers", "document", "drop `headers` of 2xx responses", apply=drop_success_headers),
    CleanStep("examples", "document", "drop `example`/`examples` values everywhere", apply=drop_examples),
    CleanStep("base64", "text", "replace data URIs and long base64 runs by <base64>", transform=strip_base64),
    CleanStep("html", "text", "strip HTML tags and comments, unescape entities", transform=strip_html),
    CleanStep("markdown", "text", "drop markdown markup, keep the words", transform=strip_markdown),
    CleanStep("urls", "text", "remove deny-listed URLs (shorteners, Postman)", transform=remove_urls),
)

CLEAN_STEPS: dict[str, CleanStep] = {step.name: step for step in _STEPS}

# Everything that shortens text without losing what discovery needs. `errors` and `headers` stay
# off: error responses feed the error chunks and headers (rate limits, pagination links) can be the
# answer to a query; turn them on with `default,errors,headers` or `all`.
DEFAULT_STEPS: tuple[str, ...] = ("examples", "base64", "html", "markdown", "urls")

SELECTION_WORDS = ("all", "none", "default")


def unknown_step(name: str) -> ValueError:
    """The error for a name that is not a step; its message lists the registry."""
    valid = ", ".join(CLEAN_STEPS)
    return ValueError(
        f"Unknown cleaning step {name!r}. Valid steps: {valid}; "
        f"or {', '.join(SELECTION_WORDS)}; prefix a step with '-' to remove it (e.g. 'default,-urls')."
    )


def parse_steps(spec: str | None) -> list[str]:
    """The step names a selection string names, in the order they run.

    `None` means the default selection and `""` means none. Otherwise a comma list of step names
    and the words `all`, `none` and `default`, read left to right; `-name` removes a step. A list
    that starts with a removal starts from the default: `-examples` is the default without examples.

    Raises:
        ValueError: a name is not a registered step; the message lists the valid ones.
    """
    if spec is None:
        return list(DEFAULT_STEPS)
    chosen: set[str] = set()
    first = True
    for raw in (item.strip().lower() for item in spec.split(",")):
        if not raw:
            continue
        remove = raw.startswith("-")
        name = raw.lstrip("+-").strip()
        if remove and first:
            chosen = set(DEFAULT_STEPS)
        first = False
        if name == "all":
            names = set(CLEAN_STEPS)
        elif name == "default":
            names = set(DEFAULT_STEPS)
        elif name == "none":
            names = set(CLEAN_STEPS) if not remove else set()
            remove = True
        elif name in CLEAN_STEPS:
            names = {name}
        else:
            raise unknown_step(name)
        chosen = chosen - names if remove else chosen | names
    return [name for name in CLEAN_STEPS if name in chosen]
