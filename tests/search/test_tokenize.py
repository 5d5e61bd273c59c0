from __future__ import annotations

import pytest

from openapi_rag.search.tokenize import STOPWORDS, ApiTokenizer, split_identifier, stem


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("GET /playlists/{playlistId}/tracks", ["get", "playlist", "playlist", "id", "playlistid", "track"]),
        ("/users/{user_id}/top-artists", ["user", "user", "id", "userid", "top", "artist", "topartist"]),
        ("playlist_id playlist-id playlistId", ["playlist", "id", "playlistid"] * 3),
        ("getUserByID", ["get", "user", "id", "getuserbyid"]),  # "by" is a stopword, kept in the join
        ("HTTPResponse", ["http", "respons", "httprespons"]),
        ("X-Rate-Limit", ["rat", "limit", "xratelimit"]),  # single letters dropped, kept in the join
        ("oauth2 v1 base64 getV2Users", ["oauth2", "v1", "base64", "get", "v2", "user", "getv2user"]),
        ("Returns the 404 error for a list of movies.", ["return", "404", "error", "get", "movi"]),
        ("categories category movies movie", ["categori", "categori", "movi", "movi"]),
        ("addresses address statuses status aliases alias", ["address"] * 2 + ["status"] * 2 + ["alias"] * 2),
        ("Größe ändern", ["größ", "ändern"]),
        ("", []),
        ("--- / {} ...", []),
    ],
)
def test_default_tokens(text: str, tokens: list[str]) -> None:
    assert ApiTokenizer()(text) == tokens


def test_synonyms_map_verbs_to_one_token() -> None:
    tokenizer = ApiTokenizer(synonyms=True)
    assert tokenizer("Fetches a list; retrieves; removes the tracks; PATCH /albums") == [
        "get",
        "get",
        "get",
        "delet",
        "track",
        "updat",
        "album",
    ]
    # Nouns that look like verbs are left alone.
    assert tokenizer("GET /posts") == ["get", "post"]


def test_without_stemming_or_stopwords() -> None:
    tokenizer = ApiTokenizer(stem=False, stopwords=frozenset(), synonyms=False)
    assert tokenizer("List the playlists") == ["list", "the", "playlists"]


@pytest.mark.parametrize(
    ("word", "parts"),
    [
        ("playlistId", ["playlist", "Id"]),
        ("HTTPResponseCode", ["HTTP", "Response", "Code"]),
        ("snake_case__word", ["snake", "case", "word"]),
        ("kebab-case", ["kebab", "case"]),
        ("ABC", ["ABC"]),
        ("v2Users", ["v2", "Users"]),
    ],
)
def test_split_identifier(word: str, parts: list[str]) -> None:
    assert split_identifier(word) == parts


@pytest.mark.parametrize(
    ("word", "stemmed"),
    [
        ("tracks", "track"),
        ("changes", "chang"),
        ("change", "chang"),
        ("keys", "key"),
        ("key", "key"),
        ("bus", "bus"),
        ("class", "class"),
        ("classes", "class"),
        ("analysis", "analysis"),
        ("v2users", "v2user"),
    ],
)
def test_stem(word: str, stemmed: str) -> None:
    assert stem(word) == stemmed


def test_settings_round_trip() -> None:
    default = ApiTokenizer()
    assert default.to_dict() == {"stem": True, "synonyms": True}
    assert ApiTokenizer.from_dict(default.to_dict()) == default
    # an index saved before synonyms were the default keeps its tokens
    assert ApiTokenizer.from_dict({"stem": True}).synonyms is False
    custom = ApiTokenizer(stopwords=frozenset({"foo"}), synonyms=False)
    assert ApiTokenizer.from_dict(custom.to_dict()) == custom
    assert "the" in STOPWORDS
    with pytest.raises(ValueError, match="unknown tokenizer settings: lang"):
        ApiTokenizer.from_dict({"lang": "en"})
