"""An index built with the lexicon of API jargon finds operations by the users' words, records the
setting, and an update keeps it (`chunking/jargon.py`)."""

from __future__ import annotations

from click.testing import CliRunner

from openapi_rag.cli import cli
from openapi_rag.index import Index, build_index
from tests.conftest import shared_data


def _spotify(tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "spotify.json").write_bytes(shared_data("restbench", "specs", "spotify_oas.json").read_bytes())
    return specs


def test_users_words_find_the_operation_and_the_setting_is_kept(tmp_path) -> None:
    specs = _spotify(tmp_path)
    build_index([specs], tmp_path / "plain", embedder="word-hash")
    build_index([specs], tmp_path / "idx", embedder="word-hash", strategy_params={"jargon": 16})
    query = "mixtape"  # no word of Spotify's: the lexicon's music domain says a playlist is one
    assert not Index.open(tmp_path / "plain").search(query, k=5, mode="bm25")
    found = Index.open(tmp_path / "idx").search(query, k=5, mode="bm25")
    assert found and "playlist" in found[0].path
    recorded = Index.open(tmp_path / "idx").manifest.strategy_params
    assert recorded["jargon"] == 16 and recorded["jargon_domain_terms"] == 3
    report = build_index([specs], tmp_path / "idx", embedder="word-hash")  # no params: the recorded ones
    assert report.unchanged and not report.changed


def test_index_jargon_on_the_cli(tmp_path) -> None:
    specs = _spotify(tmp_path)
    idx = str(tmp_path / "idx")
    args = ["index", str(specs), "--index", idx, "--embedder", "word-hash", "--jargon", "8", "--jargon-embed"]
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    recorded = Index.open(idx).manifest.strategy_params
    assert recorded["jargon"] == 8 and recorded["jargon_embed"] is True
    other = CliRunner().invoke(cli, [*args[:-3], "--strategy", "thin", "--jargon", "8"])
    assert other.exit_code == 2 and "--jargon applies to the compact strategy" in other.output
