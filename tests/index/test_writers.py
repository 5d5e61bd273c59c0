"""One writer at a time, stable service ids, and `index` failing loudly when nothing was indexed (#20)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.errors import IndexLocked
from openapi_rag.index import Index, build_index
from openapi_rag.store.lock import lock_path, writer_lock
from tests.index.conftest import CATALOG

WRITER = Path(__file__).with_name("writer_process.py")


def test_a_second_writer_stops_and_names_the_first(specs: Path, tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    with writer_lock(idx):
        with pytest.raises(IndexLocked, match=f"is being updated by PID {os.getpid()}: .*--wait"):
            build_index([specs], idx, embedder="word-hash")
        result = CliRunner().invoke(
            cli, ["index", str(specs), "--index", str(idx), "--embedder", "word-hash"]
        )
        assert result.exit_code == 1 and f"being updated by PID {os.getpid()}" in result.stderr
    assert not idx.exists()  # the refused writer wrote nothing
    build_index([specs], idx, embedder="word-hash")  # released: the next writer goes ahead


def test_a_waiting_writer_runs_after_the_first_and_readers_are_not_blocked(
    specs: Path, tmp_path: Path
) -> None:
    idx = tmp_path / "idx"
    build_index([specs], idx, embedder="word-hash")
    release = threading.Event()

    def hold() -> None:
        with writer_lock(idx):
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        time.sleep(0.1)
        assert Index.open(idx).search("museum tickets", k=1)[0].id == "POST /tickets"  # reader: not blocked
        threading.Timer(0.3, release.set).start()
        started = time.monotonic()
        report = build_index([specs], idx, wait=True)
        assert time.monotonic() - started >= 0.25 and len(report.unchanged) == 3
    finally:
        release.set()
        holder.join()


def _writer(*args: str, delay: float = 0.0, gate: Path | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "OPENAPI_RAG_TEST_EMBED_DELAY": str(delay)}
    if gate is not None:  # the writer embeds nothing until `gate` exists (see writer_process.py)
        env["OPENAPI_RAG_TEST_EMBED_GATE"] = str(gate)
    return subprocess.Popen(
        [sys.executable, str(WRITER), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_for_holder(idx: Path, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        path = lock_path(idx)
        if path.exists() and path.read_text().strip() == str(proc.pid):
            return
        if proc.poll() is not None:
            pytest.fail(f"the first writer ended early: {proc.communicate()}")
        time.sleep(0.02)
    pytest.fail("the first writer never took the lock")


def test_two_writer_processes_on_a_fresh_directory(specs: Path, tmp_path: Path) -> None:
    """Before the lock one of them crashed with FileNotFoundError; now the second is told who writes.

    The first writer holds its lock until the second has finished (a gate, not a delay): with a
    delay, a second process slow to start on a loaded machine came after the first had finished,
    found the index written and rightly succeeded, and the test failed.
    """
    idx = tmp_path / "idx"
    gate = tmp_path / "second-writer-done"
    first = _writer("index", str(specs), "--index", str(idx), "--embedder", "slow-hash", gate=gate)
    try:
        _wait_for_holder(idx, first)
        second = _writer("index", str(specs), "--index", str(idx), "--embedder", "slow-hash")
        out2, err2 = second.communicate(timeout=60)
    finally:
        gate.touch()
    out1, err1 = first.communicate(timeout=60)
    assert first.returncode == 0, err1
    assert second.returncode == 1 and f"is being updated by PID {first.pid}" in err2
    assert "Traceback" not in err1 + err2
    assert len(Index.open(idx)) == 19


def test_two_writer_processes_on_an_existing_index_lose_no_update(specs: Path, tmp_path: Path) -> None:
    """Before the lock both exited 0 and the first writer's update was silently lost."""
    idx = tmp_path / "idx"
    extra = tmp_path / "extra"
    extra.mkdir()
    shutil.copy(CATALOG / "stride.yaml", extra / "stride.yaml")
    base = ["index", str(specs), "--index", str(idx), "--embedder", "slow-hash", "--json"]
    assert _writer(*base).wait(60) == 0
    museum = specs / "redocly-museum.yaml"
    museum.write_text(museum.read_text().replace("Redocly Museum API", "Redocly Museum API (changed)"))

    first = _writer(*base, delay=0.2)  # picks up the changed museum spec
    _wait_for_holder(idx, first)
    second = _writer(*base[:2], str(extra), *base[2:], "--wait")  # adds a spec, queued behind the first
    out1, err1 = first.communicate(timeout=60)
    out2, err2 = second.communicate(timeout=60)
    assert first.returncode == 0 and second.returncode == 0, err1 + err2
    assert [Path(p).name for p in json.loads(out1)["changed"]] == ["redocly-museum.yaml"]
    report2 = json.loads(out2)
    # The second writer read the index the first one wrote: the museum change is already in it.
    assert report2["changed"] == [] and [Path(p).name for p in report2["added"]] == ["stride.yaml"]
    index = Index.open(idx)
    assert len(index.manifest.sources) == 4
    museum_id = index.manifest.sources[str(museum.resolve())].service
    assert "Redocly Museum API (changed)" in json.dumps(index.service_record(museum_id))


def test_fresh_and_incremental_builds_give_the_same_service_ids(tmp_path: Path) -> None:
    """Two specs with one title: the ids follow the corpus (path order), not which run saw which first."""
    for folder in ("a", "b"):
        (tmp_path / "specs" / folder).mkdir(parents=True)
        shutil.copy(CATALOG / "uber.yaml", tmp_path / "specs" / folder / "uber.yaml")
    specs = tmp_path / "specs"
    fresh = tmp_path / "fresh"
    build_index([specs], fresh, embedder="word-hash")

    incremental = tmp_path / "incremental"
    build_index([specs / "b"], incremental, embedder="word-hash")  # b alone takes the plain id
    assert [s.service for s in Index.open(incremental).manifest.sources.values()] == ["uber-api"]
    report = build_index([specs], incremental)
    assert [Path(p).parent.name for p in report.added] == ["a"]
    assert [Path(p).parent.name for p in report.changed] == ["b"]  # renamed, as a fresh build names it

    def ids(directory: Path) -> dict[str, str]:
        index = Index.open(directory)
        return {Path(e).parent.name: s.service for e, s in index.manifest.sources.items()}

    assert ids(fresh) == ids(incremental) == {"a": "uber-api", "b": "uber-api-2"}
    assert sorted(Index.open(fresh).store.ids()) == sorted(Index.open(incremental).store.ids())
    assert build_index([specs], incremental).written is False  # and stable from then on


def test_index_fails_when_nothing_was_indexed(tmp_path: Path) -> None:
    empty = tmp_path / "docs"
    empty.mkdir()
    (empty / "README.md").write_text("no API here")
    idx = tmp_path / "idx"
    result = CliRunner().invoke(cli, ["index", str(empty), "--index", str(idx), "--embedder", "word-hash"])
    assert result.exit_code == 1 and "no API description found under" in result.stderr
    assert not idx.exists()

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "api.yaml").write_text("openapi: 3.0.0\ninfo: [unclosed\n")
    result = CliRunner().invoke(cli, ["index", str(broken), "--index", str(idx), "--embedder", "word-hash"])
    assert result.exit_code == 1
    assert "FAILED" in result.stderr and "all 1 API descriptions under" in result.stderr
    assert not idx.exists()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_bars_appear_on_a_terminal_that_reports_no_width(specs: Path, tmp_path: Path) -> None:
    """A fresh pty reports 0 x 0 (as under `script` or `docker exec -t`): tqdm then drew nothing."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAPI_RAG_NO_PROGRESS", "COLUMNS")}
    args = ["index", str(specs), "--index", str(tmp_path / "idx"), "--embedder", "slow-hash"]
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), *args], env=env, stdout=subprocess.PIPE, stderr=slave
    )
    os.close(slave)
    output = b""
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO once the child has closed its end
            break
        if not data:
            break
        output += data
    os.close(master)
    assert proc.wait(60) == 0
    text = output.decode("utf-8", "replace")
    for stage in ("loading", "chunking", "embedding"):
        assert f"{stage}:" in text and "|" in text, text


def test_a_reader_mid_swap_reads_the_backup_without_taking_it_from_the_writer(
    specs: Path, tmp_path: Path
) -> None:
    idx = tmp_path / "idx"
    build_index([specs], idx, embedder="word-hash")
    backup = tmp_path / ".idx.bak"
    with writer_lock(idx):
        idx.rename(backup)  # where a writer is between its two renames
        assert Index.open(idx).search("museum tickets", k=1)[0].id == "POST /tickets"
        assert backup.is_dir() and not idx.exists()  # left for the writer to finish its swap
    # No writer any more: the swap was cut off (kill -9), so the first reader restores the backup.
    assert len(Index.open(idx)) == 19 and idx.is_dir() and not backup.exists()


def test_a_format_1_index_is_read_and_upgraded_with_its_ids(specs: Path, tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    build_index([specs], idx, embedder="word-hash")
    manifest = json.loads((idx / "manifest.json").read_text())
    manifest["format_version"] = 1
    for source in manifest["sources"].values():
        del source["base_id"]  # as written before stable ids
    (idx / "manifest.json").write_text(json.dumps(manifest))
    ids = sorted(Index.open(idx).store.ids())
    report = build_index([specs], idx)
    assert report.written and len(report.unchanged) == 3 and not report.changed
    upgraded = json.loads((idx / "manifest.json").read_text())
    assert upgraded["format_version"] == 2 and all(s["base_id"] for s in upgraded["sources"].values())
    assert sorted(Index.open(idx).store.ids()) == ids
