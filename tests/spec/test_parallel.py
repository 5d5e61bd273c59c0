"""Descriptions read in worker processes: the same services, in the same order, as one process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import openapi_rag
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.parallel import _fork_context, load_many
from tests.conftest import shared_data


def entries(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*.yaml"))


WORKERS_VS_ONE = """
import json, sys
from openapi_rag.spec.limits import ReadLimits
from openapi_rag.spec.parallel import LoadFailed, _fork_context, load_many
files, roots = json.loads(sys.argv[1]), json.loads(sys.argv[2])
limits = ReadLimits.for_paths(roots, ())
forked = _fork_context() is not None
def summary(outcome):
    if isinstance(outcome, LoadFailed):
        return ["failed", outcome.reason, outcome.where]
    return [outcome.title, [op.id for op in outcome.operations], outcome.operations[0].raw]
runs = [[[entry, summary(o)] for entry, o in load_many(files, clean=["html"], limits=limits, workers=w)] for w in (1, 2)]
print(json.dumps({"forked": forked, "one": runs[0], "two": runs[1]}, default=str))
"""


def test_workers_load_the_same_services_in_order_and_report_a_broken_file(tmp_path: Path) -> None:
    # a fresh interpreter: a thread another test left running would make this one read in-process
    nytimes = shared_data("realworld", "nytimes")
    (tmp_path / "broken.yaml").write_text("openapi: 3.0.0\npaths: [unclosed\n")
    files = [*entries(nytimes)[:5], str(tmp_path / "broken.yaml")]
    roots = [str(nytimes), str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-c", WORKERS_VS_ONE, json.dumps(files), json.dumps(roots)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(Path(openapi_rag.__file__).parents[1])},
    )
    result = json.loads(done.stdout)
    assert result["forked"] or not sys.platform.startswith("linux")  # the workers' path is the one run
    assert result["one"] == result["two"]
    assert [entry for entry, _ in result["two"]] == files
    failed = [summary for _, summary in result["two"] if summary[0] == "failed"]
    assert (
        len(failed) == 1 and "YAML" in failed[0][1] and failed[0][2]
    )  # the file's place, as one process says


def test_an_index_built_by_workers_is_the_one_a_single_process_builds(tmp_path: Path) -> None:
    from openapi_rag.index import Index
    from openapi_rag.index.update import build_index

    nytimes = shared_data("realworld", "nytimes")
    build_index([nytimes], tmp_path / "one", workers=1, second_embedder="none")
    build_index([nytimes], tmp_path / "two", workers=2, second_embedder="none")
    one, two = Index.open(tmp_path / "one"), Index.open(tmp_path / "two")
    assert one.manifest.sources.keys() == two.manifest.sources.keys()
    assert [(s.service, s.chunks) for s in one.manifest.sources.values()] == [
        (s.service, s.chunks) for s in two.manifest.sources.values()
    ]
    assert [c.embed_text for c in one.store.chunks()] == [c.embed_text for c in two.store.chunks()]


def test_a_process_with_other_threads_loads_in_itself(tmp_path: Path) -> None:
    import threading

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert _fork_context() is None
        nytimes = shared_data("realworld", "nytimes")
        files = entries(nytimes)[:4]
        outcomes = list(load_many(files, clean=None, limits=ReadLimits.for_paths([nytimes], ()), workers=2))
        assert [entry for entry, _ in outcomes] == files
    finally:
        stop.set()
        other.join()
