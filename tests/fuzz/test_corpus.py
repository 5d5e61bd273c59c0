"""Replay the fuzzing corpus kept in the repository (seeds and what atheris found) through every
target: each input must load or fail with one of our errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.targets import TARGETS

CORPUS = Path(__file__).parent / "corpus"
CASES = sorted((name, path) for name in TARGETS for path in (CORPUS / name).glob("*") if path.is_file())


def test_every_target_has_a_corpus():
    assert {name for name, _ in CASES} == set(TARGETS)


@pytest.mark.parametrize(("name", "path"), CASES, ids=[f"{n}/{p.name}" for n, p in CASES])
def test_corpus_input(name, path):
    TARGETS[name](path.read_bytes())
