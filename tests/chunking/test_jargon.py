"""The lexicon of API jargon: user words written for the API terms an operation contains."""

from __future__ import annotations

import pytest

from openapi_rag.chunking.compact import CompactStrategy
from openapi_rag.chunking.jargon import JargonWriter, Lexicon, shipped_lexicon
from openapi_rag.model import Operation, Service
from openapi_rag.search.bm25 import BM25_TEXT

LEXICON = Lexicon.parse(
    "# domain: chat\n"
    "guild\tserver, discord server, community\n"
    "# domain: payments\n"
    "dispute\tchargeback, contested charge\n"
    "terminal reader\tcard reader\n"
    "terminal\tpoint of sale\n"
)


def _op(path: str, summary: str = "", operation_id: str = "", method: str = "GET") -> Operation:
    return Operation(
        service="discord",
        method=method,
        path=path,
        summary=summary,
        operation_id=operation_id or None,
        raw={"summary": summary} if summary else {},
    )


def _service(*ops: Operation) -> Service:
    return Service(
        id="discord", title="Discord API", version="1", file="d.json", format="oas30", operations=list(ops)
    )


def test_terms_match_after_stemming_and_identifier_splitting():
    writer = JargonWriter(16, LEXICON)
    assert writer.words(["disputes", "listDisputes"]) == ["chargeback", "contested", "charge"]
    assert writer.words(["Get a guild"]) == ["server", "discord", "community"]


def test_words_already_said_are_not_repeated_and_the_limit_holds():
    writer = JargonWriter(16, LEXICON)
    # "server" is said by the operation itself: only the words it lacks are added
    assert writer.words(["guilds", "List the servers of a guild"]) == ["discord", "community"]
    assert JargonWriter(2, LEXICON).words(["disputes"]) == ["chargeback", "contested"]
    assert JargonWriter(0, LEXICON).words(["disputes"]) == []


def test_a_term_of_two_words_matches_only_as_consecutive_words_and_wins_over_its_first():
    writer = JargonWriter(16, LEXICON)
    phrases, _ = writer.phrases(["terminal readers"])
    assert phrases == ["card reader"]  # the longest term at a place wins: not also a "terminal"
    phrases, _ = writer.phrases(["reader of the terminal"])
    assert phrases == ["point of sale"]


def test_a_domain_applies_only_to_an_api_that_names_enough_of_its_terms():
    lexicon = Lexicon.parse(
        "# domain: gaming\nplayer\tgamer\nmatch\tgame round\nleaderboard\thigh scores\n"
        "# domain: music\nplaylist\tmix\nalbum\trecord\nartist\tsinger\n"
    )
    music = [_op("/me/player", "Get playback state"), _op("/playlists"), _op("/albums"), _op("/artists")]
    writer = JargonWriter(16, lexicon).for_service(music)
    assert writer.domains == {"music"}
    assert writer.words(["player"]) == []  # one gaming term does not make a music API a game's
    assert writer.words(["playlists"]) == ["mix"]
    assert JargonWriter(16, lexicon, domain_terms=0).for_service(music).words(["player"]) == ["gamer"]


def test_bad_lines_name_their_number():
    with pytest.raises(ValueError, match="line 2"):
        Lexicon.parse("guild\tserver\nno tab here\n")
    with pytest.raises(ValueError, match="line 1"):
        Lexicon.parse("one two three four\tx\n")


def test_compact_writes_the_words_for_bm25_and_records_the_setting():
    service = _service(_op("/guilds/{guild_id}/prune", "Prune members"))
    plain = CompactStrategy().chunk_service(service)[0]
    strategy = CompactStrategy(jargon=8, jargon_domain_terms=1)
    strategy.jargon.lexicon = LEXICON  # type: ignore[union-attr]
    chunk = strategy.chunk_service(service)[0]
    assert "server" in chunk.metadata[BM25_TEXT].split()
    assert "server" not in plain.metadata[BM25_TEXT].split()
    assert chunk.embed_text == plain.embed_text  # BM25 only unless jargon_embed
    params = strategy.params
    assert (
        params["jargon"] == 8
        and params["jargon_embed"] is False
        and params["jargon_lexicon"] == LEXICON.digest
    )
    assert "jargon" not in CompactStrategy().params  # off: not recorded


def test_jargon_embed_ends_the_embedded_line_with_the_phrases():
    service = _service(_op("/guilds/{guild_id}", "Get guild"))
    strategy = CompactStrategy(jargon=8, jargon_embed=True, jargon_domain_terms=1)
    strategy.jargon.lexicon = LEXICON  # type: ignore[union-attr]
    chunk = strategy.chunk_service(service)[0]
    assert chunk.embed_text.endswith("Users say: server, discord server, community.")


def test_the_shipped_lexicon_parses_and_bridges_known_pairs():
    lexicon = shipped_lexicon()
    assert len(lexicon.entries) >= 300
    writer = JargonWriter(32, lexicon)
    assert "chargeback" in writer.words(["disputes", "List all disputes"])
    assert "server" in writer.words(["guilds", "Get Guild"])
