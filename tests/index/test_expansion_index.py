"""An index records its SPLADE expansion setting and an update keeps it (`chunking/expansion.py`)."""

from __future__ import annotations

from openapi_rag.index import Index, build_index
from tests.conftest import shared_data


def test_the_setting_is_recorded_and_kept_by_an_update(tmp_path) -> None:
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "spotify.json").write_bytes(shared_data("restbench", "specs", "spotify_oas.json").read_bytes())
    params = {"expansion": 4, "expansion_min_weight": 1.5}
    build_index([specs], tmp_path / "idx", embedder="word-hash", strategy_params=params)
    opened = Index.open(tmp_path / "idx")
    assert {k: opened.manifest.strategy_params[k] for k in params} == params
    report = build_index([specs], tmp_path / "idx", embedder="word-hash")  # no params: the recorded ones
    assert report.unchanged and not report.changed
    assert {k: Index.open(tmp_path / "idx").manifest.strategy_params[k] for k in params} == params


def test_index_expansion_on_the_cli(specs, tmp_path) -> None:
    from click.testing import CliRunner

    from openapi_rag.cli import cli

    idx = str(tmp_path / "idx")
    args = ["index", str(specs), "--index", idx, "--embedder", "word-hash", "--expansion", "3"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert Index.open(idx).manifest.strategy_params["expansion"] == 3
    other = CliRunner().invoke(cli, [*args[:-2], "--strategy", "thin", "--expansion", "3"])
    assert other.exit_code == 2 and "--expansion applies to the compact strategy" in other.output
