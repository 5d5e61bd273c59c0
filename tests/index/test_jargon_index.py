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


def test_the_words_as_a_list_of_their_own_leave_the_main_bm25_as_it_is(tmp_path) -> None:
    specs = _spotify(tmp_path)
    build_index([specs], tmp_path / "plain", embedder="word-hash")
    params = {"jargon": 16, "jargon_list": True}
    build_index([specs], tmp_path / "idx", embedder="word-hash", strategy_params=params)
    plain, index = Index.open(tmp_path / "plain"), Index.open(tmp_path / "idx")
    chunks = {c.id: c for c in index.store.chunks()}
    playlist = next(c for c in chunks.values() if c.operations[0] == "GET /playlists/{playlist_id}")
    assert "mixtape" in playlist.metadata["jargon_text"].split()
    assert "mixtape" not in playlist.metadata["bm25_text"]
    query = "show the tracks of my mixtape"
    assert index.search(query, k=10, mode="bm25") == plain.search(query, k=10, mode="bm25")
    index.searcher.configure(jargon_weight=0.0)
    without = [hit.path for hit in index.search(query, k=5)]
    index.searcher.configure(jargon_weight=1.0)
    with_list = [hit.path for hit in index.search(query, k=5)]
    assert with_list[0].startswith("/playlists") and with_list != without


def test_index_jargon_weight_on_the_cli_records_the_list_and_its_weight(tmp_path) -> None:
    specs = _spotify(tmp_path)
    idx = str(tmp_path / "idx")
    args = ["index", str(specs), "--index", idx, "--embedder", "word-hash", "--jargon", "16"]
    result = CliRunner().invoke(cli, [*args, "--jargon-weight", "0.25"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    opened = Index.open(idx)
    assert opened.manifest.strategy_params["jargon_list"] is True
    assert opened.searcher.settings.jargon_weight == 0.25
    chunks = list(opened.store.chunks())
    assert any("jargon_text" in c.metadata for c in chunks)
    alone = CliRunner().invoke(cli, [*args[:-2], "--jargon-weight", "0.25"])
    assert alone.exit_code == 2 and "--jargon-weight applies with --jargon" in alone.output


def test_the_list_read_on_flat_requests_only(tmp_path) -> None:
    """`jargon_flat_weight`: the list is read where no operation holds the request's words (BM25
    flat: here none holds "mixtape"), not where BM25 has a clear winner."""
    specs = _spotify(tmp_path)
    params = {"jargon": 16, "jargon_list": True}
    build_index([specs], tmp_path / "idx", embedder="word-hash", strategy_params=params)
    index = Index.open(tmp_path / "idx")

    def top(query: str, **settings: object) -> list[str]:
        index.searcher.configure(jargon_weight=0.0, **settings)
        return [hit.path for hit in index.search(query, k=5)]

    flat = "my mixtape"
    assert top(flat, jargon_flat_weight=1.0) != top(flat, jargon_flat_weight=None)
    assert top(flat, jargon_flat_weight=1.0)[0].startswith("/playlists")
    named = "Get a list of the playlists owned or followed by the current Spotify user"
    assert top(named, jargon_flat_weight=1.0) == top(named, jargon_flat_weight=None)
