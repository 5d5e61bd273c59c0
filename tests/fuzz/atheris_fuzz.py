"""Coverage-guided fuzzing with atheris (libFuzzer) of one target of `tests/fuzz/targets.py`.

    python tests/fuzz/atheris_fuzz.py loader -max_total_time=60 tests/fuzz/corpus/loader

The corpus folder given last is read as seeds and receives the new inputs that reach new code; the
seeds kept in the repository are replayed by `test_corpus.py` in every test run. Needs
`pip install atheris` (wheels for CPython on Linux x86-64); not a test dependency.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # `tests.fuzz` importable from a checkout

with atheris.instrument_imports(include=["openapi_rag"]):
    from tests.fuzz.targets import TARGETS


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: {sys.argv[0]} {{{','.join(TARGETS)}}} [libFuzzer options] [corpus folder]")
    target = TARGETS[sys.argv.pop(1)]
    atheris.Setup(sys.argv, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
