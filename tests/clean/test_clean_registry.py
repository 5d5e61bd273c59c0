"""The step registry and the selection syntax."""

from __future__ import annotations

import pytest

import openapi_rag.clean as clean
from openapi_rag.clean import CLEAN_STEPS, DEFAULT_STEPS, parse_steps


def test_registry_names() -> None:
    assert list(CLEAN_STEPS) == ["errors", "headers", "examples", "base64", "html", "markdown", "urls"]
    for name, step in CLEAN_STEPS.items():
        assert step.name == name
        assert (step.transform is None) != (step.apply is None)
        assert (step.kind == "text") == (step.transform is not None)


def test_default_steps() -> None:
    assert DEFAULT_STEPS == ("examples", "base64", "html", "markdown", "urls")
    assert set(DEFAULT_STEPS) <= set(CLEAN_STEPS)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (None, ["examples", "base64", "html", "markdown", "urls"]),
        ("", []),
        ("none", []),
        ("default", ["examples", "base64", "html", "markdown", "urls"]),
        ("all", ["errors", "headers", "examples", "base64", "html", "markdown", "urls"]),
        ("all,-urls,-headers", ["errors", "examples", "base64", "html", "markdown"]),
        ("-examples", ["base64", "html", "markdown", "urls"]),
        ("markdown, HTML", ["html", "markdown"]),
        ("default,errors", ["errors", "examples", "base64", "html", "markdown", "urls"]),
        ("none,urls,+base64", ["base64", "urls"]),
        ("html,html,", ["html"]),
    ],
)
def test_parse_steps(spec: str | None, expected: list[str]) -> None:
    assert parse_steps(spec) == expected


@pytest.mark.parametrize("spec", ["htm", "all,-nope", "html;markdown"])
def test_parse_steps_unknown_name_lists_the_registry(spec: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_steps(spec)
    message = str(info.value)
    assert "Unknown cleaning step" in message
    assert "Valid steps: " + ", ".join(CLEAN_STEPS) in message


def test_exports_are_sorted_and_complete() -> None:
    assert clean.__all__ == sorted(clean.__all__)
    for name in clean.__all__:
        assert hasattr(clean, name), name
