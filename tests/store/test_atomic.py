from __future__ import annotations

import os
from pathlib import Path

import pytest

from openapi_rag.errors import IndexNotFound
from openapi_rag.store.atomic import atomic_dir, backup_path, resolve_dir


def siblings(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir())


def test_atomic_dir_creates_and_replaces(tmp_path: Path) -> None:
    target = tmp_path / "index"
    with atomic_dir(target) as tmp:
        assert tmp.parent == tmp_path and tmp != target
        (tmp / "a.txt").write_text("one")
    assert (target / "a.txt").read_text() == "one"

    with atomic_dir(target) as tmp:
        (tmp / "b.txt").write_text("two")
    assert sorted(p.name for p in target.iterdir()) == ["b.txt"]
    assert siblings(target) == ["index"]  # no temporary or backup directory left


def test_atomic_dir_honours_umask(tmp_path: Path) -> None:
    with atomic_dir(tmp_path / "index") as tmp:
        (tmp / "a").write_text("x")
    reference = tmp_path / "made-by-mkdir"
    reference.mkdir()
    assert (tmp_path / "index").stat().st_mode == reference.stat().st_mode


def test_failure_inside_block_keeps_previous_version(tmp_path: Path) -> None:
    target = tmp_path / "index"
    with atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("old")
    with pytest.raises(RuntimeError), atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("half-written")
        raise RuntimeError("disk full")
    assert (target / "a.txt").read_text() == "old"
    assert siblings(target) == ["index"]


def test_crash_between_renames_is_recovered_on_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "index"
    with atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("old")

    real_rename = os.rename
    calls = []

    def crash_on_second_rename(src: str | Path, dst: str | Path) -> None:
        calls.append((src, dst))
        if len(calls) == 2:  # old -> backup done, new -> target never happens
            raise OSError("power cut")
        real_rename(src, dst)

    monkeypatch.setattr(os, "rename", crash_on_second_rename)
    with pytest.raises(OSError, match="power cut"), atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("new")
    monkeypatch.setattr(os, "rename", real_rename)

    assert not target.exists() and backup_path(target).is_dir()
    assert resolve_dir(target, required=("a.txt",)) == target
    assert (target / "a.txt").read_text() == "old"
    assert not backup_path(target).exists()


def test_leftover_backup_beside_a_good_target_is_cleared_by_the_next_save(tmp_path: Path) -> None:
    target = tmp_path / "index"
    target.mkdir()
    (target / "a.txt").write_text("current")
    backup_path(target).mkdir()
    (backup_path(target) / "a.txt").write_text("stale")
    assert (resolve_dir(target) / "a.txt").read_text() == "current"  # the target wins
    with atomic_dir(target) as tmp:
        (tmp / "a.txt").write_text("next")
    assert siblings(target) == ["index"]


def test_resolve_dir_errors(tmp_path: Path) -> None:
    with pytest.raises(IndexNotFound, match="No index found at"):
        resolve_dir(tmp_path / "missing")
    (tmp_path / "partial").mkdir()
    with pytest.raises(IndexNotFound, match="missing store.json"):
        resolve_dir(tmp_path / "partial", required=("store.json",))
